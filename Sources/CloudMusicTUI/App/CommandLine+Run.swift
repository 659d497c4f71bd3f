import CloudMusicKit
import Foundation
import PlayerControl

extension CommandLine {
    /// The help, with the files' real places for this environment.
    static func usage(environment: [String: String]) -> String {
        let log = PlayerPaths.stateDirectory(environment: environment)
            .appendingPathComponent(StandardErrorLog.fileName).path
        let config = PlayerPaths.configFile(environment: environment).path
        return """
            cloudmusic: a terminal player for a CloudMusic server.

            Usage:
              cloudmusic [options]                 open the player
              cloudmusic play <search words>       play what the words find (in the running player, else a new one)
              cloudmusic pause|resume|toggle|next|previous|stop
                                                   control the running player
              cloudmusic status                    what the running player is playing
              cloudmusic config                    print a commented config file with every default
              cloudmusic logout                    forget the remembered sign-in

            Options:
              --server URL        the server (default: the config file's, else http://127.0.0.1:8080)
              --config FILE       the config file (default: the one under Files)
              --audio OUTPUT      auto, pulse, alsa or null (no sound); overrides the config's audio_output
              --no-color          never use colours (also NO_COLOR=1)
              --no-media-keys     do not offer MPRIS (desktop media keys) on D-Bus
              -h, --help          this help

            Keys in the player: ? shows them all. Space play/pause, n/p next/previous, ←/→ seek,
            +/- volume, l loop mode, / search, Enter play, a add to queue, d download, f like,
            c comments, 1-9 screens (8 messages, 9 inbox), S share the song, q quit.

            Files:
              \(config)
                  the config (`cloudmusic config` prints one with every default); audio_output chooses where
                  the sound goes: auto, pulse, alsa, or null to play without sound
              \(log)
                  the player's log: what libmpv, ALSA, PulseAudio and libav write to standard error while the
                  player is open (never over the screen), and libmpv's own words when there is no sound output
            """
    }

