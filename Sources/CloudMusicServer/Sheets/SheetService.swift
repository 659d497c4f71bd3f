import Foundation
import MusicCore
import Storage

/// The rules of each person's music: who may see and change a sheet, the limits, likes, collections,
/// play history and the play queue. Each use case is one transaction over the stores it needs.
struct SheetService: Sendable {
    let database: Database
    let store = SheetStore()
    let catalog = Catalog()
    let coverFolder: String
    let clicks: ClickCounter
    /// Where a saved queue and a change to "I like" are told to one's other devices.
    let events: EventLog
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    init(database: Database, coverFolder: String, events: EventLog) {
        self.database = database
        self.events = events
        self.coverFolder = coverFolder
        clicks = ClickCounter(database: database)
    }

    static let maxSheetsPerUser = 1_000
    static let maxSongsPerSheet = 10_000
    static let maxQueueSongs = QueueDraft.maxSongs
    static let maxTags = 10
    /// A second play of one song by one person within this many seconds is not counted again.
    static let minimumSecondsBetweenPlays: Int64 = 30

    static let noSheet = ServiceError.notFound("That sheet does not exist.")
    static let noSong = ServiceError.notFound("That song does not exist.")

    // MARK: Seeing and changing

    /// The sheet if `viewer` may see it; a private sheet is a 404 to everyone but its owner.
    func visibleSheet(_ db: Connection, id: Int64, viewer: Viewer?) throws -> SheetStore.SheetRecord {
        guard let sheet = try store.sheet(db, id: id, viewerID: viewer?.userID),
            !sheet.isPrivate || sheet.userID == viewer?.userID
        else { throw Self.noSheet }
        return sheet
    }

    func visibleSheet(id: Int64, viewer: Viewer?) throws -> SheetStore.SheetRecord {
        try database.read { db in try visibleSheet(db, id: id, viewer: viewer) }
    }

    /// Throws unless `viewer` owns the sheet (404 when they may not even see it).
    @discardableResult
    func ownedSheet(_ db: Connection, id: Int64, viewer: Viewer) throws
        -> (ownerID: Int64, isPrivate: Bool, isLikes: Bool)
    {
        guard let access = try store.access(db, sheetID: id),
            !access.isPrivate || access.ownerID == viewer.userID
        else { throw Self.noSheet }
        guard access.ownerID == viewer.userID else {
            throw ServiceError.forbidden("Only the sheet's owner can change it.")
        }
        return access
    }

    /// The sheet as its owner sees it after a change.
    private func owned(_ db: Connection, id: Int64, viewer: Viewer) throws -> Sheet {
        try visibleSheet(db, id: id, viewer: viewer).model(signedIn: true)
    }

    func create(_ draft: SheetDraft, viewer: Viewer) throws -> Sheet {
        try database.write { db in
            try owned(db, id: try create(db, draft, songIDs: [], viewer: viewer), viewer: viewer)
        }
    }

    /// A new sheet with `songIDs` in it (which must exist; repeats kept with `keepingRepeats`), in the
    /// caller's transaction; returns its id.
    func create(
        _ db: Connection, _ draft: SheetDraft, songIDs: [Int64], viewer: Viewer, keepingRepeats: Bool = false
    ) throws -> Int64 {
        guard let title = try Self.title(draft.title) else {
            throw ServiceError.invalid("Give the sheet a title.")
        }
        let detail = try Self.detail(draft.detail)
        let tags = try Self.tags(draft.tags ?? [])
        guard try store.sheetsCount(db, userID: viewer.userID) < Self.maxSheetsPerUser else {
            throw ServiceError.conflict(
                "You can have at most \(Self.maxSheetsPerUser) sheets. Delete one first.")
        }
        let now = clock()
        let id = try store.insertSheet(
            db, userID: viewer.userID, title: title, detail: detail, tags: tags,
            isPrivate: draft.isPrivate ?? false,
            now: now)
        if !songIDs.isEmpty {
            try add(db, songIDs, to: id, atTop: false, now: now, keepingRepeats: keepingRepeats)
        }
        return id
    }

