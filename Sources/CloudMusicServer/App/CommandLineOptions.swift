import Foundation
import WebFetch

/// What `cloudmusic-server` was asked to do.
public enum ServerCommand: Equatable, Sendable {
    case serve
    case migrate
    case scan
    case demo(destination: String?)
    case backup(destination: String)
    case version
    case help(topic: String?)
    case user(UserCommand)
    /// Write the files generated from the endpoint declarations into a repository checkout.
    case generate(folder: String?)
}

/// `cloudmusic-server user ...`: managing accounts from the shell. An account is named by its phone
/// number, email address or numeric id (a number of at most 6 digits is an id).
public enum UserCommand: Equatable, Sendable {
    /// Adds a user; the password is read from the terminal, or one line of standard input.
    case add(account: String, nickname: String, admin: Bool)
    case list
    case disable(account: String)
    case enable(account: String)
    /// Sets a new password (read like `add`'s) and signs the user out everywhere.
    case passwd(account: String)
    /// Deletes the user and everything that is theirs.
    case delete(account: String)
    /// Makes an app password (for a Subsonic app) named after its device, and prints it once.
    case appPassword(account: String, name: String)
}

/// Settings from flags and environment variables; flags win over the environment.
public struct ServerOptions: Equatable, Sendable {
    public var dataFolder: String
    public var musicFolders: [String] = []
    /// Folders of videos (MVs); with none, `serve` on the demo library serves the demo's videos.
    public var videoFolders: [String] = []
    /// A folder of audiobooks (a folder of parts, or one .m4b, per book); nil for none.
    public var audiobookFolder: String?
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    public var logLevel: String = "info"
    public var threads: Int = 0
    public var corsOrigins: [String] = []
    public var maxBodyBytes: Int = 1 << 20
    public var maxUploadBytes: Int = 100 << 20
    public var maxTranscodes: Int = 4
    public var watchFolders: Bool = false
    /// Sign-up needs a code sent to the phone or email (see AccountService.Settings.signupCodes).
    public var signupCodes: Bool = true
    /// Accounts one address may make before it is slowed down (an office or school behind one NAT needs more).
    public var signupsPerAddress: Int = 20
    /// An SMTP relay for email codes; nil keeps them in the outbox.
    public var smtpHost: String?
    public var smtpPort: Int = 25
    public var smtpFrom: String = "cloudmusic@localhost"
    /// The web player's folder; nil finds the repository's `Web` folder beside the executable.
    public var webFolder: String?
    /// Orders and payment providers.
    public var shop = ShopOptions()
    /// Seconds between refreshes of each podcast's feed; 0 turns the schedule off.
    public var podcastRefreshSeconds: Int = 3_600
    /// Minutes between refreshes of each news source; 0 turns the schedule off.
    public var newsRefreshMinutes: Int = 30
    /// Restricted addresses (this machine, private networks) the server may fetch feeds and episodes from.
    public var fetchAllow: [NetworkRange] = []

    public init(dataFolder: String) { self.dataFolder = dataFolder }

    /// The default data folder: $CLOUDMUSIC_DATA, else $XDG_DATA_HOME/cloudmusic, else ~/.local/share/cloudmusic.
    public static func defaultDataFolder(environment: [String: String]) -> String {
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/cloudmusic" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/cloudmusic"
    }

    public var databasePath: String { dataFolder + "/cloudmusic.sqlite" }
}

/// A mistake on the command line, phrased for the person who typed it.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

/// Parses `cloudmusic-server` arguments; hand-written because no outside package can be fetched.
public struct CommandLineParser {
    public static let levels = ["debug", "info", "warning", "error"]

    /// One flag: its names, environment variable, help text and how it changes the options.
    struct Flag: Sendable {
        let name: String
        let environment: String?
        let valueName: String
        let help: String
        let apply: @Sendable (inout ServerOptions, String) throws -> Void
    }

    static let flags: [Flag] = coreFlags + shopFlags

