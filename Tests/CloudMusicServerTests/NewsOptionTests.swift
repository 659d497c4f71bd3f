import CloudMusicServer
import Testing

/// `--news-refresh`: minutes, 0 or off, and the mistakes it refuses in words.
@Suite struct NewsOptionTests {
    let env = ["HOME": "/home/ann"]

    @Test func minutesOffAndMistakes() throws {
        #expect(try CommandLineParser.parse([], environment: env).1.newsRefreshMinutes == 30)
        #expect(
            try CommandLineParser.parse(["--news-refresh", "5"], environment: env).1.newsRefreshMinutes == 5)
        #expect(
            try CommandLineParser.parse(["--news-refresh", "off"], environment: env).1.newsRefreshMinutes == 0
        )
        let fromEnvironment = try CommandLineParser.parse(
            [], environment: env.merging(["CLOUDMUSIC_NEWS_REFRESH": "0"]) { $1 }
        ).1
        #expect(fromEnvironment.newsRefreshMinutes == 0)
        for value in ["-1", "soon", "10081", "5m"] {
            do {
                _ = try CommandLineParser.parse(["--news-refresh", value], environment: env)
                Issue.record("\(value) was taken")
            } catch let error as UsageError {
                #expect(error.message.contains("a number of minutes from 0 to 10080"), "\(error.message)")
            }
        }
    }
}