    func update(id: Int64, _ draft: SheetDraft, viewer: Viewer) throws -> Sheet {
        var changes = SheetChanges()
        if draft.title != nil {
            guard let title = try Self.title(draft.title) else {
                throw ServiceError.invalid("A sheet's title cannot be empty.")
            }
            changes.title = title
        }
        if draft.detail != nil { changes.detail = .some(try Self.detail(draft.detail)) }
        if let tags = draft.tags { changes.tags = try Self.tags(tags) }
        if let isPrivate = draft.isPrivate { changes.isPrivate = isPrivate }
        return try database.write { db in
            try update(db, id: id, changes: changes, viewer: viewer, now: clock())
            return try owned(db, id: id, viewer: viewer)
        }
    }

    /// Applies checked changes to a sheet its owner holds, in the caller's transaction; "I like" keeps its name.
    func update(
        _ db: Connection, id: Int64, changes: SheetChanges, viewer: Viewer, now: Int64
    ) throws {
        let access = try ownedSheet(db, id: id, viewer: viewer)
        if changes.title != nil && access.isLikes {
            throw ServiceError.invalid("The \"I like\" sheet keeps its name.")
        }
        try store.updateSheet(db, id: id, changes: changes, now: now)
    }

    func delete(id: Int64, viewer: Viewer) throws {
        try database.write { db in
            let access = try ownedSheet(db, id: id, viewer: viewer)
            if access.isLikes {
                throw ServiceError.invalid(
                    "The \"I like\" sheet cannot be deleted; remove its songs instead.")
            }
            try store.deleteSheet(db, id: id)
        }
        unlink(coverPath(sheetID: id))
    }

    /// Sheet detail with its first songs; a view by anyone but the owner counts as a click.
    func detail(id: Int64, viewer: Viewer?, songsLimit: Int) throws -> Sheet {
        var (sheet, songs) = try database.read { db in
            let sheet = try visibleSheet(db, id: id, viewer: viewer)
            let ids = try store.songIDs(db, sheetID: id, offset: 0, limit: songsLimit)
            return (sheet, try catalog.songs(db, ids: ids))
        }
        sheet.clicksCount +=
            sheet.userID != viewer?.userID ? clicks.add(sheetID: id) : clicks.unwritten(sheetID: id)
        return sheet.model(signedIn: viewer != nil, songs: songs)
    }

    func songs(id: Int64, viewer: Viewer?, paging: Paging) throws -> Page<Song> {
        try database.read { db in
            let sheet = try visibleSheet(db, id: id, viewer: viewer)
            let ids = try store.songIDs(db, sheetID: id, offset: paging.offset, limit: paging.size)
            return Page(
                items: try catalog.songs(db, ids: ids), total: sheet.songsCount, page: paging.page,
                size: paging.size)
        }
    }

    func publicSheets(order: SheetOrder, tag: String?, paging: Paging, viewer: Viewer?) throws -> Page<Sheet>
    {
        try database.read { db in
            try store.publicSheets(db, order: order, tag: tag, paging: paging, viewerID: viewer?.userID)
        }
    }

    func search(_ text: String, paging: Paging, viewer: Viewer?) throws -> Page<Sheet> {
        try database.read { db in try store.search(db, text, paging: paging, viewerID: viewer?.userID) }
    }

    /// Sheets a person made ("I like" first), private ones only to themselves.
    func created(by userID: Int64, paging: Paging, viewer: Viewer?) throws -> Page<Sheet> {
        try database.read { db in
            try store.createdSheets(
                db, userID: userID, includePrivate: viewer?.userID == userID, paging: paging,
                viewerID: viewer?.userID)
        }
    }

    func collected(by userID: Int64, paging: Paging, viewer: Viewer?) throws -> Page<Sheet> {
        try database.read { db in
            try store.collectedSheets(db, userID: userID, paging: paging, viewerID: viewer?.userID)
        }
    }