    static let coreFlags: [Flag] = [
        Flag(
            name: "--data", environment: "CLOUDMUSIC_DATA", valueName: "DIR",
            help: "Folder for the database, caches and uploads (created if missing)."
        ) { $0.dataFolder = $1 },
        Flag(
            name: "--music", environment: "CLOUDMUSIC_MUSIC", valueName: "DIR",
            help: "A music folder to serve; repeat the flag for several (environment: colon-separated)."
        ) {
            options, value in
            options.musicFolders.append(contentsOf: value.split(separator: ":").map(String.init))
        },
        Flag(
            name: "--videos", environment: "CLOUDMUSIC_VIDEOS", valueName: "DIR",
            help:
                "A folder of videos (MVs: mp4, mkv, webm, mov); repeat the flag for several (environment: colon-separated)."
        ) {
            options, value in
            options.videoFolders.append(contentsOf: value.split(separator: ":").map(String.init))
        },
        Flag(
            name: "--audiobooks", environment: "CLOUDMUSIC_AUDIOBOOKS", valueName: "DIR",
            help:
                "A folder of audiobooks: each book a folder of audio files or one .m4b file (scanned at start)."
        ) { $0.audiobookFolder = $1 },
        Flag(
            name: "--host", environment: "CLOUDMUSIC_HOST", valueName: "ADDRESS",
            help: "Address to listen on (0.0.0.0 for every interface)."
        ) { $0.host = $1 },
        Flag(
            name: "--port", environment: "CLOUDMUSIC_PORT", valueName: "PORT",
            help: "TCP port to listen on, 1-65535 (0 picks a free one)."
        ) {
            $0.port = try integer($1, flag: "--port", range: 0...65535)
        },
        Flag(
            name: "--log-level", environment: "CLOUDMUSIC_LOG_LEVEL", valueName: "LEVEL",
            help: "debug, info, warning or error."
        ) { options, value in
            guard levels.contains(value.lowercased()) else {
                throw UsageError(
                    message: "--log-level must be one of debug, info, warning, error (got '\(value)').")
            }
            options.logLevel = value.lowercased()
        },
        Flag(
            name: "--threads", environment: "CLOUDMUSIC_THREADS", valueName: "N",
            help: "HTTP worker threads (0 means one per core)."
        ) {
            $0.threads = try integer($1, flag: "--threads", range: 0...512)
        },
        Flag(
            name: "--cors-origin", environment: "CLOUDMUSIC_CORS_ORIGINS", valueName: "ORIGIN",
            help: "An origin allowed to call the API from a browser, or * for any; repeatable "
                + "(environment: comma-separated)."
        ) { options, value in
            options.corsOrigins.append(
                contentsOf: value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        },
        Flag(
            name: "--max-body", environment: "CLOUDMUSIC_MAX_BODY", valueName: "BYTES",
            help: "Largest JSON or form body accepted (suffixes K, M, G)."
        ) {
            $0.maxBodyBytes = try byteCount($1, flag: "--max-body")
        },
        Flag(
            name: "--watch", environment: "CLOUDMUSIC_WATCH", valueName: "on|off",
            help: "Rescan by itself a few seconds after files in the music folders change (inotify)."
        ) {
            $0.watchFolders = try onOff($1, flag: "--watch")
        },
        Flag(
            name: "--signup-codes", environment: "CLOUDMUSIC_SIGNUP_CODES", valueName: "on|off",
            help:
                "Sign-up needs a code sent to the phone or email (on), so nobody learns which addresses have accounts."
        ) {
            $0.signupCodes = try onOff($1, flag: "--signup-codes")
        },
        Flag(
            name: "--signups-per-address", environment: "CLOUDMUSIC_SIGNUPS_PER_ADDRESS", valueName: "N",
            help: "Accounts one network address may make before it must wait (30 s, doubling to 15 min)."
        ) {
            $0.signupsPerAddress = try integer($1, flag: "--signups-per-address", range: 1...100_000)
        },
        Flag(
            name: "--max-transcodes", environment: "CLOUDMUSIC_MAX_TRANSCODES", valueName: "N",
            help: "Most songs converted at once (format, bit rate or offset asked); more get 429."
        ) {
            $0.maxTranscodes = try integer($1, flag: "--max-transcodes", range: 1...64)
        },
        Flag(
            name: "--smtp-host", environment: "CLOUDMUSIC_SMTP_HOST", valueName: "HOST",
            help:
                "Send email codes through this SMTP relay (plain SMTP, no login); without it they go to the outbox."
        ) {
            options, value in
            guard !value.contains(where: { $0.isWhitespace || $0 == "/" }) else {
                throw UsageError(message: "--smtp-host must be a host name or address (got '\(value)').")
            }
            options.smtpHost = value
        },
        Flag(
            name: "--smtp-port", environment: "CLOUDMUSIC_SMTP_PORT", valueName: "PORT",
            help: "The SMTP relay's port."
        ) {
            $0.smtpPort = try integer($1, flag: "--smtp-port", range: 1...65535)
        },
        Flag(
            name: "--smtp-from", environment: "CLOUDMUSIC_SMTP_FROM", valueName: "ADDRESS",
            help: "The sender address of code emails."
        ) {
            options, value in
            guard value.contains("@"), !value.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" })
            else {
                throw UsageError(message: "--smtp-from must be an email address (got '\(value)').")
            }
            options.smtpFrom = value
        },
        Flag(
            name: "--web", environment: "CLOUDMUSIC_WEB", valueName: "DIR",
            help:
                "The web player's folder, served at / (default: the Web folder beside the executable's package)."
        ) {
            options, value in
            guard FileManager.default.fileExists(atPath: value + "/index.html") else {
                throw UsageError(
                    message: "--web must be a folder with the web player's index.html (got '\(value)').")
            }
            options.webFolder = value
        },
        Flag(
            name: "--max-upload", environment: "CLOUDMUSIC_MAX_UPLOAD", valueName: "BYTES",
            help: "Largest multipart upload accepted (suffixes K, M, G)."
        ) {
            $0.maxUploadBytes = try byteCount($1, flag: "--max-upload")
        },
        Flag(
            name: "--podcast-refresh", environment: "CLOUDMUSIC_PODCAST_REFRESH", valueName: "SECONDS|off",
            help: "How often each podcast's feed is fetched again (suffixes m, h; off stops the schedule)."
        ) {
            $0.podcastRefreshSeconds = try duration($1, flag: "--podcast-refresh")
        },
        Flag(
            name: "--news-refresh", environment: "CLOUDMUSIC_NEWS_REFRESH", valueName: "MINUTES|off",
            help:
                "How often each news source is fetched again, in minutes (default 30; 0 or off stops the schedule)."
        ) { options, value in
            guard value == "off" || (Int(value).map { (0...10_080).contains($0) } ?? false) else {
                throw UsageError(
                    message:
                        "--news-refresh must be a number of minutes from 0 to 10080, or off (got '\(value)')."
                )
            }
            options.newsRefreshMinutes = Int(value) ?? 0
        },
        Flag(
            name: "--fetch-allow", environment: "CLOUDMUSIC_FETCH_ALLOW", valueName: "CIDR",
            help:
                "A private or local network feeds and episodes may be fetched from (10.0.0.0/8); repeatable "
                + "(environment: comma-separated). Without it only public addresses are fetched."
        ) { options, value in
            for part in value.split(separator: ",") {
                guard let range = NetworkRange(String(part)) else {
                    throw UsageError(
                        message: "--fetch-allow must be an address block such as 10.0.0.0/8 (got '\(part)').")
                }
                options.fetchAllow.append(range)
            }
        },
    ]

    /// Parses arguments (without the program name) over the environment's settings.
    public static func parse(
        _ arguments: [String], environment: [String: String]
    ) throws -> (ServerCommand, ServerOptions) {
        var options = ServerOptions(dataFolder: ServerOptions.defaultDataFolder(environment: environment))
        for flag in flags {
            guard let variable = flag.environment, let value = environment[variable], !value.isEmpty else {
                continue
            }
            do { try flag.apply(&options, value) } catch let error as UsageError {
                throw UsageError(message: "\(variable): \(error.message)")
            }
        }
        var seenList: Set<String> = []
        var positional: [String] = []
        var admin = false
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-h" || argument == "--help" { return (.help(topic: positional.first), options) }
            if argument == "--version" { return (.version, options) }
            if argument == "--admin" {
                admin = true
                continue
            }
            guard argument.hasPrefix("-") else {
                positional.append(argument)
                continue
            }
            var name = argument
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            guard let flag = flags.first(where: { $0.name == name }) else {
                throw UsageError(
                    message: "Unknown option '\(name)'. Run 'cloudmusic-server help' for the list.")
            }
            if value == nil {
                guard index < arguments.count, !arguments[index].hasPrefix("--") else {
                    throw UsageError(message: "\(name) needs a value (\(flag.valueName)).")
                }
                value = arguments[index]
                index += 1
            }
            // Lists given on the command line replace the environment's list rather than add to it.
            if name == "--music" || name == "--videos" || name == "--cors-origin", !seenList.contains(name) {
                seenList.insert(name)
                switch name {
                case "--music": options.musicFolders = []
                case "--videos": options.videoFolders = []
                default: options.corsOrigins = []
                }
            }
            try flag.apply(&options, value!)
        }
        let command: ServerCommand
        switch positional.first {
        case nil, "serve": command = .serve
        case "migrate": command = .migrate
        case "scan": command = .scan
        case "demo": command = .demo(destination: positional.count > 1 ? positional[1] : nil)
        case "version": command = .version
        case "generate": command = .generate(folder: positional.count > 1 ? positional[1] : nil)
        case "help": command = .help(topic: positional.dropFirst().first)
        case "backup":
            guard positional.count >= 2 else {
                throw UsageError(message: "backup needs a destination file: cloudmusic-server backup <file>")
            }
            command = .backup(destination: positional[1])
        case "user":
            command = .user(try userCommand(Array(positional.dropFirst()), admin: admin))
        case let other?:
            throw UsageError(
                message:
                    "Unknown command '\(other)'. Commands: serve, scan, demo, migrate, backup, user, generate, version, help."
            )
        }
        if admin, case .user(.add) = command {
        } else if admin {
            throw UsageError(message: "--admin goes only with 'user add'.")
        }
        let allowedExtra: Int
        switch command {
        case .backup, .demo, .generate: allowedExtra = 2
        case .user: allowedExtra = positional.count
        default: allowedExtra = 1
        }
        if case .help = command {
        } else if positional.count > allowedExtra {
            throw UsageError(message: "Unexpected argument '\(positional[allowedExtra])'.")
        }
        return (command, options)
    }

