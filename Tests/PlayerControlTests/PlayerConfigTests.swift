import Foundation
import Testing

@testable import PlayerControl

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct PlayerConfigTests {
    @Test func templateParsesBackToTheDefaults() throws {
        let parsed = try PlayerConfig(
            parsing: PlayerConfig.template, path: "template", validActions: Set(PlayerConfig.defaultKeys.keys)
        )
        #expect(parsed == PlayerConfig())
        // Every default is written out, not left to the parser's defaults.
        for action in PlayerConfig.defaultKeys.keys {
            #expect(PlayerConfig.template.contains("\n\(action) "))
        }
        for role in PlayerConfig.colorRoles { #expect(PlayerConfig.template.contains("\n\(role) ")) }
        #expect(PlayerConfig.template.contains("server = http://127.0.0.1:8080\n"))
        #expect(PlayerConfig.template.contains("volume = 80\n"))
    }

    @Test func emptyTextGivesTheDefaults() throws {
        let config = try PlayerConfig(parsing: "", path: "empty")
        #expect(config == PlayerConfig())
        #expect(config.server.absoluteString == "http://127.0.0.1:8080")
        #expect(config.audioOutput == .auto)
        #expect(config.audioDevice == nil)
        #expect(config.volume == 80)
        #expect(config.theme == .auto)
        #expect(config.keys["play_pause"] == [.space])
        #expect(config.colors.count == PlayerConfig.colorRoles.count)
    }

    @Test func readsEverySetting() throws {
        let text = """
            # my player
              server = "https://music.example.com:8443/cm"
            audio_output = PULSE
            audio_device = alsa/plughw:1,0
            volume = 35
            theme = none

            [keys]
            play_pause = p, space
            search = n
            mark = #
            quit = ctrl-c, f10
            help =

            [colors]
            accent = bright-magenta
            selected = white on 236
            error = on red
            normal =
            """
        let config = try PlayerConfig(parsing: text, path: "config")
        #expect(config.server.absoluteString == "https://music.example.com:8443/cm")
        #expect(config.audioOutput == .pulse)
        #expect(config.audioDevice == "alsa/plughw:1,0")
        #expect(config.volume == 35)
        #expect(config.theme == PlayerConfig.Theme.none)
        #expect(config.keys["play_pause"] == [.character("p"), .space])
        #expect(config.keys["search"] == [.character("n")])
        #expect(config.keys["mark"] == [.character("#")])
        #expect(config.keys["quit"] == [.control("c"), .function(10)])
        #expect(config.keys["help"] == [])
        // Keys bound explicitly are taken from actions left on their defaults.
        #expect(config.keys["previous"] == [])
        #expect(config.keys["next"] == [])
        #expect(config.keys["volume_up"] == [.character("+"), .character("=")])
        #expect(config.colors["accent"] == ColorSpec(foreground: 13))
        #expect(config.colors["selected"] == ColorSpec(foreground: 7, background: 236))
        #expect(config.colors["error"] == ColorSpec(foreground: nil, background: 1))
        #expect(config.colors["normal"] == ColorSpec(foreground: nil, background: nil))
        #expect(config.colors["topic"] == PlayerConfig.defaultColors["topic"])
    }

    @Test func windowsLineEndingsAndByteOrderMarkKeepLineNumbers() throws {
        let config = try PlayerConfig(parsing: "\u{FEFF}volume = 10\r\ntheme = none\r\n", path: "c")
        #expect(config.volume == 10)
        #expect(config.theme == PlayerConfig.Theme.none)
        let error = #expect(throws: ConfigError.self) {
            try PlayerConfig(parsing: "\u{FEFF}volume = 10\r\n\r\nvolume = 11\r\n", path: "c")
        }
        #expect(error?.line == 3)
        #expect(error?.message == "volume is already set on line 1; keep one of the two lines")
    }

    @Test func commaKeyAloneOrInAList() throws {
        let alone = try PlayerConfig(parsing: "[keys]\nmark = ,\n", path: "c")
        #expect(alone.keys["mark"] == [.character(",")])
        let list = try PlayerConfig(parsing: "[keys]\nmark = comma, .\n", path: "c")
        #expect(list.keys["mark"] == [.character(","), .character(".")])
        #expect(KeyName.character(",").configName == "comma")
    }

    @Test func unknownActionsPassUnlessTheCallerListsTheActions() throws {
        let config = try PlayerConfig(parsing: "[keys]\nshuffle_all = z\n", path: "c")
        #expect(config.keys["shuffle_all"] == [.character("z")])
        let error = #expect(throws: ConfigError.self) {
            try PlayerConfig(
                parsing: "[keys]\nquit = q\nshuffle_all = z\n", path: "c", validActions: ["quit", "next"])
        }
        #expect(error?.code == .unknownAction)
        #expect(error?.line == 3)
        #expect(error?.message == "unknown action \"shuffle_all\"; the actions are next, quit")
    }

    /// One bad config each: its line, its code and the sentence the person reads.
    static let errorCases: [(text: String, line: Int, code: ConfigError.Code, message: String)] = [
        (
            "# comment\nserver = http://localhost:8080\n\nvolume = loud", 4, .invalidValue,
            "volume must be a number from 0 to 100, not \"loud\""
        ),
        ("volume = 101", 1, .invalidValue, "volume must be a number from 0 to 100, not \"101\""),
        ("volume = -1", 1, .invalidValue, "volume must be a number from 0 to 100, not \"-1\""),
        ("volume =", 1, .invalidValue, "volume must be a number from 0 to 100, not \"\""),
        (
            "server = ftp://example.com", 1, .invalidValue,
            "server must be an http:// or https:// URL with a host, such as http://127.0.0.1:8080, not \"ftp://example.com\""
        ),
        (
            "server = http://", 1, .invalidValue,
            "server must be an http:// or https:// URL with a host, such as http://127.0.0.1:8080, not \"http://\""
        ),
        (
            "server = 127.0.0.1:8080", 1, .invalidValue,
            "server must be an http:// or https:// URL with a host, such as http://127.0.0.1:8080, not \"127.0.0.1:8080\""
        ),
        (
            "audio_output = oss", 1, .invalidValue,
            "audio_output must be auto, pulse, alsa or null, not \"oss\""
        ),
        ("theme = dark", 1, .invalidValue, "theme must be auto or none, not \"dark\""),
        (
            "\nvolum = 3", 2, .unknownSetting,
            "unknown setting \"volum\"; the settings are server, audio_output, audio_device, volume and theme (keys go under [keys], colours under [colors])"
        ),
        (
            "[keys]\nquit = q\n[sound]", 3, .unknownSection,
            "unknown section [sound]; the sections are [keys] and [colors] (top-level settings go before them)"
        ),
        ("[keys", 1, .syntax, "a section line is a name in brackets, such as [keys]; this one has no ]"),
        (
            "volume 80", 1, .syntax,
            "\"volume 80\" is neither a setting nor a section; write name = value or [keys]"
        ),
        (" = 80", 1, .syntax, "there is no name before the = sign"),
        (
            "volume = 50\ntheme = auto\nvolume = 60", 3, .duplicate,
            "volume is already set on line 1; keep one of the two lines"
        ),
        (
            "[keys]\nquit = ctrl-1", 2, .invalidValue,
            "\"ctrl-1\" is not a key; use a single character, space, enter, tab, backspace, esc, left, right, up, down, pgup, pgdn, home, end, f1 to f12, ctrl-a to ctrl-z, or comma"
        ),
        (
            "[keys]\nquit = q,,x", 2, .syntax,
            "the key list for quit has an empty item; to bind the comma key write comma"
        ),
        (
            "[keys]\nquit = q\nnext = n\nprevious = q", 4, .duplicate,
            "q is already bound to quit on line 2; a key can do only one thing"
        ),
        (
            "[keys]\nquit = q\nquit = x", 3, .duplicate,
            "the keys for quit are already set on line 2; list several keys on one line, separated by commas"
        ),
        (
            "[colors]\nsky = blue", 2, .unknownColorRole,
            "unknown colour role \"sky\"; the roles are normal, dim, highlight, accent, karaoke_sung, karaoke_unsung, selected, progress_filled, progress_empty, error, mention, topic"
        ),
        (
            "[colors]\naccent = purple", 2, .invalidValue,
            "\"purple\" is not a colour; use black, red, green, yellow, blue, magenta, cyan, white, a bright- form such as bright-red, default, or a number from 0 to 255"
        ),
        (
            "[colors]\naccent = 256", 2, .invalidValue,
            "\"256\" is not a colour; use black, red, green, yellow, blue, magenta, cyan, white, a bright- form such as bright-red, default, or a number from 0 to 255"
        ),
        (
            "[colors]\naccent = red on", 2, .invalidValue,
            "accent must be a colour or two joined by on, such as \"white on blue\", not \"red on\""
        ),
        (
            "[colors]\naccent = red\naccent = blue", 3, .duplicate,
            "the colours for accent are already set on line 2; keep one of the two lines"
        ),
    ]

    @Test(arguments: errorCases)
    func errorsNameTheLineAndSayWhatToDo(
        _ example: (text: String, line: Int, code: ConfigError.Code, message: String)
    ) {
        let error = #expect(throws: ConfigError.self) {
            try PlayerConfig(parsing: example.text, path: "/home/me/.config/cloudmusic/config")
        }
        #expect(error?.line == example.line)
        #expect(error?.code == example.code)
        #expect(error?.message == example.message)
        #expect(
            error?.description
                == "/home/me/.config/cloudmusic/config: line \(example.line): \(example.message)")
    }

    @Test func loadsAMissingFileAsTheDefaults() throws {
        let folder = TemporaryFolder()
        let config = try PlayerConfig.load(from: URL(fileURLWithPath: folder.file("nothing/config")))
        #expect(config == PlayerConfig())
    }

    @Test func loadsTheXDGPathWhenNoneIsGiven() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(
            atPath: folder.file("cloudmusic"), withIntermediateDirectories: true)
        try "volume = 12\n".write(toFile: folder.file("cloudmusic/config"), atomically: true, encoding: .utf8)
        let config = try PlayerConfig.load(
            from: nil, environment: ["XDG_CONFIG_HOME": folder.path, "HOME": "/nonexistent"])
        #expect(config.volume == 12)
    }

    @Test func loadReportsTheFileWithTheLine() throws {
        let folder = TemporaryFolder()
        let path = folder.file("config")
        try "theme = auto\nvolume = 200\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: ConfigError.self) {
            try PlayerConfig.load(from: URL(fileURLWithPath: path))
        }
        #expect(error?.description == "\(path): line 2: volume must be a number from 0 to 100, not \"200\"")
    }

    @Test func unreadableFilesAreErrorsWithoutALine() throws {
        let folder = TemporaryFolder()
        let directory = folder.file("config")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let notAFile = #expect(throws: ConfigError.self) {
            try PlayerConfig.load(from: URL(fileURLWithPath: directory))
        }
        #expect(notAFile?.code == .unreadable)
        #expect(notAFile?.line == nil)

        let binary = folder.file("binary")
        try Data([0x76, 0x6F, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: binary))
        let notText = #expect(throws: ConfigError.self) {
            try PlayerConfig.load(from: URL(fileURLWithPath: binary))
        }
        #expect(notText?.code == .unreadable)
        #expect(notText?.description == "\(binary): the config file is not UTF-8 text; save it as UTF-8")
    }
}