    // MARK: Songs in a sheet

    /// Adds songs that exist, in the caller's transaction; refuses unknown ones and a sheet over its limit.
    /// Into "I like" each song goes once (`keepingRepeats` is for playlists), and each song that was not there
    /// is liked: its owner's other devices hear of it, as from the heart. Returns the songs put in.
    @discardableResult
    func add(
        _ db: Connection, _ ids: [Int64], to sheetID: Int64, atTop: Bool, now: Int64,
        keepingRepeats: Bool = false
    ) throws -> [Int64] {
        guard let access = try store.access(db, sheetID: sheetID) else { throw Self.noSheet }
        let added = try insert(
            db, ids, to: sheetID, atTop: atTop, now: now, keepingRepeats: keepingRepeats && !access.isLikes)
        if access.isLikes { try tellLikes(db, added, liked: true, to: access.ownerID, now: now) }
        return added
    }

    /// Takes songs (every entry of each) out of a sheet, in the caller's transaction; out of "I like", each one
    /// that was there is unliked, and its owner's other devices hear of it. Returns the songs taken out.
    @discardableResult
    private func remove(
        _ db: Connection, _ ids: [Int64], from sheetID: Int64,
        access: (ownerID: Int64, isPrivate: Bool, isLikes: Bool), now: Int64
    ) throws -> [Int64] {
        let removed = try store.removeSongs(db, sheetID: sheetID, songIDs: ids, now: now)
        if access.isLikes { try tellLikes(db, removed, liked: false, to: access.ownerID, now: now) }
        return removed
    }

    /// The songs put in, with no word to anyone: `add` and `setLiked` tell what it changed.
    private func insert(
        _ db: Connection, _ ids: [Int64], to sheetID: Int64, atTop: Bool, now: Int64, keepingRepeats: Bool
    ) throws -> [Int64] {
        let unknown = try catalog.unknownSongs(db, ids: ids)
        guard unknown.isEmpty else {
            throw ServiceError.invalid(
                "These songs are not in the library: \(unknown.prefix(10).map(String.init).joined(separator: ", "))."
            )
        }
        try RecommendationService.songsAddedToSheet(db, sheetID: sheetID, songIDs: ids)
        switch try store.addSongs(
            db, sheetID: sheetID, songIDs: ids, atTop: atTop, maxSongs: Self.maxSongsPerSheet, now: now,
            keepingRepeats: keepingRepeats)
        {
        case .added(let added): return added
        case .tooMany(let limit): throw ServiceError.conflict("A sheet can hold at most \(limit) songs.")
        }
    }

    func addSongs(sheetID: Int64, songIDs: [ID<Song>], viewer: Viewer) throws -> Sheet {
        let ids = songIDs.map(\.rawValue)
        return try database.write { db in
            let access = try ownedSheet(db, id: sheetID, viewer: viewer)
            try add(db, ids, to: sheetID, atTop: access.isLikes, now: clock())
            return try owned(db, id: sheetID, viewer: viewer)
        }
    }

    func removeSongs(sheetID: Int64, songIDs: [Int64], viewer: Viewer) throws -> Sheet {
        // At most `SongIDs.maxSongs`: the query's edge holds that.
        guard !songIDs.isEmpty else { throw ServiceError.invalid("Name at least one song in 'songIds'.") }
        return try database.write { db in
            let access = try ownedSheet(db, id: sheetID, viewer: viewer)
            try remove(db, songIDs, from: sheetID, access: access, now: clock())
            return try owned(db, id: sheetID, viewer: viewer)
        }
    }