    static func userCommand(_ words: [String], admin: Bool) throws -> UserCommand {
        let usage =
            "Usage: cloudmusic-server user add <phone|email> <nickname> [--admin] | list | disable <account> "
            + "| enable <account> | passwd <account> | delete <account> | app-password <account> <name>"
        switch (words.first, words.count) {
        case ("add", 3): return .add(account: words[1], nickname: words[2], admin: admin)
        case ("list", 1): return .list
        case ("disable", 2): return .disable(account: words[1])
        case ("enable", 2): return .enable(account: words[1])
        case ("passwd", 2): return .passwd(account: words[1])
        case ("delete", 2): return .delete(account: words[1])
        case ("app-password", 3): return .appPassword(account: words[1], name: words[2])
        default: throw UsageError(message: usage)
        }
    }

    /// Seconds, minutes (`30m`) or hours (`2h`), from a minute to a week; `off` is 0.
    static func duration(_ text: String, flag: String) throws -> Int {
        let lower = text.lowercased()
        if lower == "off" || lower == "0" { return 0 }
        let unit = lower.last.flatMap { ["s": 1, "m": 60, "h": 3_600][String($0)] }
        let digits = unit == nil ? lower : String(lower.dropLast())
        guard let number = Int(digits), number > 0, number <= 604_800 / (unit ?? 1),
            (60...604_800).contains(number * (unit ?? 1))
        else {
            throw UsageError(
                message:
                    "\(flag) must be off or a time from 60 s to a week, such as 900, 30m or 2h (got '\(text)')."
            )
        }
        return number * (unit ?? 1)
    }