@Suite struct KeyNameTests {
    static let named: [(String, KeyName)] = [
        ("space", .space), ("enter", .enter), ("tab", .tab), ("backspace", .backspace), ("esc", .escape),
        ("left", .left), ("right", .right), ("up", .up), ("down", .down), ("pgup", .pageUp),
        ("pgdn", .pageDown), ("home", .home), ("end", .end), ("f1", .function(1)), ("f12", .function(12)),
        ("ctrl-a", .control("a")), ("ctrl-z", .control("z")), ("comma", .character(",")),
        ("n", .character("n")), ("N", .character("N")), ("/", .character("/")), ("#", .character("#")),
        ("中", .character("中")), ("😀", .character("😀")), ("é", .character("é")),
    ]

    @Test(arguments: named)
    func parsesAndWritesBack(_ text: String, _ key: KeyName) {
        #expect(KeyName(parsing: text) == key)
        #expect(key.configName == text)
        #expect(KeyName(parsing: key.configName) == key)
    }

    @Test func longNamesIgnoreCaseAndHaveAliases() {
        #expect(KeyName(parsing: "SPACE") == .space)
        #expect(KeyName(parsing: "Ctrl-L") == .control("l"))
        #expect(KeyName(parsing: "F5") == .function(5))
        #expect(KeyName(parsing: "escape") == .escape)
        #expect(KeyName(parsing: "return") == .enter)
        #expect(KeyName(parsing: "PageDown") == .pageDown)
        #expect(KeyName(parsing: " ") == .space)
    }