    /// Replaces the whole song list of a sheet its owner holds with `songIDs` (which must exist), in order, in
    /// the caller's transaction. A playlist keeps repeats as given; "I like" holds each song once, and each song
    /// that leaves it or comes into it is one unlike or like told to its owner's other devices (a song in it
    /// before and after is neither).
    func replaceSongs(_ db: Connection, sheetID: Int64, songIDs: [Int64], viewer: Viewer, now: Int64) throws {
        let access = try ownedSheet(db, id: sheetID, viewer: viewer)
        let current = try store.songIDs(db, sheetID: sheetID, offset: 0, limit: Self.maxSongsPerSheet)
        let removed = try store.removeSongs(db, sheetID: sheetID, songIDs: current, now: now)
        let added =
            songIDs.isEmpty
            ? []
            : try insert(db, songIDs, to: sheetID, atTop: false, now: now, keepingRepeats: !access.isLikes)
        guard access.isLikes else { return }
        let (before, after) = (Set(removed), Set(added))
        try tellLikes(db, removed.filter { !after.contains($0) }, liked: false, to: access.ownerID, now: now)
        try tellLikes(db, added.filter { !before.contains($0) }, liked: true, to: access.ownerID, now: now)
    }

    /// Removes the entries at these indexes (0-based, in the list as it is) from a sheet its owner holds, in
    /// the caller's transaction: with a song in it twice, only the entry named goes. An index past the end
    /// removes nothing. Out of "I like", each song that went is unliked, told to its owner's other devices.
    /// Returns how many went.
    @discardableResult
    func removeEntries(
        _ db: Connection, sheetID: Int64, at indexes: [Int64], viewer: Viewer, now: Int64
    ) throws -> Int {
        let access = try ownedSheet(db, id: sheetID, viewer: viewer)
        let removed = try store.removeEntries(db, sheetID: sheetID, at: indexes, now: now)
        if access.isLikes, !removed.isEmpty {
            // "I like" holds each song once, but a song still there after is not unliked all the same.
            let left = try store.presentSongs(db, sheetID: sheetID, among: removed)
            var seen = Set<Int64>()
            let unliked = removed.filter { !left.contains($0) && seen.insert($0).inserted }
            try tellLikes(db, unliked, liked: false, to: access.ownerID, now: now)
        }
        return removed.count
    }

    func moveSong(sheetID: Int64, songID: Int64, to position: Int, viewer: Viewer) throws -> Sheet {
        try database.write { db in
            try ownedSheet(db, id: sheetID, viewer: viewer)
            guard position >= 0 else { throw ServiceError.invalid("'position' must be 0 or more.") }
            guard
                try store.moveSong(db, sheetID: sheetID, songID: songID, to: position, now: clock()) == .moved
            else { throw ServiceError.notFound("That song is not in this sheet.") }
            return try owned(db, id: sheetID, viewer: viewer)
        }
    }

    // MARK: Likes

    private func likesSheetID(_ db: Connection, viewer: Viewer) throws -> Int64 {
        guard let id = try store.likesSheetID(db, userID: viewer.userID) else {
            throw ServiceError.notFound("You have no \"I like\" sheet.")
        }
        return id
    }

    /// Puts the song first in "I like" (the song is the resource named in the path: a missing one is a 404).
    func like(songID: Int64, viewer: Viewer) throws -> Sheet {
        try setLiked(songs: [songID], liked: true, viewer: viewer)
    }

    func unlike(songID: Int64, viewer: Viewer) throws -> Sheet {
        try setLiked(songs: [songID], liked: false, viewer: viewer)
    }

    /// Likes or unlikes songs that must all exist (a missing one is a 404); "I like" as it is after.
    func setLiked(songs: [Int64], liked: Bool, viewer: Viewer) throws -> Sheet {
        try database.write { db in
            guard try catalog.unknownSongs(db, ids: songs).isEmpty else { throw Self.noSong }
            try setLiked(db, songs: songs, liked: liked, viewer: viewer, now: clock())
            return try owned(db, id: try likesSheetID(db, viewer: viewer), viewer: viewer)
        }
    }

