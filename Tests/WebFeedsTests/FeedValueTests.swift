import Foundation
import Testing

@testable import WebFeeds

@Suite struct FeedDateTests {
    /// Seconds since 1970 of 2006-01-02 15:04:05 UTC.
    static let reference: Double = 1_136_214_245

    @Test(arguments: [
        ("Mon, 02 Jan 2006 15:04:05 +0000", reference),
        ("Mon, 02 Jan 2006 15:04:05 GMT", reference),
        ("02 Jan 2006 15:04:05 UT", reference),
        ("Mon, 2 Jan 2006 08:04:05 -0700", reference),
        ("Monday, 02 January 2006 23:04:05 +08:00", reference),
        ("Mon, 02 Jan 06 10:04:05 EST", reference),
        ("Mon, 02 Jan 2006 07:04:05 PST", reference),
        ("Mon,02 Jan 2006 15:04:05 Z", reference),
        ("Mon, 02 Jan 2006 15:04:05 +0000 (UTC)", reference),
        ("Mon, 02 Jan 2006 15:04 GMT", reference - 5),
        ("Jan 2, 2006 3:04:05 PM GMT", reference),
        ("Mon, 02 Jan 2006 15:04:05", reference),
        ("Tue, 03 Jan 2006 00:04:05 JST", reference),
        ("Mon, 02 Jan 2006 16:04:05 CET", reference),
        ("2006-01-02T15:04:05Z", reference),
        ("2006-01-02T15:04:05.250Z", reference + 0.25),
        ("2006-01-02T23:04:05+08:00", reference),
        ("2006-01-02T09:34:05-0530", reference),
        ("2006-01-02 15:04:05", reference),
        ("2006-01-02t15:04:05z", reference),
        ("2006-01-02", reference - 54_245),
    ])
    func realWorldDatesAreRead(_ text: String, _ seconds: Double) throws {
        let date = try #require(FeedDate.parse(text), "\(text)")
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.001, "\(text)")
    }

    @Test func twoDigitYearsAndSeptember() throws {
        #expect(FeedDate.parse("Thu, 01 Jan 70 00:00:00 GMT")?.timeIntervalSince1970 == 0)
        #expect(FeedDate.parse("Sun, 5 Sept 2021 10:00:00 +0800") == FeedDate.parse("2021-09-05T02:00:00Z"))
        #expect(FeedDate.parse("29 Feb 2024 12:00:00 GMT") != nil)
    }

    @Test(arguments: [
        "", "yesterday", "32 Jan 2006 10:00:00 GMT", "2006-13-01", "Mon, 02 Foo 2006 15:04:05 GMT",
        "29 Feb 2023 12:00:00 GMT", "2006-01-02T25:04:05Z", "Mon, 02 Jan 2006 15:04:05 +9999",
        "2006-01-02Tjunk",
    ])
    func whatIsNoDateIsNil(_ text: String) {
        #expect(FeedDate.parse(text) == nil, "\(text)")
    }
}

@Suite struct EpisodeDurationTests {
    @Test(arguments: [
        ("1:02:03", 3723), ("62:03", 3723), ("3723", 3723), ("01:02:03.6", 3724), ("0:45", 45), ("45", 45),
        (" 1:00:00 ", 3600), ("3723.4", 3723), ("PT1H2M3S", 3723), ("PT45M", 2700),
    ])
    func durationsInTheirForms(_ text: String, _ seconds: Int) {
        #expect(EpisodeDuration.seconds(text) == seconds, "\(text)")
    }

    @Test(arguments: ["", "abc", "1:60:00", "-5", "1::2", "1:2:3:4", "1:02.5:03", "PT1X", "12 minutes"])
    func whatIsNoDurationIsNil(_ text: String) {
        #expect(EpisodeDuration.seconds(text) == nil, "\(text)")
    }
}

@Suite struct FeedAddressTests {
    @Test func addressesAreResolvedAndOnlyWebOnesKept() {
        let base = URL(string: "https://pod.example/shows/feed.xml")!
        #expect(
            FeedAddress.resolve("episodes/1.mp3", against: base)?.absoluteString
                == "https://pod.example/shows/episodes/1.mp3")
        #expect(
            FeedAddress.resolve("/art.jpg", against: base)?.absoluteString == "https://pod.example/art.jpg")
        #expect(
            FeedAddress.resolve("//cdn.example/a.mp3", against: base)?.absoluteString
                == "https://cdn.example/a.mp3")
        #expect(
            FeedAddress.resolve("  http://x.example/a b.mp3 ", against: nil)?.absoluteString
                == "http://x.example/a%20b.mp3")
        for bad in [
            "javascript:alert(1)", "file:///etc/passwd", "data:text/html,x", "ftp://x.example/a", "",
            "http://",
        ] {
            #expect(FeedAddress.resolve(bad, against: base) == nil, "\(bad)")
        }
        #expect(FeedAddress.resolve("relative.mp3", against: nil) == nil)
    }
}
