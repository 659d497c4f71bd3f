import Foundation
import MusicCore
import Storage

/// Each person's music through Subsonic: playlists are sheets (the sheets' rules and ownership), starred songs
/// are "I like", scrobbles are plays in the history, the play queue is the one the web player and the apps
/// share (its version grows with every save, so a client holding an older one is refused there).
extension SubsonicService {
    // MARK: Playlists

    func playlists(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let rows = try database.read { db -> [SubsonicStore.PlaylistRecord] in
            if let name = call.arguments.text("username") {
                let person = try store.person(db, username: name)
                if person?.id != user.id {
                    guard user.isAdmin else {
                        throw SubsonicError(
                            .notAuthorized, "Only administrators can list another person's playlists.")
                    }
                    guard let person else { throw SubsonicError.notFound("user") }
                    // Private sheets are their owner's alone, administrators included.
                    return try store.playlists(
                        db, ownerID: person.id, includeCollected: false, publicOnly: true)
                }
            }
            return try store.playlists(db, ownerID: user.id, includeCollected: true, publicOnly: false)
        }
        var element = SubsonicElement()
        element.add("playlist", many: rows.map { SubsonicShapes.playlist($0, viewerID: user.id) })
        return SubsonicDocument("playlists", element)
    }

    func playlist(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let id = try call.arguments.requiredID("id")
        return try database.read { db in try playlistDocument(db, id: id.value, user: user) }
    }

    private func playlistDocument(_ db: Connection, id: Int64, user: SubsonicUser) throws -> SubsonicDocument
    {
        _ = try sheets.visibleSheet(db, id: id, viewer: user.viewer)
        guard let playlist = try store.playlist(db, id: id) else { throw SubsonicError.notFound("playlist") }
        let songIDs = try sheetStore.songIDs(db, sheetID: id, offset: 0, limit: SheetService.maxSongsPerSheet)
        let entries = try store.songs(db, user.listener, ids: songIDs)
        return SubsonicDocument(
            "playlist", SubsonicShapes.playlist(playlist, viewerID: user.id, entries: entries))
    }

    /// A new private sheet, or (with `playlistId`) one's sheet with its songs replaced; unknown songs are 70.
    func createPlaylist(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let songIDs = call.arguments.ids("songId").map(\.value)
        let existing = call.arguments.id("playlistId")
        let name = call.arguments.text("name")
        guard existing != nil || name != nil else { throw SubsonicError.missing("name") }
        return try database.write { db in
            try requireSongs(db, songIDs)
            let id: Int64
            let now = clock()
            if let existing {
                let access = try sheets.ownedSheet(db, id: existing.value, viewer: user.viewer)
                if let name, !access.isLikes {
                    var changes = SheetStore.SheetChanges()
                    changes.title = try SheetService.title(name)
                    try sheetStore.updateSheet(db, id: existing.value, changes: changes, now: now)
                }
                let current = try sheetStore.songIDs(
                    db, sheetID: existing.value, offset: 0, limit: SheetService.maxSongsPerSheet)
                _ = try sheetStore.removeSongs(db, sheetID: existing.value, songIDs: current, now: now)
                if !songIDs.isEmpty {
                    try sheets.add(db, songIDs, to: existing.value, atTop: false, now: now)
                }
                id = existing.value
            } else {
                id = try sheets.create(
                    db, SheetDraft(title: name, isPrivate: true), songIDs: songIDs, viewer: user.viewer)
            }
            return try playlistDocument(db, id: id, user: user)
        }
    }