    /// Puts songs (which must exist) into "I like", the last named first as if liked one by one, or takes them
    /// out, in the caller's transaction. One's other devices hear of each song that changed, once; a song
    /// already liked (or not liked) changes nothing. Returns the songs that changed.
    @discardableResult
    func setLiked(
        _ db: Connection, songs: [Int64], liked: Bool, viewer: Viewer, now: Int64
    ) throws -> [Int64] {
        let sheetID = try likesSheetID(db, viewer: viewer)
        let present = try store.presentSongs(db, sheetID: sheetID, among: songs)
        var seen = Set<Int64>()
        let changed = songs.filter { present.contains($0) != liked && seen.insert($0).inserted }
        guard !changed.isEmpty else { return [] }
        if liked {
            _ = try insert(db, songs.reversed(), to: sheetID, atTop: true, now: now, keepingRepeats: false)
        } else {
            _ = try store.removeSongs(db, sheetID: sheetID, songIDs: changed, now: now)
        }
        try tellLikes(db, changed, liked: liked, to: viewer.userID, now: now)
        return changed
    }

    /// One likes event per song, to the owner of "I like", in the caller's transaction: whichever way "I like"
    /// changed (the heart, a star, a sheet's songs, a Subsonic playlist edit), other devices hear of it so.
    private func tellLikes(_ db: Connection, _ songs: [Int64], liked: Bool, to userID: Int64, now: Int64)
        throws
    {
        for id in songs {
            try events.append(db, to: userID, .likes, LikesEvent(songId: String(id), liked: liked), at: now)
        }
    }

    // MARK: Collections

    func collect(sheetID: Int64, viewer: Viewer) throws -> Sheet {
        try database.write { db in
            let sheet = try visibleSheet(db, id: sheetID, viewer: viewer)
            guard sheet.userID != viewer.userID else {
                throw ServiceError.invalid("Your own sheets are already yours; collect other people's.")
            }
            guard !sheet.isLikes else { throw ServiceError.invalid("\"I like\" sheets cannot be collected.") }
            _ = try store.collect(db, userID: viewer.userID, sheetID: sheetID, now: clock())
            return try owned(db, id: sheetID, viewer: viewer)
        }
    }

    func uncollect(sheetID: Int64, viewer: Viewer) throws {
        try database.write { db in
            // Uncollecting works even after the owner made the sheet private (it is gone from the list then).
            guard try store.uncollect(db, userID: viewer.userID, sheetID: sheetID) else {
                _ = try visibleSheet(db, id: sheetID, viewer: viewer)
                throw ServiceError.notFound("You have not collected that sheet.")
            }
        }
    }

    // MARK: Covers

    func coverPath(sheetID: Int64) -> String { coverFolder + "/\(sheetID).jpg" }

    /// The cover file of a sheet the viewer may see, when it has one of its own.
    func cover(sheetID: Int64, viewer: Viewer?) throws -> String {
        let sheet = try visibleSheet(id: sheetID, viewer: viewer)
        let path = coverPath(sheetID: sheetID)
        guard sheet.coverVersion != nil, FileManager.default.fileExists(atPath: path) else {
            throw ServiceError.notFound("This sheet has no cover of its own; its icon is its first song's.")
        }
        return path
    }

    func setCover(sheetID: Int64, uploadPath: String, size: Int, viewer: Viewer) throws -> Sheet {
        try database.read { db in try ownedSheet(db, id: sheetID, viewer: viewer) }
        guard size <= AvatarImages.maxUploadBytes else {
            throw ServiceError.tooLarge("A cover can be at most 10 MB. Choose a smaller picture.")
        }
        guard let kind = AvatarImages.kind(ofFileAt: uploadPath) else {
            throw ServiceError.unsupportedFormat("A cover must be a JPEG, PNG or WebP picture.")
        }
        try AvatarImages.resize(uploadPath, kind: kind, to: coverPath(sheetID: sheetID))
        return try database.write { db in
            try ownedSheet(db, id: sheetID, viewer: viewer)
            let now = clock()
            try store.setCoverVersion(db, sheetID: sheetID, version: now, now: now)
            return try owned(db, id: sheetID, viewer: viewer)
        }
    }

