import Foundation
import HTTPServer
import MusicCore
import Storage

/// The rules of each person's music: who may see and change a sheet, the limits, likes, collections,
/// play history and the play queue.
struct SheetService: Sendable {
    typealias Viewer = AccountService.Viewer

    let store: SheetStore
    let catalog: CatalogStore
    let coverFolder: String
    let clicks: ClickCounter
    var clock: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }

    static let maxSheetsPerUser = 1_000
    static let maxSongsPerSheet = 10_000
    static let maxSongsPerRequest = 1_000
    static let maxQueueSongs = 5_000
    static let maxTags = 10
    /// A second play of one song by one person within this many seconds is not counted again.
    static let minimumSecondsBetweenPlays: Int64 = 30

    static let noSheet = HTTPError.notFound("That sheet does not exist.")

    // MARK: Seeing and changing

    /// The sheet if `viewer` may see it; a private sheet is a 404 to everyone but its owner.
    func visibleSheet(id: Int64, viewer: Viewer?) throws -> SheetStore.SheetRecord {
        guard let sheet = try store.sheet(id: id, viewerID: viewer?.userID),
            !sheet.isPrivate || sheet.userID == viewer?.userID
        else { throw Self.noSheet }
        return sheet
    }

    /// Throws unless `viewer` owns the sheet (404 when they may not even see it).
    @discardableResult
    func ownedSheet(id: Int64, viewer: Viewer) throws -> (ownerID: Int64, isPrivate: Bool, isLikes: Bool) {
        guard let access = try store.access(sheetID: id), !access.isPrivate || access.ownerID == viewer.userID
        else {
            throw Self.noSheet
        }
        guard access.ownerID == viewer.userID else {
            throw HTTPError.forbidden("Only the sheet's owner can change it.")
        }
        return access
    }

    struct SheetInput: Decodable {
        var title: String?
        var detail: String?
        var tags: [String]?
        var isPrivate: Bool?
    }

    func create(_ input: SheetInput, viewer: Viewer) throws -> Sheet {
        try visibleSheet(id: try create(input, songIDs: [], viewer: viewer), viewer: viewer).model(
            signedIn: true)
    }

    /// A new sheet with `songIDs` in it, written in one transaction; returns its id.
    func create(_ input: SheetInput, songIDs: [Int64], viewer: Viewer) throws -> Int64 {
        guard let title = try Self.title(input.title) else {
            throw HTTPError.badRequest("Give the sheet a title.")
        }
        let detail = try Self.detail(input.detail)
        let tags = try Self.tags(input.tags ?? [])
        guard try store.sheetsCount(userID: viewer.userID) < Self.maxSheetsPerUser else {
            throw HTTPError(
                status: 409,
                message: "You can have at most \(Self.maxSheetsPerUser) sheets. Delete one first.")
        }
        return try store.insertSheet(
            userID: viewer.userID, title: title, detail: detail, tags: tags, isPrivate: input.isPrivate ?? false,
            songIDs: songIDs, maxSongs: Self.maxSongsPerSheet, now: clock())
    }

    func update(id: Int64, _ input: SheetInput, viewer: Viewer) throws -> Sheet {
        let access = try ownedSheet(id: id, viewer: viewer)
        var changes = SheetStore.SheetChanges()
        if input.title != nil {
            guard let title = try Self.title(input.title) else {
                throw HTTPError.badRequest("A sheet's title cannot be empty.")
            }
            if access.isLikes { throw HTTPError.badRequest("The \"I like\" sheet keeps its name.") }
            changes.title = title
        }
        if input.detail != nil { changes.detail = .some(try Self.detail(input.detail)) }
        if let tags = input.tags { changes.tags = try Self.tags(tags) }
        if let isPrivate = input.isPrivate { changes.isPrivate = isPrivate }
        try store.updateSheet(id: id, changes: changes, now: clock())
        return try visibleSheet(id: id, viewer: viewer).model(signedIn: true)
    }

    func delete(id: Int64, viewer: Viewer) throws {
        let access = try ownedSheet(id: id, viewer: viewer)
        if access.isLikes {
            throw HTTPError.badRequest("The \"I like\" sheet cannot be deleted; remove its songs instead.")
        }
        try store.deleteSheet(id: id)
        unlink(coverPath(sheetID: id))
    }

    /// Sheet detail with its first songs; a view by anyone but the owner counts as a click.
    func detail(id: Int64, viewer: Viewer?, songsLimit: Int) throws -> Sheet {
        var sheet = try visibleSheet(id: id, viewer: viewer)
        sheet.clicksCount +=
            sheet.userID != viewer?.userID ? clicks.add(sheetID: id) : clicks.unwritten(sheetID: id)
        let ids = try store.songIDs(sheetID: id, offset: 0, limit: songsLimit)
        return sheet.model(signedIn: viewer != nil, songs: try catalog.songs(ids: ids))
    }

    func songs(id: Int64, viewer: Viewer?, page: Int, size: Int) throws -> Page<Song> {
        let sheet = try visibleSheet(id: id, viewer: viewer)
        let ids = try store.songIDs(sheetID: id, offset: (page - 1) * size, limit: size)
        return Page(items: try catalog.songs(ids: ids), total: sheet.songsCount, page: page, size: size)
    }

    // MARK: Songs in a sheet

    func addSongs(sheetID: Int64, songIDs: [String], viewer: Viewer) throws -> Sheet {
        let access = try ownedSheet(id: sheetID, viewer: viewer)
        let ids = try Self.songIDs(songIDs)
        switch try store.addSongs(
            sheetID: sheetID, songIDs: ids, atTop: access.isLikes, maxSongs: Self.maxSongsPerSheet,
            now: clock())
        {
        case .added: break
        case .unknownSongs(let unknown):
            throw HTTPError.badRequest(
                "These songs are not in the library: \(unknown.prefix(10).map(String.init).joined(separator: ", "))."
            )
        case .tooMany(let limit):
            throw HTTPError(status: 409, message: "A sheet can hold at most \(limit) songs.")
        }
        return try visibleSheet(id: sheetID, viewer: viewer).model(signedIn: true)
    }

    func removeSongs(sheetID: Int64, songIDs: [String], viewer: Viewer) throws -> Sheet {
        try ownedSheet(id: sheetID, viewer: viewer)
        _ = try store.removeSongs(sheetID: sheetID, songIDs: try Self.songIDs(songIDs), now: clock())
        return try visibleSheet(id: sheetID, viewer: viewer).model(signedIn: true)
    }

    func moveSong(sheetID: Int64, songID: Int64, to position: Int, viewer: Viewer) throws -> Sheet {
        try ownedSheet(id: sheetID, viewer: viewer)
        guard position >= 0 else { throw HTTPError.badRequest("'position' must be 0 or more.") }
        guard try store.moveSong(sheetID: sheetID, songID: songID, to: position, now: clock()) == .moved
        else {
            throw HTTPError.notFound("That song is not in this sheet.")
        }
        return try visibleSheet(id: sheetID, viewer: viewer).model(signedIn: true)
    }

    // MARK: Likes

    func likeSheetID(viewer: Viewer) throws -> Int64 {
        guard let id = try store.likesSheetID(userID: viewer.userID) else {
            throw HTTPError.notFound("You have no \"I like\" sheet.")
        }
        return id
    }

    func like(songID: Int64, viewer: Viewer) throws -> Sheet {
        // The song is the resource named in the path: a missing one is a 404, as for unlike.
        guard try catalog.songExists(id: songID) else {
            throw HTTPError.notFound("That song does not exist.")
        }
        return try addSongs(
            sheetID: try likeSheetID(viewer: viewer), songIDs: [String(songID)], viewer: viewer)
    }

    func unlike(songID: Int64, viewer: Viewer) throws -> Sheet {
        guard try catalog.songExists(id: songID) else {
            throw HTTPError.notFound("That song does not exist.")
        }
        return try removeSongs(
            sheetID: try likeSheetID(viewer: viewer), songIDs: [String(songID)], viewer: viewer)
    }

    // MARK: Collections

    func collect(sheetID: Int64, viewer: Viewer) throws -> Sheet {
        let sheet = try visibleSheet(id: sheetID, viewer: viewer)
        guard sheet.userID != viewer.userID else {
            throw HTTPError.badRequest("Your own sheets are already yours; collect other people's.")
        }
        guard !sheet.isLikes else { throw HTTPError.badRequest("\"I like\" sheets cannot be collected.") }
        _ = try store.collect(userID: viewer.userID, sheetID: sheetID, now: clock())
        return try visibleSheet(id: sheetID, viewer: viewer).model(signedIn: true)
    }

    func uncollect(sheetID: Int64, viewer: Viewer) throws {
        // Uncollecting works even after the owner made the sheet private (it is gone from the list then).
        guard try store.uncollect(userID: viewer.userID, sheetID: sheetID) else {
            _ = try visibleSheet(id: sheetID, viewer: viewer)
            throw HTTPError.notFound("You have not collected that sheet.")
        }
    }

    // MARK: Covers

    func coverPath(sheetID: Int64) -> String { coverFolder + "/\(sheetID).jpg" }

    func setCover(sheetID: Int64, uploadPath: String, size: Int, viewer: Viewer) throws -> Sheet {
        try ownedSheet(id: sheetID, viewer: viewer)
        guard size <= AvatarImages.maxUploadBytes else {
            throw HTTPError.tooLarge("A cover can be at most 10 MB. Choose a smaller picture.")
        }
        guard let kind = AvatarImages.kind(ofFileAt: uploadPath) else {
            throw HTTPError(status: 415, message: "A cover must be a JPEG, PNG or WebP picture.")
        }
        try AvatarImages.resize(uploadPath, kind: kind, to: coverPath(sheetID: sheetID))
        let now = clock()
        try store.setCoverVersion(sheetID: sheetID, version: now, now: now)
        return try visibleSheet(id: sheetID, viewer: viewer).model(signedIn: true)
    }

    func removeCover(sheetID: Int64, viewer: Viewer) throws -> Sheet {
        try ownedSheet(id: sheetID, viewer: viewer)
        unlink(coverPath(sheetID: sheetID))
        try store.setCoverVersion(sheetID: sheetID, version: nil, now: clock())
        return try visibleSheet(id: sheetID, viewer: viewer).model(signedIn: true)
    }

    // MARK: M3U

    func exportM3U(sheetID: Int64, viewer: Viewer?) throws -> (title: String, text: String) {
        let sheet = try visibleSheet(id: sheetID, viewer: viewer)
        let ids = try store.songIDs(sheetID: sheetID, offset: 0, limit: Self.maxSongsPerSheet)
        let entries = try catalog.songs(ids: ids).map { song in
            M3U.Entry(
                location: "/" + song.uri,
                title: ([song.singer?.nickname].compactMap { $0 } + [song.title]).joined(separator: " - "),
                duration: (song.duration + 500) / 1000)
        }
        return (sheet.title, M3U.format(entries))
    }

    struct ImportResult: Codable, Sendable {
        var sheet: Sheet
        var matched: Int
        /// Entries no song was found for, as written in the file (at most 100).
        var unmatched: [String]
    }

    /// A new sheet from an M3U text: entries match songs by this server's stream address, by a path
    /// inside a music folder, or by "Artist - Title".
    func importM3U(text: String, title: String?, isPrivate: Bool, viewer: Viewer) throws -> ImportResult {
        let entries = M3U.parse(text)
        guard !entries.isEmpty else {
            throw HTTPError.badRequest(
                "That playlist has no entries. Send the text of an .m3u or .m3u8 file.")
        }
        guard entries.count <= Self.maxSongsPerSheet else {
            throw HTTPError.badRequest("A playlist can have at most \(Self.maxSongsPerSheet) entries.")
        }
        var ids: [Int64] = []
        var unmatched: [String] = []
        for entry in entries {
            if let id = try catalog.songID(matching: entry) {
                ids.append(id)
            } else if unmatched.count < 100 {
                unmatched.append(entry.title ?? entry.location)
            }
        }
        let id = try create(
            SheetInput(title: title ?? "Imported playlist", detail: nil, tags: nil, isPrivate: isPrivate),
            songIDs: ids, viewer: viewer)
        return ImportResult(
            sheet: try visibleSheet(id: id, viewer: viewer).model(signedIn: true), matched: Set(ids).count,
            unmatched: unmatched)
    }

    // MARK: Play history and queue

    func recordPlay(songID: Int64, viewer: Viewer) throws -> Bool {
        guard
            let counted = try store.recordPlay(
                userID: viewer.userID, songID: songID, at: clock(),
                minimumGap: Self.minimumSecondsBetweenPlays)
        else { throw HTTPError.notFound("That song does not exist.") }
        return counted
    }

    func history(order: SheetStore.HistoryOrder, page: Int, size: Int, viewer: Viewer) throws -> Page<
        PlayedSong
    > {
        let (rows, total) = try store.history(userID: viewer.userID, order: order, page: page, size: size)
        let songs = try catalog.songs(ids: rows.map(\.songID))
        let byID = Dictionary(uniqueKeysWithValues: songs.map { ($0.id, $0) })
        let items = rows.compactMap { row in
            byID[String(row.songID)].map {
                PlayedSong(song: $0, playsCount: row.plays, lastPlayedAt: APIDate.string(row.last))
            }
        }
        return Page(items: items, total: total, page: page, size: size)
    }

    struct QueueInput: Decodable {
        var songIds: [String]
        var currentIndex: Int?
        var position: Int?
        var loopMode: LoopMode?
        var baseVersion: Int?
    }

    func saveQueue(_ input: QueueInput, viewer: Viewer) throws -> PlayQueue {
        guard input.songIds.count <= Self.maxQueueSongs else {
            throw HTTPError.badRequest("A play queue can hold at most \(Self.maxQueueSongs) songs.")
        }
        let ids = try input.songIds.map(Self.songID)
        if let index = input.currentIndex, !ids.indices.contains(index) {
            throw HTTPError.badRequest(
                "'currentIndex' must point into 'songIds' (0 to \(max(ids.count - 1, 0))).")
        }
        let position = input.position ?? 0
        guard (0...86_400_000).contains(position) else {
            throw HTTPError.badRequest("'position' is milliseconds into the song, from 0 to 86400000.")
        }
        switch try store.saveQueue(
            userID: viewer.userID, songIDs: ids, currentIndex: input.currentIndex, positionMs: position,
            loopMode: input.loopMode ?? .list, baseVersion: input.baseVersion, now: clock())
        {
        case .saved: break
        case .stale(let current):
            throw HTTPError(
                status: 409,
                message:
                    "The queue was changed on another device (version \(current)). Load it again before saving."
            )
        case .unknownSongs(let unknown):
            throw HTTPError.badRequest(
                "These songs are not in the library: \(unknown.prefix(10).map(String.init).joined(separator: ", "))."
            )
        }
        return try queue(viewer: viewer)
    }

    func queue(viewer: Viewer) throws -> PlayQueue {
        try store.queue(userID: viewer.userID)
            ?? PlayQueue(
                songIds: [], currentIndex: nil, position: 0, loopMode: .list, version: 0, updatedAt: nil)
    }

    // MARK: Checks on what people send

    static func title(_ value: String?) throws -> String? {
        try AccountRules.text(value, field: "The title", limit: 100)
    }

    static func detail(_ value: String?) throws -> String? {
        try AccountRules.text(value, field: "The description", limit: 2_000, allowNewlines: true)
    }

    static func tags(_ values: [String]) throws -> [String] {
        var seen = Set<String>()
        var tags: [String] = []
        for value in values {
            guard let tag = try AccountRules.text(value, field: "A tag", limit: 20) else { continue }
            if seen.insert(tag.lowercased()).inserted { tags.append(tag) }
        }
        guard tags.count <= maxTags else {
            throw HTTPError.badRequest("A sheet can have at most \(maxTags) tags.")
        }
        return tags
    }

    static func songIDs(_ values: [String]) throws -> [Int64] {
        guard !values.isEmpty else { throw HTTPError.badRequest("Name at least one song in 'songIds'.") }
        guard values.count <= maxSongsPerRequest else {
            throw HTTPError.badRequest("Send at most \(maxSongsPerRequest) songs at a time.")
        }
        return try values.map(songID)
    }

    static func songID(_ text: String) throws -> Int64 {
        guard let id = Int64(text), id > 0 else { throw HTTPError.badRequest("'\(text)' is not a song id.") }
        return id
    }
}
