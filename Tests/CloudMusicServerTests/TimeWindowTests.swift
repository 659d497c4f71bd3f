import Foundation
import MusicCore
import ServerTestSupport
import Storage
import Testing

@testable import CloudMusicServer

/// The rules that count within a window of seconds, at the window's edges, with a clock the test moves: a
/// loaded machine can take longer than the window to send the requests, so the API tests check the same rules
/// against the server's recorded times, and these check the edges themselves.
@Suite struct TimeWindowTests {
    /// A database with one person (id 1) and one song (id 1).
    static func world() throws -> Database {
        try RecommendationServiceTests.library(songs: 1)
    }

    static let ann = Viewer(userID: 1, sessionID: 0, isAdmin: false)

    @Test func aBurstOfMomentsWaitsUntilTheFirstIsAMinuteOld() throws {
        let clock = TestClock()
        var feeds = FeedService(database: try Self.world(), events: EventLog(hub: InProcessEventHub()))
        feeds.clock = { clock.now }
        func publish() throws {
            _ = try feeds.publish(MomentDraft(content: "at \(clock.now)"), viewer: Self.ann)
        }
        let start = clock.now
        for _ in 0..<FeedService.maxPerMinute {
            try publish()
            clock.advance(1)
        }
        let refused = #expect(throws: ServiceError.self) { try publish() }
        #expect(refused?.kind == .rateLimited && refused?.retryAfter == 60)
        #expect(refused?.message == "You are posting very fast. Wait a minute.")
        #expect(refused?.message(in: .chinese).contains("分钟") == true)
        // A minute after the first, it still counts (written at or after now - 60); a second later it has left.
        clock.now = start + 60
        #expect(throws: ServiceError.self) { try publish() }
        clock.now = start + 61
        try publish()
    }

    @Test func aPlayCountsOnceIn30SecondsPerPersonAndSong() throws {
        let clock = TestClock()
        var sheets = SheetService(
            database: try Self.world(), coverFolder: temporaryFolder(),
            events: EventLog(hub: InProcessEventHub()))
        sheets.clock = { clock.now }
        #expect(try sheets.recordPlay(songID: ID(rawValue: 1)!, viewer: Self.ann).counted)
        clock.advance(SheetService.minimumSecondsBetweenPlays - 1)
        #expect(try !sheets.recordPlay(songID: ID(rawValue: 1)!, viewer: Self.ann).counted)
        clock.advance(1)
        #expect(try sheets.recordPlay(songID: ID(rawValue: 1)!, viewer: Self.ann).counted)
        // An uncounted play does not move the window: 29 s after the counted one, then 30 s after it.
        clock.advance(SheetService.minimumSecondsBetweenPlays - 1)
        #expect(try !sheets.recordPlay(songID: ID(rawValue: 1)!, viewer: Self.ann).counted)
        clock.advance(1)
        #expect(try sheets.recordPlay(songID: ID(rawValue: 1)!, viewer: Self.ann).counted)
        #expect(throws: ServiceError.self) {
            try sheets.recordPlay(songID: ID(rawValue: 2)!, viewer: Self.ann)
        }
    }
}