    /// `cloudmusic [options] [command]`; returns the exit status.
    public static func run(_ arguments: [String], startedAt: ContinuousClock.Instant) -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        var configURL: URL?
        var serverOverride: String?
        var audioOverride: String?
        var noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        var mediaKeys = true
        var words: [String] = []
        var rest = Array(arguments.dropFirst())[...]
        func value(_ option: String) -> String? {
            guard let next = rest.popFirst() else {
                fail("\(option) needs a value; see cloudmusic --help.")
                return nil
            }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help", "help":
                print(usage(environment: environment))
                return 0
            case "--server":
                guard let v = value(argument) else { return 2 }
                serverOverride = v
            case "--config":
                guard let v = value(argument) else { return 2 }
                configURL = URL(fileURLWithPath: v)
            case "--audio":
                guard let v = value(argument) else { return 2 }
                audioOverride = v
            case "--no-color", "--no-colour": noColor = true
            case "--no-media-keys": mediaKeys = false
            case "--":
                words += rest
                rest = []
            default:
                if argument.hasPrefix("-"), words.isEmpty {
                    fail("unknown option \(argument); see cloudmusic --help.")
                    return 2
                }
                words.append(argument)
            }
        }

        let config: PlayerConfig
        do {
            config = try PlayerConfig.load(
                from: configURL, validActions: Set(Command.allCases.map(\.rawValue)))
        } catch {
            fail("\(error)")
            return 2
        }
        var server = config.server
        if let serverOverride {
            guard let url = URL(string: serverOverride), let scheme = url.scheme,
                ["http", "https"].contains(scheme),
                url.host != nil
            else {
                fail(
                    "--server needs an http:// or https:// URL with a host, such as http://127.0.0.1:8080, not \"\(serverOverride)\"."
                )
                return 2
            }
            server = url
        }
        var audio = MPVConfiguration.AudioOutput(rawValue: config.audioOutput.rawValue) ?? .auto
        if let audioOverride {
            guard let output = MPVConfiguration.AudioOutput(rawValue: audioOverride) else {
                fail("--audio is one of auto, pulse, alsa or null, not \"\(audioOverride)\".")
                return 2
            }
            audio = output
        }
        let socketPath = PlayerPaths.controlSocket(environment: environment)
        let sessionFile = SessionFile(environment: environment)

        // Commands for a running player.
        var playQuery: String?
        if let command = words.first {
            let argumentsAfter = words.dropFirst().joined(separator: " ")
            switch command {
            case "config":
                print(PlayerConfig.template, terminator: "")
                return 0
            case "logout":
                do {
                    try sessionFile.clear()
                    print("Signed out: the remembered sign-in at \(sessionFile.path) is gone.")
                    return 0
                } catch {
                    fail("\(error)")
                    return 1
                }
            case "play":
                guard !argumentsAfter.trimmingCharacters(in: .whitespaces).isEmpty else {
                    fail("play needs words to search for, such as: cloudmusic play 晴天")
                    return 2
                }
                do {
                    let answer = try ControlClient.send(.play(query: argumentsAfter), path: socketPath)
                    return report(answer)
                } catch let error as ControlError where error.code == .notRunning {
                    playQuery = argumentsAfter
                } catch {
                    fail("\(error)")
                    return 1
                }
            case "pause", "resume", "toggle", "next", "previous", "stop", "status":
                let control: ControlCommand =
                    switch command {
                    case "pause": .pause
                    case "resume": .resume
                    case "toggle": .toggle
                    case "next": .next
                    case "previous": .previous
                    case "stop": .stop
                    default: .status
                    }
                do {
                    return report(try ControlClient.send(control, path: socketPath))
                } catch {
                    fail("\(error)")
                    return 1
                }
            default:
                fail("unknown command \"\(command)\"; see cloudmusic --help.")
                return 2
            }
        }

        // One player per person: two would fight over the same queue, downloads and control socket.
        if let running = try? ControlClient.send(.status, path: socketPath, timeout: 2), running.ok {
            let playing = running.status.map { " It is playing: \($0.summary)" } ?? ""
            fail(
                "a cloudmusic player is already running in another terminal.\(playing) Control it with "
                    + "`cloudmusic pause|next|status`, or quit it (q) first.")
            return 1
        }
        var notice: String?
        var remembered: SavedSession?
        do {
            remembered = try sessionFile.read(server: server)
        } catch {
            notice = "\(error)"
        }
        let stateDirectory = PlayerPaths.stateDirectory(environment: environment)
        var options = PlayerOptions(
            server: server, stateDirectory: stateDirectory,
            downloadsDirectory: PlayerPaths.dataDirectory(environment: environment).appendingPathComponent(
                "downloads"))
        options.audioOutput = audio
        options.audioDevice = config.audioDevice
        // The volume last set in the player wins over the config's starting volume.
        let volumeFile = stateDirectory.appendingPathComponent("volume")
        options.volume =
            (try? String(contentsOf: volumeFile, encoding: .utf8)).flatMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }.map { min(100, max(0, $0)) } ?? config.volume
        options.saveVolume = { level in try? Data("\(level)\n".utf8).write(to: volumeFile, options: .atomic) }
        options.colors = noColor || config.theme == .none ? .none : .auto
        options.palette = Theme.palette(fromConfig: config.colors)
        options.keyMap = KeyMap(
            overrides: Dictionary(
                uniqueKeysWithValues: config.keys.compactMap { name, keys in
                    Command(rawValue: name).map { ($0, keys) }
                }))
        options.session = remembered.map { ($0.userId, $0.token, $0.nickname.isEmpty ? nil : $0.nickname) }
        let serverText = server.absoluteString
        options.saveSession = { userID, token, nickname in
            try? sessionFile.write(
                SavedSession(server: serverText, userId: userID, token: token, nickname: nickname ?? ""))
        }
        options.forgetSession = { try? sessionFile.clear() }
        options.playQuery = playQuery
        options.controlSocketPath = socketPath
        options.mediaKeys = mediaKeys
        let configPath = configURL
        let outputOverride = audioOverride.flatMap(MPVConfiguration.AudioOutput.init(rawValue:))
        options.rereadSoundSettings = {
            let config = try PlayerConfig.load(from: configPath, environment: environment)
            return SoundSettings(
                output: outputOverride ?? MPVConfiguration.AudioOutput(rawValue: config.audioOutput.rawValue)
                    ?? .auto,
                device: config.audioDevice)
        }
        options.notice = notice
        do {
            let app = try TerminalApp(options: options)
            try app.run(startedAt: startedAt)
            return 0
        } catch {
            fail("\(error)")
            return 1
        }
    }

    private static func report(_ answer: ControlResponse) -> Int32 {
        if let status = answer.status, answer.ok {
            print(status.summary)
            if let problem = status.problem { print(problem) }
        }
        if !answer.message.isEmpty, !(answer.ok && answer.message == "Done.") {
            FileHandle.standardError.write(
                Data(((answer.ok ? "" : "cloudmusic: ") + answer.message + "\n").utf8))
        }
        return answer.ok ? 0 : 1
    }

    private static func fail(_ message: String) {
        FileHandle.standardError.write(Data("cloudmusic: \(message)\n".utf8))
    }
}
