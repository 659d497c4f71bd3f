import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal player's settings, read from a hand-edited `key = value` file.
///
/// The format, which `template` shows in full:
/// - `name = value` lines; spaces around `=` and at the ends are ignored.
/// - A line whose first non-blank character is `#` is a comment (a `#` later in a line is part of
///   the value, so `#` can be bound as a key).
/// - Top-level settings: `server`, `audio_output`, `audio_device`, `volume`, `theme`.
/// - `[keys]`: `action = key, key`. A line replaces that action's default keys, an empty value
///   unbinds it, and a key bound here is taken away from any action still on its defaults.
/// - `[colors]`: `role = fg`, `role = fg on bg` or `role = on bg` for the roles in `colorRoles`.
/// - Anything unknown or malformed is a `ConfigError` naming the line; a setting that is not in
///   the file keeps its default.
public struct PlayerConfig: Equatable, Sendable {
    /// Which audio output mpv uses (its `ao` option); `null` plays silently.
    public enum AudioOutput: String, Sendable, CaseIterable {
        case auto, pulse, alsa, null
    }

    /// Whether the UI uses colours: `auto` when the terminal has them, `none` never.
    public enum Theme: String, Sendable, CaseIterable {
        case auto, none
    }

    /// The CloudMusic server: an http or https URL with a host.
    public var server: URL
    public var audioOutput: AudioOutput
    /// Passed to mpv's `audio-device` option; nil lets mpv choose.
    public var audioDevice: String?
    /// The starting volume, 0–100.
    public var volume: Int
    public var theme: Theme
    /// Action name -> the keys that trigger it (an empty list leaves the action without a key).
    public var keys: [String: [KeyName]]
    /// Colour role (see `colorRoles`) -> its colours.
    public var colors: [String: ColorSpec]

    public static let defaultServer = URL(string: "http://127.0.0.1:8080")!
    public static let defaultVolume = 80

    /// The colour roles of the terminal UI, in the order the template lists them.
    public static let colorRoles: [String] = [
        "normal", "dim", "highlight", "accent", "karaoke_sung", "karaoke_unsung", "selected",
        "progress_filled", "progress_empty", "error", "mention", "topic",
    ]

    // Ordered so the template reads in a sensible order; the dictionaries derive from these.
    /// The terminal player's commands and their keys, in the order the help screen and the template list them.
    public static let keyDefaults: [(action: String, keys: [KeyName])] = [
        ("play_pause", [.space]),
        ("next", [.character("n")]),
        ("previous", [.character("p")]),
        ("seek_back", [.left]),
        ("seek_forward", [.right]),
        ("volume_up", [.character("+"), .character("=")]),
        ("volume_down", [.character("-")]),
        ("loop_mode", [.character("l")]),
        ("like", [.character("f")]),
        ("speed_down", [.character("<")]),
        ("speed_up", [.character(">")]),
        ("home", [.character("1")]),
        ("library", [.character("2")]),
        ("search", [.character("/"), .character("3")]),
        ("my_music", [.character("4")]),
        ("queue", [.character("5")]),
        ("downloads", [.character("6")]),
        ("now_playing", [.character("7")]),
        ("messages", [.character("8")]),
        ("notifications", [.character("9")]),
        ("podcasts", [.character("0")]),
        ("news", [.character("N")]),
        ("comments", [.character("c")]),
        ("help", [.character("?"), .function(1)]),
        ("back", [.escape, .backspace]),
        ("quit", [.character("q")]),
        ("up", [.up, .character("k")]),
        ("down", [.down, .character("j")]),
        ("page_up", [.pageUp]),
        ("page_down", [.pageDown]),
        ("top", [.home, .character("g")]),
        ("bottom", [.end, .character("G")]),
        ("next_tab", [.tab]),
        ("previous_tab", [.backTab]),
        ("play", [.enter]),
        ("play_all", [.character("P")]),
        ("add_to_queue", [.character("a")]),
        ("add_to_sheet", [.character("m")]),
        ("download", [.character("d")]),
        ("collect", [.character("s")]),
        ("move_up", [.character("K")]),
        ("move_down", [.character("J")]),
        ("remove", [.character("x"), .delete]),
        ("clear", [.character("C")]),
        ("write", [.character("w")]),
        ("reply", [.character("r")]),
        ("refresh", [.control("r")]),
        ("rename", [.character("e")]),
        ("share", [.character("S")]),
        ("mark_read", [.character("R")]),
    ]