    /// Changes one's sheet: removals by index (in the list as it was), then additions at the end.
    func updatePlaylist(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let arguments = call.arguments
        let id = try arguments.requiredID("playlistId").value
        let adding = arguments.ids("songIdToAdd").map(\.value)
        let removing = Set(arguments.integers("songIndexToRemove"))
        try database.write { db in
            let access = try sheets.ownedSheet(db, id: id, viewer: user.viewer)
            let now = clock()
            var changes = SheetStore.SheetChanges()
            if let name = arguments.text("name") {
                guard !access.isLikes else {
                    throw SubsonicError(.generic, "The \"I like\" playlist keeps its name.")
                }
                changes.title = try SheetService.title(name)
            }
            if let comment = arguments.text("comment") {
                changes.detail = .some(try SheetService.detail(comment))
            }
            if let isPublic = arguments.flag("public") { changes.isPrivate = !isPublic }
            if changes.title != nil || changes.detail != nil || changes.isPrivate != nil {
                try sheetStore.updateSheet(db, id: id, changes: changes, now: now)
            }
            if !removing.isEmpty {
                let current = try sheetStore.songIDs(
                    db, sheetID: id, offset: 0, limit: SheetService.maxSongsPerSheet)
                if let outside = removing.first(where: { $0 >= current.count }) {
                    throw SubsonicError(
                        .generic,
                        "songIndexToRemove \(outside) is outside the playlist (it has \(current.count) songs)."
                    )
                }
                _ = try sheetStore.removeSongs(
                    db, sheetID: id, songIDs: removing.map { current[Int($0)] }, now: now)
            }
            if !adding.isEmpty {
                try requireSongs(db, adding)
                try sheets.add(db, adding, to: id, atTop: access.isLikes, now: now)
            }
        }
        return .empty
    }

    func deletePlaylist(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        try sheets.delete(id: try call.arguments.requiredID("id").value, viewer: user.viewer)
        return .empty
    }

    /// 70 unless every song exists.
    private func requireSongs(_ db: Connection, _ ids: [Int64]) throws {
        guard !ids.isEmpty else { return }
        guard try catalog.unknownSongs(db, ids: ids).isEmpty else { throw SubsonicError.notFound("song") }
    }

    // MARK: Stars, ratings, plays

