import Foundation
import MusicCore
import Storage
import Synchronization

/// The rules of recommendations: a person's songs of the day (made at their first request of the day, kept
/// all day, new after the server's midnight), the personal radio, similar songs and sheets, and "not
/// interested", which takes a song out of everything, today's list included.
struct RecommendationService: Sendable {
    let database: Database
    let store = RecommendationStore()
    let engine = RecommendationEngine()
    let catalog = Catalog()
    let sheets = SheetReads()
    let radioMemory = RadioMemory()
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    /// Whose midnight starts a new day: the server's.
    var timeZone = TimeZone.current

    /// Songs added to a sheet, on the caller's connection (its transaction): what "I like" and sheets teach
    /// the recommendations (`RecommendationStore.songsAddedToSheet`).
    static func songsAddedToSheet(_ db: Connection, sheetID: Int64, songIDs: [Int64]) throws {
        try RecommendationStore().songsAddedToSheet(db, sheetID: sheetID, songIDs: songIDs)
    }

    /// A counted play, on the caller's connection (its transaction) (`RecommendationStore.songPlayed`).
    static func songPlayed(_ db: Connection, userID: Int64, songID: Int64) throws {
        try RecommendationStore().songPlayed(db, userID: userID, songID: songID)
    }

    static let dailyCount = 30
    static let noSong = ServiceError.notFound("That song does not exist.")
    static let noSheet = ServiceError.notFound("That sheet does not exist.")

    // MARK: Songs of the day

    func daily(viewer: Viewer) throws -> DailySongs {
        let now = clock()
        let (day, refreshesAt) = self.day(of: now)
        let stored = try database.read { db in try store.daily(db, userID: viewer.userID) }
        if stored?.day != day {
            // Made outside the writer, then kept unless a request racing this one kept its list first.
            let ids = try database.read { db in
                try engine.daily(
                    db, userID: viewer.userID, now: now, count: Self.dailyCount,
                    avoid: Set(stored?.ids ?? []),
                    day: day)
            }
            try database.write { db in
                try store.saveDaily(db, userID: viewer.userID, day: day, ids: ids, now: now)
            }
        }
        let songs = try database.read { db in
            let ids = try store.daily(db, userID: viewer.userID)?.ids ?? []
            let disliked = try store.dislikedIDs(db, userID: viewer.userID)
            return try catalog.songs(db, ids: ids.filter { !disliked.contains($0) })
        }
        return DailySongs(
            date: day, timeZone: timeZone.identifier, refreshesAt: APIDate.string(refreshesAt), songs: songs)
    }

    /// The day of `time` in the server's time zone, and when the next one starts.
    func day(of time: Int64) -> (day: String, next: Int64) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let date = Date(timeIntervalSince1970: TimeInterval(time))
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let start = calendar.startOfDay(for: date)
        let next = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        return (
            String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0),
            Int64(next.timeIntervalSince1970)
        )
    }

    // MARK: Radio

    func radio(count: Int, viewer: Viewer) throws -> [Song] {
        let served = radioMemory.served(userID: viewer.userID)
        var generator = SystemRandomNumberGenerator()
        return try database.read { db in
            var ids = try engine.radio(
                db, userID: viewer.userID, now: clock(), count: count, served: served, using: &generator)
            if ids.count < count {
                // Everything allowed was handed out lately: the radio goes on, repeating the least recent.
                let again = try engine.radio(
                    db, userID: viewer.userID, now: clock(), count: count, served: Set(ids), using: &generator
                )
                ids += again.prefix(count - ids.count)
            }
            radioMemory.remember(ids, userID: viewer.userID)
            return try catalog.songs(db, ids: ids)
        }
    }

    // MARK: Similar

    func similarSongs(id: Int64, size: Int, viewer: Viewer?) throws -> [Song] {
        try database.read { db in
            guard try catalog.songExists(db, id: id) else { throw Self.noSong }
            let disliked = try viewer.map { try store.dislikedIDs(db, userID: $0.userID) } ?? []
            let ids = try engine.similarSongs(
                db, songID: id, count: size, isExcluded: { disliked.contains($0) })
            return try catalog.songs(db, ids: ids)
        }
    }

    func similarSheets(id: Int64, size: Int, viewer: Viewer?) throws -> [Sheet] {
        try database.read { db in
            guard let sheet = try sheets.sheet(db, id: id, viewerID: viewer?.userID),
                !sheet.isPrivate || sheet.userID == viewer?.userID
            else { throw Self.noSheet }
            let songIDs = try sheets.songIDs(db, sheetID: id, offset: 0, limit: 200)
            var ids = try engine.similarSheets(db, sheetID: id, songIDs: songIDs, count: size)
            // Then sheets with its tags, then the most collected.
            var seen = Set(ids + [id])
            for tag in sheet.tags.prefix(3).map(Optional.some) + [nil] where ids.count < size {
                let page = try sheets.publicSheets(
                    db, order: .hot, tag: tag, paging: Paging(size: size + 1), viewerID: viewer?.userID)
                for other in page.data {
                    guard let otherID = Int64(other.id), ids.count < size, seen.insert(otherID).inserted
                    else {
                        continue
                    }
                    ids.append(otherID)
                }
            }
            return try ids.compactMap { try sheets.sheet(db, id: $0, viewerID: viewer?.userID) }
                .filter { !$0.isPrivate && !$0.isLikes }.map { $0.model(signedIn: viewer != nil) }
        }
    }

    // MARK: Not interested

    func dislike(songID: ID<Song>, viewer: Viewer) throws {
        let id = songID.rawValue
        try database.write { db in
            guard try catalog.songExists(db, id: id) else { throw Self.noSong }
            try store.dislike(db, userID: viewer.userID, songID: id, now: clock())
        }
    }

    func undislike(songID: Int64, viewer: Viewer) throws {
        try database.write { db in
            guard try catalog.songExists(db, id: songID) else { throw Self.noSong }
            try store.undislike(db, userID: viewer.userID, songID: songID)
        }
    }

    func dislikes(paging: Paging, viewer: Viewer) throws -> Page<Song> {
        try database.read { db in
            let (ids, total) = try store.disliked(db, userID: viewer.userID, paging: paging)
            return Page(
                items: try catalog.songs(db, ids: ids), total: total, page: paging.page, size: paging.size)
        }
    }
}

/// The songs the radio handed each person last, so the next call does not repeat them before they are played
/// (after which "played in the last day" keeps them out). In memory, bounded: one server instance.
final class RadioMemory: Sendable {
    static let songsPerPerson = 300
    static let people = 10_000
    private let state = Mutex<(served: [Int64: [Int64]], order: [Int64])>(([:], []))

    func served(userID: Int64) -> Set<Int64> { Set(state.withLock { $0.served[userID] ?? [] }) }

    func remember(_ ids: [Int64], userID: Int64) {
        state.withLock { state in
            if state.served[userID] == nil {
                state.order.append(userID)
                if state.order.count > Self.people {
                    state.served[state.order.removeFirst()] = nil
                }
            }
            var list = state.served[userID, default: []] + ids
            if list.count > Self.songsPerPerson { list.removeFirst(list.count - Self.songsPerPerson) }
            state.served[userID] = list
        }
    }
}
