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
        let invocation: Invocation
        switch Invocation.parse(arguments, environment: environment) {
        case .exit(let status): return status
        case .next(let parsed): invocation = parsed
        }
        let settings: Settings
        switch Settings.load(invocation) {
        case .exit(let status): return status
        case .next(let loaded): settings = loaded
        }
        let socketPath = PlayerPaths.controlSocket(environment: environment)
        let sessionFile = SessionFile(environment: environment)
        var playQuery: String?
        if let command = invocation.words.first {
            switch control(
                command, invocation.words.dropFirst(), socketPath: socketPath, sessionFile: sessionFile)
            {
            case .exit(let status): return status
            case .next(let query): playQuery = query
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
        var options = playerOptions(
            invocation, settings, environment: environment, sessionFile: sessionFile)
        options.playQuery = playQuery
        options.controlSocketPath = socketPath
        do {
            let app = try TerminalApp(options: options)
            try app.run(startedAt: startedAt)
            return 0
        } catch {
            fail("\(error)")
            return 1
        }
    }

    /// Either an exit status now, or what the next step goes on with.
    enum Step<Value> {
        case exit(Int32)
        case next(Value)
    }

    /// The options and words of the command line.
    struct Invocation {
        var configURL: URL?
        var serverOverride: String?
        var audioOverride: String?
        var noColor: Bool
        var mediaKeys = true
        var words: [String] = []

        static func parse(_ arguments: [String], environment: [String: String]) -> Step<Invocation> {
            var invocation = Invocation(noColor: environment["NO_COLOR"].map { !$0.isEmpty } ?? false)
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
                    return .exit(0)
                case "--server":
                    guard let v = value(argument) else { return .exit(2) }
                    invocation.serverOverride = v
                case "--config":
                    guard let v = value(argument) else { return .exit(2) }
                    invocation.configURL = URL(fileURLWithPath: v)
                case "--audio":
                    guard let v = value(argument) else { return .exit(2) }
                    invocation.audioOverride = v
                case "--no-color", "--no-colour": invocation.noColor = true
                case "--no-media-keys": invocation.mediaKeys = false
                case "--":
                    invocation.words += rest
                    rest = []
                default:
                    if argument.hasPrefix("-"), invocation.words.isEmpty {
                        fail("unknown option \(argument); see cloudmusic --help.")
                        return .exit(2)
                    }
                    invocation.words.append(argument)
                }
            }
            return .next(invocation)
        }
    }

    /// The config file, with the command line's server and sound output over it.
    struct Settings {
        var config: PlayerConfig
        var server: URL
        var audio: MPVConfiguration.AudioOutput

        static func load(_ invocation: Invocation) -> Step<Settings> {
            let config: PlayerConfig
            do {
                config = try PlayerConfig.load(
                    from: invocation.configURL, validActions: Set(Command.allCases.map(\.rawValue)))
            } catch {
                fail("\(error)")
                return .exit(2)
            }
            var server = config.server
            if let serverOverride = invocation.serverOverride {
                guard let url = URL(string: serverOverride), let scheme = url.scheme,
                    ["http", "https"].contains(scheme),
                    url.host != nil
                else {
                    fail(
                        "--server needs an http:// or https:// URL with a host, such as http://127.0.0.1:8080, not \"\(serverOverride)\"."
                    )
                    return .exit(2)
                }
                server = url
            }
            var audio = MPVConfiguration.AudioOutput(rawValue: config.audioOutput.rawValue) ?? .auto
            if let audioOverride = invocation.audioOverride {
                guard let output = MPVConfiguration.AudioOutput(rawValue: audioOverride) else {
                    fail("--audio is one of auto, pulse, alsa or null, not \"\(audioOverride)\".")
                    return .exit(2)
                }
                audio = output
            }
            return .next(Settings(config: config, server: server, audio: audio))
        }
    }

    /// Runs a command word (`config`, `logout`, or one for the running player); `play` with no player running
    /// goes on to open one with the words to search for.
    private static func control(
        _ command: String, _ words: ArraySlice<String>, socketPath: String, sessionFile: SessionFile
    ) -> Step<String?> {
        let argumentsAfter = words.joined(separator: " ")
        switch command {
        case "config":
            print(PlayerConfig.template, terminator: "")
            return .exit(0)
        case "logout":
            do {
                try sessionFile.clear()
                print("Signed out: the remembered sign-in at \(sessionFile.path) is gone.")
                return .exit(0)
            } catch {
                fail("\(error)")
                return .exit(1)
            }
        case "play":
            guard !argumentsAfter.trimmingCharacters(in: .whitespaces).isEmpty else {
                fail("play needs words to search for, such as: cloudmusic play 晴天")
                return .exit(2)
            }
            do {
                let answer = try ControlClient.send(.play(query: argumentsAfter), path: socketPath)
                return .exit(report(answer))
            } catch let error as ControlError where error.code == .notRunning {
                return .next(argumentsAfter)
            } catch {
                fail("\(error)")
                return .exit(1)
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
                return .exit(report(try ControlClient.send(control, path: socketPath)))
            } catch {
                fail("\(error)")
                return .exit(1)
            }
        default:
            fail("unknown command \"\(command)\"; see cloudmusic --help.")
            return .exit(2)
        }
    }

    /// The player's options from the settings, with what it keeps between runs (volume, sign-in).
    private static func playerOptions(
        _ invocation: Invocation, _ settings: Settings, environment: [String: String],
        sessionFile: SessionFile
    ) -> PlayerOptions {
        let config = settings.config
        var notice: String?
        var remembered: SavedSession?
        do {
            remembered = try sessionFile.read(server: settings.server)
        } catch {
            notice = "\(error)"
        }
        let stateDirectory = PlayerPaths.stateDirectory(environment: environment)
        var options = PlayerOptions(
            server: settings.server, stateDirectory: stateDirectory,
            downloadsDirectory: PlayerPaths.dataDirectory(environment: environment).appendingPathComponent(
                "downloads"))
        options.audioOutput = settings.audio
        options.audioDevice = config.audioDevice
        // The volume last set in the player wins over the config's starting volume.
        let volumeFile = stateDirectory.appendingPathComponent("volume")
        options.volume =
            (try? String(contentsOf: volumeFile, encoding: .utf8)).flatMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }.map { min(100, max(0, $0)) } ?? config.volume
        options.saveVolume = { level in try? Data("\(level)\n".utf8).write(to: volumeFile, options: .atomic) }
        options.colors = invocation.noColor || config.theme == .none ? .none : .auto
        options.palette = Theme.palette(fromConfig: config.colors)
        options.keyMap = KeyMap(
            overrides: Dictionary(
                uniqueKeysWithValues: config.keys.compactMap { name, keys in
                    Command(rawValue: name).map { ($0, keys) }
                }))
        options.session = remembered.map { ($0.userId, $0.token, $0.nickname.isEmpty ? nil : $0.nickname) }
        let serverText = settings.server.absoluteString
        options.saveSession = { userID, token, nickname in
            try? sessionFile.write(
                SavedSession(server: serverText, userId: userID, token: token, nickname: nickname ?? ""))
        }
        options.forgetSession = { try? sessionFile.clear() }
        options.mediaKeys = invocation.mediaKeys
        let configPath = invocation.configURL
        let outputOverride = invocation.audioOverride.flatMap(MPVConfiguration.AudioOutput.init(rawValue:))
        options.rereadSoundSettings = {
            let config = try PlayerConfig.load(from: configPath, environment: environment)
            return SoundSettings(
                output: outputOverride ?? MPVConfiguration.AudioOutput(rawValue: config.audioOutput.rawValue)
                    ?? .auto,
                device: config.audioDevice)
        }
        options.notice = notice
        return options
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