    /// The player's colours, red like the apps it follows.
    public static let colorDefaults: [(role: String, spec: ColorSpec)] = [
        ("normal", ColorSpec(foreground: -1, background: -1)),
        ("dim", ColorSpec(foreground: 8)),
        ("highlight", ColorSpec(foreground: 14)),
        ("accent", ColorSpec(foreground: 1)),
        ("karaoke_sung", ColorSpec(foreground: 9)),
        ("karaoke_unsung", ColorSpec(foreground: -1)),
        ("selected", ColorSpec(foreground: 15, background: 1)),
        ("progress_filled", ColorSpec(foreground: 1)),
        ("progress_empty", ColorSpec(foreground: 8)),
        ("error", ColorSpec(foreground: 9)),
        ("mention", ColorSpec(foreground: 12)),
        ("topic", ColorSpec(foreground: 11)),
    ]

    /// The keys when the config file says nothing about them.
    public static let defaultKeys: [String: [KeyName]] = Dictionary(
        uniqueKeysWithValues: keyDefaults.map { ($0.action, $0.keys) })

    /// The colours when the config file says nothing about them.
    public static let defaultColors: [String: ColorSpec] = Dictionary(
        uniqueKeysWithValues: colorDefaults.map { ($0.role, $0.spec) })

    /// The defaults: what an empty or missing config file gives.
    public init() {
        server = Self.defaultServer
        audioOutput = .auto
        audioDevice = nil
        volume = Self.defaultVolume
        theme = .auto
        keys = Self.defaultKeys
        colors = Self.defaultColors
    }

    /// Reads the config in `text`; `path` only names the file in errors.
    ///
    /// When `validActions` is given, an action in `[keys]` that is not in it is an error (a typo
    /// would otherwise silently leave a key unbound).
    public init(parsing text: String, path: String, validActions: Set<String>? = nil) throws {
        var parser = ConfigParser(path: path, validActions: validActions)
        self = try parser.parse(text)
    }