    /// Songs into (or out of) "I like", albums and artists into (or out of) favourites. Ids that no longer
    /// exist are skipped, so an app's offline batch is not lost for one deleted song; none existing is 70.
    func star(_ call: SubsonicCall, on: Bool) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let ids = call.arguments.ids("id") + call.arguments.ids("albumId") + call.arguments.ids("artistId")
        guard !ids.isEmpty else { throw SubsonicError.missing("id") }
        let songs = ids.filter { $0.kind == .song }.map(\.value)
        let albums = ids.filter { $0.kind == .album }.map(\.value)
        let artists = ids.filter { $0.kind == .artist }.map(\.value)
        try database.write { db in
            let now = clock()
            var found = 0
            if !songs.isEmpty {
                let unknown = Set(try catalog.unknownSongs(db, ids: songs))
                let known = songs.filter { !unknown.contains($0) }
                found += known.count
                if !known.isEmpty {
                    guard user.likesSheetID != 0 else {
                        throw SubsonicError(.generic, "You have no \"I like\" sheet.")
                    }
                    if on {
                        // Like the app's heart: the newest liked song comes first.
                        try sheets.add(
                            db, Array(known.reversed()), to: user.likesSheetID, atTop: true, now: now)
                    } else {
                        _ = try sheetStore.removeSongs(
                            db, sheetID: user.likesSheetID, songIDs: known, now: now)
                    }
                    for id in known {
                        try sheets.events.append(
                            db, to: user.id, .likes, LikesEvent(songId: String(id), liked: on), at: now)
                    }
                }
            }
            if !albums.isEmpty {
                found +=
                    on
                    ? try store.favourAlbums(db, userID: user.id, ids: albums, now: now)
                    : try store.unfavourAlbums(db, userID: user.id, ids: albums)
            }
            if !artists.isEmpty {
                found +=
                    on
                    ? try store.favourArtists(db, userID: user.id, ids: artists, now: now)
                    : try store.unfavourArtists(db, userID: user.id, ids: artists)
            }
            guard found > 0 else {
                throw SubsonicError(.notFound, "None of those songs, albums or artists exist.")
            }
        }
        return .empty
    }

    func setRating(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let id = try call.arguments.requiredID("id")
        let rating = call.arguments.int("rating") ?? 0
        try database.write { db in
            guard
                try store.setRating(
                    db, userID: user.id, item: id, rating: rating == 0 ? nil : rating, now: clock())
            else { throw SubsonicError.notFound(id.kind.noun) }
        }
        return .empty
    }

    /// `submission=true` (the default): a play in the history for each song at its `time` (a repeat of the
    /// same song within 30 seconds counts once, as everywhere); false: the first song is now playing.
    func scrobble(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let ids = call.arguments.ids("id").map(\.value)
        let times = call.arguments.integers("time")
        guard times.isEmpty || times.count == ids.count else {
            throw SubsonicError(.generic, "Send one time per id, or none.")
        }
        let now = clock()
        guard call.arguments.flag("submission") ?? true else {
            guard let first = ids.first,
                let song = try database.read({ db in try store.song(db, user.listener, id: first) })
            else { throw SubsonicError.notFound("song") }
            nowPlaying.start(
                userID: user.id, username: user.username, client: call.client, songID: first,
                durationSeconds: Int64(song.durationMilliseconds / 1_000), now: now)
            return .empty
        }
        try database.write { db in
            var found = 0
            for (index, id) in ids.enumerated() {
                let at = times.isEmpty ? now : min(times[index] / 1_000, now)
                if let last = try sheetStore.lastPlayed(db, userID: user.id, songID: id),
                    abs(at - last) < SheetService.minimumSecondsBetweenPlays
                {
                    if try store.songExists(db, id: id) { found += 1 }
                    continue
                }
                guard try catalog.countPlay(db, songID: id, at: at) else { continue }
                try sheetStore.recordPlay(db, userID: user.id, songID: id, at: at)
                found += 1
            }
            guard found > 0 else { throw SubsonicError.notFound("song") }
        }
        return .empty
    }

    // MARK: Bookmarks

    func bookmarks(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        return try database.read { db in
            let marks = try store.bookmarks(db, userID: user.id)
            let songs = try store.songs(db, user.listener, ids: marks.map(\.songID))
            let byID = Dictionary(songs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            var element = SubsonicElement()
            element.add(
                "bookmark",
                many: marks.compactMap { mark in
                    guard let song = byID[mark.songID] else { return nil }
                    var item = SubsonicElement()
                    item.add("position", mark.positionMilliseconds)
                    item.add("username", user.username)
                    item.add("comment", mark.comment)
                    item.addDate("created", mark.createdAt)
                    item.addDate("changed", mark.updatedAt)
                    item.add("entry", one: SubsonicShapes.song(song))
                    return item
                })
            return SubsonicDocument("bookmarks", element)
        }
    }

    func createBookmark(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let id = try call.arguments.requiredID("id").value
        let position = call.arguments.integer("position") ?? 0
        try database.write { db in
            guard try store.songExists(db, id: id) else { throw SubsonicError.notFound("song") }
            try store.saveBookmark(
                db, userID: user.id, songID: id, position: position, comment: call.arguments.text("comment"),
                now: clock())
        }
        return .empty
    }

    func deleteBookmark(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let id = try call.arguments.requiredID("id").value
        try database.write { db in try store.deleteBookmark(db, userID: user.id, songID: id) }
        return .empty
    }

    // MARK: The play queue

    /// The shared play queue: `current` as an id, or (`byIndex`) `currentIndex`.
    func playQueue(_ call: SubsonicCall, byIndex: Bool) throws -> SubsonicDocument {
        let user = try call.signedIn()
        return try database.read { db in
            let queue = try sheetStore.queue(db, userID: user.id)
            let ids = (queue?.songIds ?? []).compactMap { Int64($0) }
            let songs = try store.songs(db, user.listener, ids: ids)
            var element = SubsonicElement()
            if let queue, let index = queue.currentIndex, index < songs.count {
                if byIndex {
                    element.add("currentIndex", index)
                } else {
                    element.add("current", SubsonicShapes.id(.song, songs[index].id))
                }
                element.add("position", Int64(queue.position))
            } else {
                element.add("position", 0)
            }
            element.add("username", user.username)
            element.add("changed", queue?.updatedAt ?? APIDate.string(clock()))
            let client = try queue.flatMap { try store.queueClient(db, userID: user.id, version: $0.version) }
            element.add("changedBy", client ?? (queue == nil ? "" : "CloudMusic"))
            element.add("entry", many: songs.map(SubsonicShapes.song))
            return SubsonicDocument(byIndex ? "playQueueByIndex" : "playQueue", element)
        }
    }

    /// Saves the queue (no id clears it). `current` not in the list means its first song; songs that left the
    /// library are dropped.
    func savePlayQueue(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let requested = call.arguments.ids("id").map(\.value)
        let current = call.arguments.id("current")?.value
        if !requested.isEmpty && current == nil { throw SubsonicError.missing("current") }
        return try saveQueue(call, user: user) { db in
            let unknown = Set(try catalog.unknownSongs(db, ids: requested))
            let ids = requested.filter { !unknown.contains($0) }
            return (ids, ids.isEmpty ? nil : ids.firstIndex { $0 == current } ?? 0)
        }
    }

    /// indexBasedQueue: the same song may come twice, and `currentIndex` says which. Without ids the queue is
    /// cleared (and `currentIndex` must not be sent); out of range is 10, as the extension says.
    func savePlayQueueByIndex(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let ids = call.arguments.ids("id").map(\.value)
        let index = call.arguments.integer("currentIndex")
        if ids.isEmpty {
            guard index == nil else {
                throw SubsonicError(.generic, "Leave out currentIndex when clearing the play queue (no id).")
            }
        } else {
            guard let index, (0..<Int64(ids.count)).contains(index) else {
                throw SubsonicError(
                    .missingParameter,
                    "currentIndex must be given, from 0 to \(ids.count - 1) (the ids sent).")
            }
        }
        return try saveQueue(call, user: user) { db in
            try requireSongs(db, ids)
            return (ids, index.map { Int($0) })
        }
    }

    private func saveQueue(
        _ call: SubsonicCall, user: SubsonicUser,
        _ resolve: (Connection) throws -> (ids: [Int64], current: Int?)
    ) throws -> SubsonicDocument {
        let position = call.arguments.integer("position") ?? 0
        guard position <= 86_400_000 else {
            throw SubsonicError(.generic, "'position' is milliseconds into the song, at most 86400000.")
        }
        try database.write { db in
            let (ids, current) = try resolve(db)
            guard ids.count <= SheetService.maxQueueSongs else {
                throw SubsonicError(
                    .generic, "A play queue can hold at most \(SheetService.maxQueueSongs) songs.")
            }
            let version = try sheetStore.queueVersion(db, userID: user.id) + 1
            let loopMode = try sheetStore.queue(db, userID: user.id)?.loopMode ?? .list
            try sheetStore.saveQueue(
                db, userID: user.id, songIDs: ids, currentIndex: current,
                positionMs: current == nil ? 0 : Int(position),
                loopMode: loopMode, version: version, now: clock())
            try store.setQueueClient(
                db, userID: user.id, version: version, client: String(call.client.prefix(256)))
            if let saved = try sheetStore.queue(db, userID: user.id) {
                try sheets.events.append(db, to: user.id, .queue, QueueEvent(queue: saved), at: clock())
            }
        }
        return .empty
    }

    // MARK: People and the library

    func user(_ call: SubsonicCall) throws -> SubsonicDocument {
        let user = try call.signedIn()
        let name = call.arguments.text("username") ?? ""
        let person = try database.read { db in try store.person(db, username: name) }
        guard person?.id == user.id || user.isAdmin else {
            throw SubsonicError(
                .notAuthorized, "You can only see your own user (administrators see anyone's).")
        }
        guard let person else { throw SubsonicError.notFound("user") }
        var element = SubsonicElement()
        element.add("username", person.nickname)
        element.add("email", person.email)
        element.add("scrobblingEnabled", true)
        element.add("maxBitRate", 0)
        for (role, allowed) in [
            ("adminRole", person.isAdmin), ("settingsRole", true), ("downloadRole", true),
            ("uploadRole", false),
            ("playlistRole", true), ("coverArtRole", false), ("commentRole", false), ("podcastRole", false),
            ("streamRole", true), ("jukeboxRole", false), ("shareRole", false),
            ("videoConversionRole", false),
        ] {
            element.add(role, allowed)
        }
        element.add("folder", .values([.int(1)]))
        return SubsonicDocument("user", element)
    }

    func scanStatus(_ call: SubsonicCall, start: Bool) throws -> SubsonicDocument {
        let status = start ? try scans.start() : try scans.status()
        let count = try database.read { db in try store.songsCount(db) }
        var element = SubsonicElement()
        element.add("scanning", status.running)
        element.add("count", count)
        return SubsonicDocument("scanStatus", element)
    }
}