    static func onOff(_ text: String, flag: String) throws -> Bool {
        switch text.lowercased() {
        case "on", "yes", "true", "1": return true
        case "off", "no", "false", "0": return false
        default: throw UsageError(message: "\(flag) must be on or off (got '\(text)').")
        }
    }

    static func integer(_ text: String, flag: String, range: ClosedRange<Int>) throws -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                message:
                    "\(flag) must be a whole number from \(range.lowerBound) to \(range.upperBound) (got '\(text)')."
            )
        }
        return value
    }

    static func byteCount(_ text: String, flag: String) throws -> Int {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = text.uppercased()
        if digits.hasSuffix("B") { digits.removeLast() }
        var multiplier = 1
        if let last = digits.last, let unit = units[last] {
            multiplier = unit
            digits.removeLast()
        }
        guard let number = Int(digits), number > 0, number <= (1 << 40) / multiplier else {
            throw UsageError(message: "\(flag) must be a size like 512K, 10M or 1G (got '\(text)').")
        }
        return number * multiplier
    }

    /// The help text, generated from the flags so it never drifts from them.
    public static func helpText(version: String) -> String {
        var text = """
            cloudmusic-server \(version): a self-hosted music server.

            Usage: cloudmusic-server [command] [options]

            Commands:
              serve            Run the server (the default).
              scan             Scan the music folders now, with a progress bar, then exit.
              demo [folder]    Generate the demo library (30 short real tracks) into folder,
                               default <data>/demo-library.
              migrate          Bring the database schema up to date, then exit.
              backup <file>    Copy the live database to <file> while the server runs.
              user add <phone|email> <nickname> [--admin]
                               Add a user; the password is read from the terminal or stdin.
              user list        List the users.
              user disable|enable|passwd|delete <account>
                               Disable or re-enable a user, set a new password (signs them
                               out everywhere), or delete them and everything that is theirs.
                               <account> is a phone, email or user id.
              user app-password <account> <name>
                               Make an app password for a Subsonic app on the device <name>
                               and print it (it is shown only this once).
              generate [folder]
                               Write openapi.json and Web/js/api.js, generated from the endpoint
                               declarations, into the repository at folder (default: here).
              version          Print the version.
              help             Print this help.

            With no --music folder, serve uses the demo library, generating it on first start,
            and with no --videos folder either, the demo's two videos.

            Options (each also read from the environment variable shown):

            """
        for flag in flags {
            let left = "  \(flag.name) \(flag.valueName)"
            text += left.padding(toLength: 26, withPad: " ", startingAt: 0) + flag.help
            if let variable = flag.environment { text += " [\(variable)]" }
            text += "\n"
        }
        text += """

            Restore a backup: stop the server, copy the backup file over <data>/cloudmusic.sqlite
            (removing cloudmusic.sqlite-wal and cloudmusic.sqlite-shm), then start the server.

            """
        return text
    }
}