    /// Reads the config file at `url`, or at `PlayerPaths.configFile(environment:)` when `url` is nil.
    ///
    /// A missing file gives the defaults; an unreadable or invalid one throws `ConfigError`.
    public static func load(
        from url: URL?, validActions: Set<String>? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> PlayerConfig {
        let path = (url ?? PlayerPaths.configFile(environment: environment)).path
        func unreadable(_ message: String) -> ConfigError {
            ConfigError(code: .unreadable, path: path, line: nil, message: message)
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return PlayerConfig() }
            throw unreadable("cannot open the config file: \(SystemError().text)")
        }
        defer { close(fd) }
        let bytes: [UInt8]
        do {
            bytes = try readAll(fd: fd, limit: 1 << 20)
        } catch .tooLarge {
            throw unreadable("the config file is over 1 MiB; it should be a few lines of text")
        } catch .system(let error) {
            throw unreadable("cannot read the config file: \(error.text)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw unreadable("the config file is not UTF-8 text; save it as UTF-8")
        }
        return try PlayerConfig(parsing: text, path: path, validActions: validActions)
    }

    /// A commented config file with every default written out; it parses back to `PlayerConfig()`.
    public static let template: String = {
        var lines = [
            "# cloudmusic configuration",
            "#",
            "# Lines are `name = value`. A line starting with # is a comment. Delete or comment out a",
            "# line to get its default back.",
            "",
            "# The CloudMusic server: an http:// or https:// URL.",
            "server = \(defaultServer.absoluteString)",
            "",
            "# Where sound goes: auto, pulse, alsa, or null (no sound).",
            "audio_output = auto",
            "",
            "# The device for mpv's audio-device option (`mpv --audio-device=help` lists them).",
            "# Unset lets mpv choose.",
            "# audio_device = alsa/default",
            "",
            "# The starting volume, from 0 to 100.",
            "volume = \(defaultVolume)",
            "",
            "# auto uses colours when the terminal has them; none never does.",
            "theme = auto",
            "",
            "[keys]",
            "# action = key, or several keys separated by commas; an empty value leaves the action",
            "# without a key. A key bound here is taken away from any action left on its defaults.",
            "# Keys: a single character (case matters: G is not g), space, enter, tab, backspace, esc,",
            "# shift-tab, delete, left, right, up, down, pgup, pgdn, home, end, f1 to f12, ctrl-a to ctrl-z,",
            "# and comma.",
        ]
        lines += aligned(keyDefaults.map { ($0.action, $0.keys.map(\.configName).joined(separator: ", ")) })
        lines += [
            "",
            "[colors]",
            "# role = foreground, or foreground on background. Colours: black, red, green, yellow,",
            "# blue, magenta, cyan, white, their bright- forms (bright-red), default (the terminal's",
            "# own colour), or a number from 0 to 255.",
        ]
        lines += aligned(colorDefaults.map { ($0.role, $0.spec.configText) })
        return lines.joined(separator: "\n") + "\n"
    }()

    /// `name = value` lines with the `=` signs in one column.
    private static func aligned(_ settings: [(name: String, value: String)]) -> [String] {
        let width = settings.map(\.name.count).max() ?? 0
        return settings.map {
            $0.name + String(repeating: " ", count: width - $0.name.count) + " = " + $0.value
        }
    }

    /// The server URL in `text` when it is http or https with a host, else nil.
    static func serverURL(_ text: String) -> URL? {
        guard let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { return nil }
        return components.url
    }
}

/// One pass over a config text; keeps what it has seen so duplicates can name the earlier line.
private struct ConfigParser {
    enum Section { case top, keys, colors }

    let path: String
    let validActions: Set<String>?
    var section = Section.top
    var lineNumber = 0
    var config = PlayerConfig()
    var settingLines: [String: Int] = [:]
    var actionLines: [String: Int] = [:]
    var roleLines: [String: Int] = [:]
    var explicitKeys: [String: [KeyName]] = [:]
    var keyOwners: [KeyName: (action: String, line: Int)] = [:]

    init(path: String, validActions: Set<String>?) {
        self.path = path
        self.validActions = validActions
    }

    mutating func parse(_ text: String) throws -> PlayerConfig {
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        // isNewline also splits "\r\n", which Swift treats as one Character.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .enumerated()
        {
            lineNumber = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                try readSection(line)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw error(
                    .syntax, "\"\(line)\" is neither a setting nor a section; write name = value or [keys]")
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw error(.syntax, "there is no name before the = sign") }
            switch section {
            case .top: try readSetting(name, value)
            case .keys: try readKeys(name, value)
            case .colors: try readColor(name, value)
            }
        }
        for (action, keys) in explicitKeys { config.keys[action] = keys }
        for (action, keys) in config.keys where explicitKeys[action] == nil {
            config.keys[action] = keys.filter { keyOwners[$0] == nil }
        }
        return config
    }

    private func error(_ code: ConfigError.Code, _ message: String) -> ConfigError {
        ConfigError(code: code, path: path, line: lineNumber, message: message)
    }