    @Test(arguments: [
        "", "ab", "f0", "f13", "f01", "f+1", "ctrl-1", "ctrl-", "ctrl-ab", "\u{7}", "\t", "e\u{301}",
        "\u{200B}", "\u{3000}",
    ])
    func rejects(_ text: String) {
        #expect(KeyName(parsing: text) == nil)
    }
}

@Suite struct ColorSpecTests {
    static let examples: [(String, ColorSpec)] = [
        ("red", ColorSpec(foreground: 1)),
        ("bright-red", ColorSpec(foreground: 9)),
        ("BRIGHT-White", ColorSpec(foreground: 15)),
        ("default", ColorSpec(foreground: -1)),
        ("white on blue", ColorSpec(foreground: 7, background: 4)),
        ("default on 236", ColorSpec(foreground: -1, background: 236)),
        ("0   on   255", ColorSpec(foreground: 0, background: 255)),
        ("on black", ColorSpec(foreground: nil, background: 0)),
        ("", ColorSpec(foreground: nil, background: nil)),
    ]

    @Test(arguments: examples)
    func parses(_ text: String, _ spec: ColorSpec) throws {
        let config = try PlayerConfig(parsing: "[colors]\naccent = \(text)\n", path: "c")
        #expect(config.colors["accent"] == spec)
        // And the config writes it back in a form that reads the same.
        let again = try PlayerConfig(parsing: "[colors]\naccent = \(spec.configText)\n", path: "c")
        #expect(again.colors["accent"] == spec)
    }
}

