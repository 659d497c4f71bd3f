import CloudMusicKit
import Foundation

extension CommandLine {
    /// `cloudmusic [options] [command]`; returns the exit status.
    public static func run(_ arguments: [String], startedAt: ContinuousClock.Instant) -> Int32 {
        var server = URL(string: "http://127.0.0.1:8080")!
        var audio = MPVConfiguration.AudioOutput.auto
        var rest = Array(arguments.dropFirst())
        while let first = rest.first, first.hasPrefix("--") {
            rest.removeFirst()
            switch first {
            case "--server": if let value = rest.first, let url = URL(string: value) { server = url; rest.removeFirst() }
            case "--audio": if let value = rest.first, let output = MPVConfiguration.AudioOutput(rawValue: value) { audio = output; rest.removeFirst() }
            default: break
            }
        }
        let home = FileManager.default.homeDirectoryForCurrentUser
        var options = PlayerOptions(
            server: server, stateDirectory: home.appendingPathComponent(".local/state/cloudmusic"),
            downloadsDirectory: home.appendingPathComponent(".local/share/cloudmusic/downloads"))
        options.audioOutput = audio
        do {
            let app = try TerminalApp(options: options)
            try app.run(startedAt: startedAt)
            return 0
        } catch {
            FileHandle.standardError.write(Data("cloudmusic: \(error)\n".utf8))
            return 1
        }
    }
}