    private mutating func readSection(_ line: String) throws {
        guard line.hasSuffix("]") else {
            throw error(.syntax, "a section line is a name in brackets, such as [keys]; this one has no ]")
        }
        switch line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces).lowercased() {
        case "keys": section = .keys
        case "colors", "colours": section = .colors
        default:
            throw error(
                .unknownSection,
                "unknown section \(line); the sections are [keys] and [colors] (top-level settings go before them)"
            )
        }
    }

    private mutating func readSetting(_ name: String, _ value: String) throws {
        switch name {
        case "server":
            guard let url = PlayerConfig.serverURL(unquoted(value)) else {
                throw error(
                    .invalidValue,
                    "server must be an http:// or https:// URL with a host, such as http://127.0.0.1:8080, not \"\(value)\""
                )
            }
            config.server = url
        case "audio_output":
            guard let output = PlayerConfig.AudioOutput(rawValue: value.lowercased()) else {
                throw error(.invalidValue, "audio_output must be auto, pulse, alsa or null, not \"\(value)\"")
            }
            config.audioOutput = output
        case "audio_device":
            let device = unquoted(value)
            config.audioDevice = device.isEmpty ? nil : device
        case "volume":
            guard let volume = Int(value), (0...100).contains(volume), !value.hasPrefix("+") else {
                throw error(.invalidValue, "volume must be a number from 0 to 100, not \"\(value)\"")
            }
            config.volume = volume
        case "theme":
            guard let theme = PlayerConfig.Theme(rawValue: value.lowercased()) else {
                throw error(.invalidValue, "theme must be auto or none, not \"\(value)\"")
            }
            config.theme = theme
        default:
            throw error(
                .unknownSetting,
                "unknown setting \"\(name)\"; the settings are server, audio_output, audio_device, volume and theme (keys go under [keys], colours under [colors])"
            )
        }
        if let first = settingLines[name] {
            throw error(.duplicate, "\(name) is already set on line \(first); keep one of the two lines")
        }
        settingLines[name] = lineNumber
    }

    private mutating func readKeys(_ action: String, _ value: String) throws {
        if let validActions, !validActions.contains(action) {
            throw error(
                .unknownAction,
                "unknown action \"\(action)\"; the actions are \(validActions.sorted().joined(separator: ", "))"
            )
        }
        if let first = actionLines[action] {
            throw error(
                .duplicate,
                "the keys for \(action) are already set on line \(first); list several keys on one line, separated by commas"
            )
        }
        var keys: [KeyName] = []
        // A value of just "," is the comma key; in a list it is written "comma".
        let items =
            value.isEmpty
            ? []
            : value == ","
                ? [","]
                : value.split(separator: ",", omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces) }
        for item in items {
            guard !item.isEmpty else {
                throw error(
                    .syntax, "the key list for \(action) has an empty item; to bind the comma key write comma"
                )
            }
            guard let key = KeyName(parsing: item) else {
                throw error(
                    .invalidValue,
                    "\"\(item)\" is not a key; use a single character, space, enter, tab, backspace, esc, left, right, up, down, pgup, pgdn, home, end, f1 to f12, ctrl-a to ctrl-z, or comma"
                )
            }
            if let owner = keyOwners[key] {
                if owner.action == action { continue }
                throw error(
                    .duplicate,
                    "\(key.configName) is already bound to \(owner.action) on line \(owner.line); a key can do only one thing"
                )
            }
            keys.append(key)
            keyOwners[key] = (action, lineNumber)
        }
        explicitKeys[action] = keys
        actionLines[action] = lineNumber
    }

    private mutating func readColor(_ role: String, _ value: String) throws {
        guard PlayerConfig.colorRoles.contains(role) else {
            throw error(
                .unknownColorRole,
                "unknown colour role \"\(role)\"; the roles are \(PlayerConfig.colorRoles.joined(separator: ", "))"
            )
        }
        if let first = roleLines[role] {
            throw error(
                .duplicate,
                "the colours for \(role) are already set on line \(first); keep one of the two lines")
        }
        switch ColorSpec.parse(value) {
        case .success(let spec):
            config.colors[role] = spec
        case .failure(.unknownColor(let word)):
            throw error(
                .invalidValue,
                "\"\(word)\" is not a colour; use black, red, green, yellow, blue, magenta, cyan, white, a bright- form such as bright-red, default, or a number from 0 to 255"
            )
        case .failure(.badShape):
            throw error(
                .invalidValue,
                "\(role) must be a colour or two joined by on, such as \"white on blue\", not \"\(value)\"")
        }
        roleLines[role] = lineNumber
    }

    /// `text` without one pair of surrounding double quotes, for people who quote strings.
    private func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        return String(text.dropFirst().dropLast())
    }
}