@Suite struct PlayerPathsTests {
    @Test func followsXDGVariables() {
        let environment = [
            "XDG_CONFIG_HOME": "/x/config", "XDG_STATE_HOME": "/x/state", "XDG_RUNTIME_DIR": "/run/user/7",
            "XDG_DATA_HOME": "/x/data", "HOME": "/home/me",
        ]
        #expect(PlayerPaths.stateDirectory(environment: environment).path == "/x/state/cloudmusic")
        #expect(PlayerPaths.dataDirectory(environment: environment).path == "/x/data/cloudmusic")
        #expect(PlayerPaths.configFile(environment: environment).path == "/x/config/cloudmusic/config")
        #expect(PlayerPaths.sessionFile(environment: environment).path == "/x/state/cloudmusic/session.json")
        #expect(PlayerPaths.controlSocket(environment: environment) == "/run/user/7/cloudmusic/control.sock")
    }

    @Test func fallsBackToHomeAndTmpWhenUnsetOrRelative() {
        let environment = ["XDG_CONFIG_HOME": "relative/config", "XDG_RUNTIME_DIR": "", "HOME": "/home/me"]
        #expect(PlayerPaths.configFile(environment: environment).path == "/home/me/.config/cloudmusic/config")
        #expect(
            PlayerPaths.sessionFile(environment: environment).path
                == "/home/me/.local/state/cloudmusic/session.json")
        #expect(
            PlayerPaths.dataDirectory(environment: environment).path == "/home/me/.local/share/cloudmusic")
        #expect(
            PlayerPaths.controlSocket(environment: environment) == "/tmp/cloudmusic-\(getuid())/control.sock")
    }
}
