import AudioMetadata
import Foundation
import HTTPServer
import MusicCore
import Storage

/// The `cloudmusic-server` program: parses its arguments and runs one command; returns the exit code.
public enum ServerMain {
    public static func run(arguments: [String], environment: [String: String]) -> Int32 {
        let command: ServerCommand
        var options: ServerOptions
        do {
            (command, options) = try CommandLineParser.parse(arguments, environment: environment)
        } catch {
            printError("cloudmusic-server: \(error)")
            return 64  // EX_USAGE
        }
        let logger = Logger(level: logLevel(options.logLevel))
        do {
            switch command {
            case .help:
                print(CommandLineParser.helpText(version: CloudMusicVersion.current), terminator: "")
            case .generate(let folder):
                let root = folder ?? FileManager.default.currentDirectoryPath
                for (name, text) in try GeneratedFiles.all() {
                    let url = URL(fileURLWithPath: root + "/" + name)
                    try FileManager.default.createDirectory(
                        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(text.utf8).write(to: url, options: .atomic)
                    print("Wrote \(root)/\(name).")
                }
            case .version:
                print("cloudmusic-server \(CloudMusicVersion.current) (API \(CloudMusicVersion.apiVersion))")
            case .migrate:
                let app = try ServerApp(options: options, logger: logger)
                let versions = try Schema.migrator.appliedVersions(in: app.database)
                print("Database \(options.databasePath) is at schema version \(versions.last ?? 0).")
            case .backup(let destination):
                let app = try ServerApp(options: options, logger: logger)
                try app.database.backup(to: destination)
                print("Backed up \(options.databasePath) to \(destination).")
            case .scan:
                guard !options.musicFolders.isEmpty else {
                    throw UsageError(
                        message: "scan needs a music folder: cloudmusic-server scan --music <folder>")
                }
                let app = try ServerApp(options: options, logger: logger)
                let bar = ProgressBar()
                let started = Date()
                let report = try LibraryScanner(database: app.database, folders: options.musicFolders).scan {
                    bar.show($0)
                }
                bar.finish()
                let seconds = Date().timeIntervalSince(started)
                print(
                    "Scanned \(report.filesSeen) files in \(String(format: "%.3f", seconds)) s "
                        + "(\(Int(Double(report.filesSeen) / max(seconds, 0.000_001))) files/s): \(report.added) added, \(report.updated) updated, "
                        + "\(report.moved) moved, \(report.removed) removed, \(report.unchanged) unchanged, "
                        + "\(report.failed) skipped.")
                for issue in report.issues.prefix(20) { print("  skipped \(issue.path): \(issue.reason)") }
                if report.issues.count > 20 {
                    print("  ... and \(report.issues.count - 20) more (GET /v1/library/scan)")
                }
                if !options.videoFolders.isEmpty {
                    let videos = try app.videoScans.scanner.scan()
                    print(
                        "Scanned \(videos.filesSeen) videos: \(videos.added) added, \(videos.updated) updated, "
                            + "\(videos.removed) removed, \(videos.unchanged) unchanged, \(videos.failed) skipped."
                    )
                    for issue in videos.issues.prefix(20) {
                        print("  skipped \(issue.path): \(issue.reason)")
                    }
                }
            case .user(let command):
                let app = try ServerApp(options: options, logger: logger)
                try UserShell(accounts: app.accounts, passwords: app.passwords).run(command)
            case .demo(let destination):
                let folder = destination ?? options.dataFolder + "/demo-library"
                try generateDemoLibrary(at: folder)
                let videos = try generateDemoVideos(forLibrary: folder)
                print(
                    "Demo library ready in \(folder). Serve it with: cloudmusic-server serve --music \(folder) "
                        + "--videos \(videos)")
            case .serve:
                let usesDemoLibrary = options.musicFolders.isEmpty
                if usesDemoLibrary {
                    let folder = options.dataFolder + "/demo-library"
                    if !FileManager.default.fileExists(atPath: folder + "/.complete") {
                        print(
                            "No music folder given: generating a demo library in \(folder) (needs ffmpeg)...")
                        try generateDemoLibrary(at: folder)
                    }
                    options.musicFolders = [folder]
                    if options.videoFolders.isEmpty {
                        options.videoFolders = [try generateDemoVideos(forLibrary: folder)]
                    }
                }
                let app = try ServerApp(options: options, logger: logger)
                if usesDemoLibrary {
                    do { try app.addDemoDiscovery() } catch {
                        logger.error("event=demo_discovery_failed error=\"\(error)\"")
                    }
                }
                try app.serve { port in
                    let host =
                        options.host == "0.0.0.0"
                        ? "127.0.0.1"
                        : options.host == "::"
                            ? "[::1]" : options.host.contains(":") ? "[\(options.host)]" : options.host
                    let base = "http://\(host):\(port)"
                    print("CloudMusic \(CloudMusicVersion.current) is running: open \(base)/ to listen")
                    print("  server:  \(base)/v1/server")
                    print("  songs:   \(base)/v1/songs")
                    print("  search:  \(base)/v1/searches?query=night")
                    print("  scan:    \(base)/v1/library/scan")
                    print("  API:     \(base)/v1/openapi.json")
                    if options.smtpHost == nil {
                        print(
                            "  codes:   \(base)/v1/admin/outbox (sign-up and sign-in codes wait here; see --smtp-host)"
                        )
                    }
                    print(
                        "Music: \(options.musicFolders.joined(separator: ", ")). Data: \(options.dataFolder). Stop with Ctrl-C."
                    )
                    if !options.videoFolders.isEmpty {
                        print("Videos: \(options.videoFolders.joined(separator: ", ")).")
                    }
                    fflushStdout()
                }
            }
            return 0
        } catch let error as UsageError {
            printError("cloudmusic-server: \(error.message)")
            return 64
        } catch let error as ServiceError {
            printError("cloudmusic-server: \(error.message)")
            return 1
        } catch let error as DatabaseError {
            printError("cloudmusic-server: database problem at \(options.databasePath): \(error)")
            return 1
        } catch {
            printError("cloudmusic-server: \(error)")
            return 1
        }
    }

    /// Generates the demo library, marking it complete only at the end so an interrupted run starts over.
    static func generateDemoLibrary(at folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        unlink(folder + "/.complete")
        let bar = ProgressBar()
        try LibraryGenerator.makeDemoLibrary(at: folder) { done, total in
            bar.show(ScanProgress(phase: "generating", filesSeen: done, toRead: total, read: done))
        }
        bar.finish()
        FileManager.default.createFile(atPath: folder + "/.complete", contents: nil)
    }

    /// The demo's two videos beside a demo library, made once (in a few seconds) when missing.
    static func generateDemoVideos(forLibrary library: String) throws -> String {
        let folder = LibraryGenerator.demoVideosFolder(forLibrary: library)
        if !FileManager.default.fileExists(atPath: folder + "/.complete") {
            try LibraryGenerator.makeDemoVideos(at: folder, musicFolder: library)
            FileManager.default.createFile(atPath: folder + "/.complete", contents: nil)
        }
        return folder
    }

    static func logLevel(_ name: String) -> LogLevel {
        switch name {
        case "debug": return .debug
        case "warning": return .warning
        case "error": return .error
        default: return .info
        }
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    static func fflushStdout() { fflush(nil) }
}
