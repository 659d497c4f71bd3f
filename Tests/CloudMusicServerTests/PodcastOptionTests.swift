import CloudMusicServer
import Testing
import WebFetch

/// `--podcast-refresh` and `--fetch-allow`: their spellings, and the mistakes they refuse in words.
@Suite struct PodcastOptionTests {
    let env = ["HOME": "/home/ann"]

    @Test func refreshIntervalsAndAllowedBlocks() throws {
        let (_, defaults) = try CommandLineParser.parse([], environment: env)
        #expect(defaults.podcastRefreshSeconds == 3_600 && defaults.fetchAllow.isEmpty)
        let (_, options) = try CommandLineParser.parse(
            ["--podcast-refresh", "30m", "--fetch-allow", "10.0.0.0/8", "--fetch-allow", "fd00::/8"],
            environment: env)
        #expect(options.podcastRefreshSeconds == 1_800)
        #expect(options.fetchAllow == [NetworkRange("10.0.0.0/8")!, NetworkRange("fd00::/8")!])
        let (_, fromEnvironment) = try CommandLineParser.parse(
            [],
            environment: env.merging([
                "CLOUDMUSIC_PODCAST_REFRESH": "off", "CLOUDMUSIC_FETCH_ALLOW": "192.168.1.0/24,127.0.0.2",
            ]) { $1 })
        #expect(fromEnvironment.podcastRefreshSeconds == 0)
        #expect(fromEnvironment.fetchAllow.map(\.description) == ["192.168.1.0/24", "127.0.0.2/32"])
        #expect(
            try CommandLineParser.parse(["--podcast-refresh", "2h"], environment: env).1.podcastRefreshSeconds
                == 7_200)
    }

    @Test func mistakesAreRefusedInWords() {
        for (arguments, words) in [
            (["--podcast-refresh", "10"], "from 60 s to a week"),
            (["--podcast-refresh", "soon"], "from 60 s to a week"),
            (["--podcast-refresh", "9999h"], "from 60 s to a week"),
            (["--fetch-allow", "intranet"], "an address block such as 10.0.0.0/8"),
            (["--fetch-allow", "10.0.0.0/33"], "an address block such as 10.0.0.0/8"),
        ] {
            #expect(throws: UsageError.self, "\(arguments)") {
                _ = try CommandLineParser.parse(arguments, environment: env)
            }
            do {
                _ = try CommandLineParser.parse(arguments, environment: env)
            } catch let error as UsageError {
                #expect(error.message.contains(words), "\(error.message)")
            } catch {}
        }
    }
}
