import CloudMusicServer
import Testing

@Suite struct CommandLineTests {
    let env = ["HOME": "/home/ann"]

    @Test func defaultsServeWithTheHomeDataFolder() throws {
        let (command, options) = try CommandLineParser.parse([], environment: env)
        #expect(command == .serve)
        #expect(options.dataFolder == "/home/ann/.local/share/cloudmusic")
        #expect(options.port == 8080)
        #expect(options.host == "127.0.0.1")
    }

    @Test func flagsInBothSpellingsAndRepeatedFolders() throws {
        let (command, options) = try CommandLineParser.parse(
            [
                "serve", "--port=9000", "--data", "/srv/cm", "--music", "/a", "--music=/b", "--log-level",
                "DEBUG",
                "--max-upload", "20M", "--cors-origin", "https://x.example",
            ],
            environment: env)
        #expect(command == .serve)
        #expect(options.port == 9000)
        #expect(options.dataFolder == "/srv/cm")
        #expect(options.musicFolders == ["/a", "/b"])
        #expect(options.logLevel == "debug")
        #expect(options.maxUploadBytes == 20 << 20)
        #expect(options.corsOrigins == ["https://x.example"])
    }

    @Test func environmentIsReadAndFlagsWin() throws {
        let environment = env.merging(
            ["CLOUDMUSIC_PORT": "7000", "CLOUDMUSIC_MUSIC": "/m1:/m2", "CLOUDMUSIC_DATA": "/d"]) { $1 }
        let (_, fromEnv) = try CommandLineParser.parse([], environment: environment)
        #expect(fromEnv.port == 7000)
        #expect(fromEnv.musicFolders == ["/m1", "/m2"])
        #expect(fromEnv.dataFolder == "/d")
        let (_, overridden) = try CommandLineParser.parse(
            ["--port", "7001", "--music", "/x"], environment: environment)
        #expect(overridden.port == 7001)
        #expect(overridden.musicFolders == ["/x"])
    }

    @Test func commands() throws {
        #expect(try CommandLineParser.parse(["migrate"], environment: env).0 == .migrate)
        #expect(
            try CommandLineParser.parse(["backup", "/tmp/b.sqlite"], environment: env).0
                == .backup(destination: "/tmp/b.sqlite"))
        #expect(try CommandLineParser.parse(["version"], environment: env).0 == .version)
        #expect(try CommandLineParser.parse(["--version"], environment: env).0 == .version)
        #expect(try CommandLineParser.parse(["help"], environment: env).0 == .help(topic: nil))
        #expect(try CommandLineParser.parse(["serve", "-h"], environment: env).0 == .help(topic: "serve"))
    }

    @Test(arguments: [
        (["--nope"], "Unknown option '--nope'"),
        (["--port", "http"], "--port must be a whole number from 0 to 65535 (got 'http')."),
        (["--port", "70000"], "--port must be a whole number"),
        (["--port"], "--port needs a value (PORT)."),
        (["--log-level", "loud"], "--log-level must be one of"),
        (["--max-body", "12Q"], "--max-body must be a size like"),
        (["--max-body", "-5"], "--max-body must be a size like"),
        (["dance"], "Unknown command 'dance'"),
        (["backup"], "backup needs a destination file"),
        (["migrate", "extra"], "Unexpected argument 'extra'."),
        (["generate", "/tmp/a", "extra"], "Unexpected argument 'extra'."),
    ])
    func mistakesGetMessagesAPersonCanActOn(arguments: [String], message: String) {
        #expect {
            _ = try CommandLineParser.parse(arguments, environment: env)
        } throws: { error in
            (error as? UsageError)?.message.hasPrefix(message) == true
        }
    }

    @Test func generateTakesTheFolderTheREADMEShows() throws {
        #expect(try CommandLineParser.parse(["generate"], environment: env).0 == .generate(folder: nil))
        #expect(
            try CommandLineParser.parse(["generate", "/srv/checkout"], environment: env).0
                == .generate(folder: "/srv/checkout"))
    }

    @Test func badEnvironmentNamesTheVariable() {
        #expect {
            _ = try CommandLineParser.parse([], environment: ["CLOUDMUSIC_PORT": "x"])
        } throws: { error in
            (error as? UsageError)?.message.hasPrefix("CLOUDMUSIC_PORT: --port must be") == true
        }
    }

    @Test func helpListsEveryFlagAndRestore() {
        let help = CommandLineParser.helpText(version: "1.2.3")
        for flag in [
            "--data", "--music", "--host", "--port", "--log-level", "--threads", "--cors-origin",
            "--max-body", "--max-upload",
        ] {
            #expect(help.contains(flag))
        }
        #expect(help.contains("Restore a backup"))
    }
}

@Suite struct UserCommandParsingTests {
    let env = ["HOME": "/home/ann"]

    @Test func userCommandsAndTheAdminFlag() throws {
        #expect(
            try CommandLineParser.parse(
                ["user", "add", "ann@example.com", "Ann", "--admin"], environment: env
            ).0
                == .user(.add(account: "ann@example.com", nickname: "Ann", admin: true)))
        #expect(
            try CommandLineParser.parse(["user", "add", "13800138000", "林晓"], environment: env).0
                == .user(.add(account: "13800138000", nickname: "林晓", admin: false)))
        #expect(try CommandLineParser.parse(["user", "list"], environment: env).0 == .user(.list))
        #expect(
            try CommandLineParser.parse(["user", "disable", "3"], environment: env).0
                == .user(.disable(account: "3")))
        #expect(
            try CommandLineParser.parse(["user", "passwd", "3"], environment: env).0
                == .user(.passwd(account: "3")))
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["user"], environment: env) }
        #expect(throws: UsageError.self) {
            try CommandLineParser.parse(["user", "add", "x"], environment: env)
        }
        #expect(throws: UsageError.self) {
            try CommandLineParser.parse(["serve", "--admin"], environment: env)
        }
        #expect(
            CommandLineParser.helpText(version: "1").contains("user add <phone|email> <nickname> [--admin]"))
    }
}