    func removeCover(sheetID: Int64, viewer: Viewer) throws -> Sheet {
        let sheet = try database.write { db in
            try ownedSheet(db, id: sheetID, viewer: viewer)
            try store.setCoverVersion(db, sheetID: sheetID, version: nil, now: clock())
            return try owned(db, id: sheetID, viewer: viewer)
        }
        unlink(coverPath(sheetID: sheetID))
        return sheet
    }

    /// The cover files of a person's sheets, to remove once their account is gone.
    func coverFiles(ofUser userID: Int64) throws -> [String] {
        try database.read { db in try store.sheetIDsWithCovers(db, userID: userID) }.map(coverPath)
    }

    // MARK: M3U

    func exportM3U(sheetID: Int64, viewer: Viewer?) throws -> (title: String, text: String) {
        let (title, songs) = try database.read { db in
            let sheet = try visibleSheet(db, id: sheetID, viewer: viewer)
            let ids = try store.songIDs(db, sheetID: sheetID, offset: 0, limit: Self.maxSongsPerSheet)
            return (sheet.title, try catalog.songs(db, ids: ids))
        }
        let entries = songs.map { song in
            M3U.Entry(
                location: "/" + song.uri,
                title: ([song.singer?.nickname].compactMap { $0 } + [song.title]).joined(separator: " - "),
                duration: (song.duration + 500) / 1000)
        }
        return (title, M3U.format(entries))
    }

    /// A new sheet from an M3U text: entries match songs by this server's stream address, by a path
    /// inside a music folder, or by "Artist - Title".
    func importM3U(text: String, title: String?, isPrivate: Bool, viewer: Viewer) throws -> SheetImport {
        let entries = M3U.parse(text)
        guard !entries.isEmpty else {
            throw ServiceError.invalid(
                "That playlist has no entries. Send the text of an .m3u or .m3u8 file.")
        }
        guard entries.count <= Self.maxSongsPerSheet else {
            throw ServiceError.invalid("A playlist can have at most \(Self.maxSongsPerSheet) entries.")
        }
        return try database.write { db in
            var ids: [Int64] = []
            var unmatched: [String] = []
            for entry in entries {
                if let id = try catalog.songID(db, matching: entry) {
                    ids.append(id)
                } else if unmatched.count < 100 {
                    unmatched.append(entry.title ?? entry.location)
                }
            }
            let draft = SheetDraft(title: title ?? "Imported playlist", isPrivate: isPrivate)
            let id = try create(db, draft, songIDs: ids, viewer: viewer)
            return SheetImport(
                sheet: try owned(db, id: id, viewer: viewer), matched: Set(ids).count, unmatched: unmatched)
        }
    }

    // MARK: Play history and queue

    /// Counts a play for the person and for the catalog; false when the same song was counted for this
    /// person moments ago.
    func recordPlay(songID: ID<Song>, viewer: Viewer) throws -> PlayReport {
        let id = songID.rawValue
        return try database.write { db in
            let now = clock()
            if let last = try store.lastPlayed(db, userID: viewer.userID, songID: id),
                now - last < Self.minimumSecondsBetweenPlays, now >= last
            {
                guard try catalog.songExists(db, id: id) else { throw Self.noSong }
                return PlayReport(counted: false)
            }
            guard try Self.countPlay(db, userID: viewer.userID, songID: id, at: now) else {
                throw Self.noSong
            }
            return PlayReport(counted: true)
        }
    }

    /// Counts a play for the catalog and the person's history and pairs it for recommendations, in the
    /// caller's transaction; false when there is no such song. Static so the recommendations' lab can replay
    /// plays without a server's event log.
    static func countPlay(_ db: Connection, userID: Int64, songID: Int64, at time: Int64) throws -> Bool {
        guard try LibraryService.countPlay(db, songID: songID, at: time) else { return false }
        try SheetStore().recordPlay(db, userID: userID, songID: songID, at: time)
        try RecommendationService.songPlayed(db, userID: userID, songID: songID)
        return true
    }

