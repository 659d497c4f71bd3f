import MusicCore
import Storage

/// What a sheet's owner asks to change (`SheetService.update(_:id:changes:viewer:now:)`): nil leaves a field
/// as it is.
struct SheetChanges {
    var title: String?
    var detail: String??
    var tags: [String]?
    var isPrivate: Bool?
}

/// What other features read of sheets, plays and the play queue, on the caller's connection (inside its
/// transaction); `SheetStore` stays inside Sheets. Each is the store's query as it is, so a list costs the
/// same queries it did.
struct SheetReads: Sendable {
    private let store = SheetStore()

    /// One sheet as `viewerID` sees it (collected or not), whether private or not: the caller checks.
    func sheet(_ db: Connection, id: Int64, viewerID: Int64?) throws -> SheetStore.SheetRecord? {
        try store.sheet(db, id: id, viewerID: viewerID)
    }

    /// The sheets of these ids, in one query, private ones included: the caller checks.
    func sheets(_ db: Connection, ids: [Int64], viewerID: Int64?) throws -> [SheetStore.SheetRecord] {
        try store.sheets(db, ids: ids, viewerID: viewerID)
    }

    /// A sheet's owner, whether it is private, whether it is someone's "I like".
    func access(_ db: Connection, sheetID: Int64) throws -> (ownerID: Int64, isPrivate: Bool, isLikes: Bool)?
    {
        try store.access(db, sheetID: sheetID)
    }

    /// The person's sheets that have a cover (to delete the files after their rows).
    func sheetIDsWithCovers(_ db: Connection, userID: Int64) throws -> [Int64] {
        try store.sheetIDsWithCovers(db, userID: userID)
    }

    /// A page of public sheets.
    func publicSheets(_ db: Connection, order: SheetOrder, tag: String?, paging: Paging, viewerID: Int64?)
        throws -> Page<Sheet>
    {
        try store.publicSheets(db, order: order, tag: tag, paging: paging, viewerID: viewerID)
    }

    /// A sheet's song ids in order, a slice of them.
    func songIDs(_ db: Connection, sheetID: Int64, offset: Int, limit: Int) throws -> [Int64] {
        try store.songIDs(db, sheetID: sheetID, offset: offset, limit: limit)
    }

    /// When the person last played the song, if ever.
    func lastPlayed(_ db: Connection, userID: Int64, songID: Int64) throws -> Int64? {
        try store.lastPlayed(db, userID: userID, songID: songID)
    }

    /// The person's saved play queue.
    func queue(_ db: Connection, userID: Int64) throws -> PlayQueue? {
        try store.queue(db, userID: userID)
    }
}