    func history(order: HistoryOrder, paging: Paging, viewer: Viewer) throws -> Page<PlayedSong> {
        try database.read { db in
            let (rows, total) = try store.history(db, userID: viewer.userID, order: order, paging: paging)
            let songs = try catalog.songs(db, ids: rows.map(\.songID))
            let byID = Dictionary(uniqueKeysWithValues: songs.map { ($0.id, $0) })
            let items = rows.compactMap { row in
                byID[String(row.songID)].map {
                    PlayedSong(song: $0, playsCount: row.plays, lastPlayedAt: APIDate.string(row.last))
                }
            }
            return Page(items: items, total: total, page: paging.page, size: paging.size)
        }
    }

    func clearHistory(viewer: Viewer) throws {
        try database.write { db in try store.clearHistory(db, userID: viewer.userID) }
    }

    func saveQueue(_ draft: QueueDraft, viewer: Viewer) throws -> PlayQueue {
        let ids = draft.songIds.map(\.rawValue)
        if let index = draft.currentIndex, !ids.indices.contains(index) {
            throw ServiceError.invalid(
                "'currentIndex' must point into 'songIds' (0 to \(max(ids.count - 1, 0))).")
        }
        let position = draft.position ?? 0
        guard (0...86_400_000).contains(position) else {
            throw ServiceError.invalid("'position' is milliseconds into the song, from 0 to 86400000.")
        }
        return try database.write { db in
            let current = try store.queueVersion(db, userID: viewer.userID)
            if let base = draft.baseVersion, base != current {
                throw ServiceError.conflict(
                    "The queue was changed on another device (version \(current)). Load it again before saving."
                )
            }
            let unknown = try catalog.unknownSongs(db, ids: ids)
            guard unknown.isEmpty else {
                throw ServiceError.invalid(
                    "These songs are not in the library: \(unknown.prefix(10).map(String.init).joined(separator: ", "))."
                )
            }
            return try storeQueue(
                db, songIDs: ids, currentIndex: draft.currentIndex, positionMs: position,
                loopMode: draft.loopMode ?? .list, viewer: viewer, now: clock())
        }
    }

    /// Stores the person's queue (songs that exist) as its next version and tells their other devices, in the
    /// caller's transaction; the queue as saved.
    func storeQueue(
        _ db: Connection, songIDs: [Int64], currentIndex: Int?, positionMs: Int, loopMode: LoopMode,
        viewer: Viewer, now: Int64
    ) throws -> PlayQueue {
        let version = try store.queueVersion(db, userID: viewer.userID) + 1
        try store.saveQueue(
            db, userID: viewer.userID, songIDs: songIDs, currentIndex: currentIndex, positionMs: positionMs,
            loopMode: loopMode, version: version, now: now)
        let saved = try queue(db, viewer: viewer)
        try events.append(db, to: viewer.userID, .queue, QueueEvent(queue: saved), at: now)
        return saved
    }

    func queue(viewer: Viewer) throws -> PlayQueue {
        try database.read { db in try queue(db, viewer: viewer) }
    }

    func queue(_ db: Connection, viewer: Viewer) throws -> PlayQueue {
        try store.queue(db, userID: viewer.userID)
            ?? PlayQueue(
                songIds: [], currentIndex: nil, position: 0, loopMode: .list, version: 0, updatedAt: nil)
    }

    // MARK: Checks on what people send

    static func title(_ value: String?) throws -> String? {
        try SheetDraft.titleText.check(value)
    }

    static func detail(_ value: String?) throws -> String? {
        try SheetDraft.detailText.check(value)
    }

    static func tags(_ values: [String]) throws -> [String] {
        var seen = Set<String>()
        var tags: [String] = []
        for value in values {
            guard let tag = try TextPolicy.check(value, field: "A tag", limit: 20) else { continue }
            if seen.insert(tag.lowercased()).inserted { tags.append(tag) }
        }
        guard tags.count <= maxTags else {
            throw ServiceError.invalid("A sheet can have at most \(maxTags) tags.")
        }
        return tags
    }
}
