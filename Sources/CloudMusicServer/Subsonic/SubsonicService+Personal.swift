import Foundation
import MusicCore
import Storage

/// Each person's music through Subsonic: playlists are sheets (the sheets' rules and ownership), starred songs
/// are "I like", scrobbles are plays in the history, the play queue is the one the web player and the apps
/// share (its version grows with every save, so a client holding an older one is refused there).
extension SubsonicService {
    // MARK: Playlists

    func playlists(_ user: SubsonicUser, username: String?) throws -> SubsonicDocument {
        let rows = try database.read { db -> [SubsonicStore.PlaylistRecord] in
            if let name = username {
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

    func playlist(_ user: SubsonicUser, id: Int64) throws -> SubsonicDocument {
        try database.read { db in try playlistDocument(db, id: id, user: user) }
    }

    private func playlistDocument(_ db: Connection, id: Int64, user: SubsonicUser) throws -> SubsonicDocument
    {
        _ = try sheets.visibleSheet(db, id: id, viewer: user.viewer)
        guard let playlist = try store.playlist(db, id: id) else { throw SubsonicError.notFound("playlist") }
        let songIDs = try sheetReads.songIDs(db, sheetID: id, offset: 0, limit: SheetService.maxSongsPerSheet)
        let entries = try store.songs(db, user.listener, ids: songIDs)
        return SubsonicDocument(
            "playlist", SubsonicShapes.playlist(playlist, viewerID: user.id, entries: entries))
    }

    /// A new private sheet, or (with `playlistId`) one's sheet with its songs replaced; unknown songs are 70.
    func createPlaylist(_ user: SubsonicUser, _ parameters: CreatePlaylistParameters) throws
        -> SubsonicDocument
    {
        let songIDs = parameters.songId.map(\.value)
        let existing = parameters.playlistId
        let name = parameters.name
        guard existing != nil || name != nil else { throw SubsonicError.missing("name") }
        return try database.write { db in
            try requireSongs(db, songIDs)
            let id: Int64
            let now = clock()
            if let existing {
                let access = try sheets.ownedSheet(db, id: existing.value, viewer: user.viewer)
                // "I like" keeps its name: a name sent with it is ignored.
                if let name, !access.isLikes {
                    var changes = SheetChanges()
                    changes.title = try SheetService.title(name)
                    try sheets.update(db, id: existing.value, changes: changes, viewer: user.viewer, now: now)
                }
                try sheets.replaceSongs(
                    db, sheetID: existing.value, songIDs: songIDs, viewer: user.viewer, now: now)
                id = existing.value
            } else {
                id = try sheets.create(
                    db, SheetDraft(title: name, isPrivate: true), songIDs: songIDs, viewer: user.viewer,
                    keepingRepeats: true)
            }
            return try playlistDocument(db, id: id, user: user)
        }
    }

    /// Changes one's sheet: removals by index (in the list as it was), then additions at the end.
    func updatePlaylist(_ user: SubsonicUser, _ parameters: UpdatePlaylistParameters) throws
        -> SubsonicDocument
    {
        let id = parameters.playlistId.value
        let adding = parameters.songIdToAdd.map(\.value)
        let removing = Set(parameters.songIndexToRemove)
        try database.write { db in
            let access = try sheets.ownedSheet(db, id: id, viewer: user.viewer)
            let now = clock()
            var changes = SheetChanges()
            if let name = parameters.name {
                guard !access.isLikes else {
                    throw SubsonicError(.generic, "The \"I like\" playlist keeps its name.")
                }
                changes.title = try SheetService.title(name)
            }
            if let comment = parameters.comment {
                changes.detail = .some(try SheetService.detail(comment))
            }
            if let isPublic = parameters.isPublic { changes.isPrivate = !isPublic }
            if changes.title != nil || changes.detail != nil || changes.isPrivate != nil {
                try sheets.update(db, id: id, changes: changes, viewer: user.viewer, now: now)
            }
            if !removing.isEmpty {
                let current = try sheetReads.songIDs(
                    db, sheetID: id, offset: 0, limit: SheetService.maxSongsPerSheet)
                if let outside = removing.first(where: { $0 >= current.count }) {
                    throw SubsonicError(
                        .generic,
                        "songIndexToRemove \(outside) is outside the playlist (it has \(current.count) songs)."
                    )
                }
                // By index: with a song twice, only the entry the app named goes.
                try sheets.removeEntries(db, sheetID: id, at: Array(removing), viewer: user.viewer, now: now)
            }
            if !adding.isEmpty {
                try requireSongs(db, adding)
                try sheets.add(
                    db, adding, to: id, atTop: access.isLikes, now: now, keepingRepeats: !access.isLikes)
            }
        }
        return .empty
    }

    func deletePlaylist(_ user: SubsonicUser, id: Int64) throws -> SubsonicDocument {
        try sheets.delete(id: id, viewer: user.viewer)
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
    func star(_ user: SubsonicUser, _ parameters: StarParameters, on: Bool) throws -> SubsonicDocument {
        let ids = parameters.id + parameters.albumId + parameters.artistId
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
                    // Like the app's heart: the newest liked song comes first, and other devices hear of
                    // each change once.
                    try sheets.setLiked(db, songs: known, liked: on, viewer: user.viewer, now: now)
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

    func setRating(_ user: SubsonicUser, _ parameters: RatingParameters) throws -> SubsonicDocument {
        let id = parameters.id
        let rating = parameters.rating
        try database.write { db in
            guard
                try store.setRating(
                    db, userID: user.id, item: id, rating: rating == 0 ? nil : rating, now: clock())
            else { throw SubsonicError.notFound(id.kind.noun) }
        }
        return .empty
    }

    /// `submission=true` (the default): a play for each song at its `time`, counted as `POST /v1/plays` counts
    /// one (history, catalog, recommendations; a repeat of the same song within 30 seconds counts once, as
    /// everywhere); false: the first song is now playing.
    func scrobble(_ user: SubsonicUser, _ parameters: ScrobbleParameters, client: String) throws
        -> SubsonicDocument
    {
        let ids = parameters.id.map(\.value)
        let times = parameters.time
        guard times.isEmpty || times.count == ids.count else {
            throw SubsonicError(.generic, "Send one time per id, or none.")
        }
        let now = clock()
        guard parameters.submission ?? true else {
            guard let first = ids.first,
                let song = try database.read({ db in try store.song(db, user.listener, id: first) })
            else { throw SubsonicError.notFound("song") }
            nowPlaying.start(
                userID: user.id, username: user.username, client: client, songID: first,
                durationSeconds: Int64(song.durationMilliseconds / 1_000), now: now)
            return .empty
        }
        try database.write { db in
            var found = 0
            for (index, id) in ids.enumerated() {
                let at = times.isEmpty ? now : min(times[index] / 1_000, now)
                if let last = try sheetReads.lastPlayed(db, userID: user.id, songID: id),
                    abs(at - last) < SheetService.minimumSecondsBetweenPlays
                {
                    if try store.songExists(db, id: id) { found += 1 }
                    continue
                }
                guard try SheetService.countPlay(db, userID: user.id, songID: id, at: at) else { continue }
                found += 1
            }
            guard found > 0 else { throw SubsonicError.notFound("song") }
        }
        return .empty
    }

    // MARK: Bookmarks

    /// One's song bookmarks, then `episodes` (the ones one is partway through, the last played first).
    func bookmarks(_ user: SubsonicUser, episodes: [PodcastEpisodeRecord]) throws -> SubsonicDocument {
        try database.read { db in
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
                }
                    + episodes.compactMap { episode in
                        guard let progress = episode.progress else { return nil }
                        var item = SubsonicElement()
                        item.add("position", Int64((progress.position * 1_000).rounded()))
                        item.add("username", user.username)
                        item.addDate("created", progress.updatedAt / 1_000)
                        item.addDate("changed", progress.updatedAt / 1_000)
                        item.add("entry", one: SubsonicPodcasts.episodeChild(episode))
                        return item
                    })
            return SubsonicDocument("bookmarks", element)
        }
    }

    func createBookmark(_ user: SubsonicUser, _ parameters: BookmarkParameters) throws -> SubsonicDocument {
        let id = parameters.id.value
        let position = parameters.position ?? 0
        let comment = try TextPolicy.check(
            parameters.comment, field: "A bookmark's comment", limit: 500, lines: .many)
        try database.write { db in
            guard try store.songExists(db, id: id) else { throw SubsonicError.notFound("song") }
            try store.saveBookmark(
                db, userID: user.id, songID: id, position: position, comment: comment,
                now: clock())
        }
        return .empty
    }

    func deleteBookmark(_ user: SubsonicUser, songID: Int64) throws -> SubsonicDocument {
        try database.write { db in try store.deleteBookmark(db, userID: user.id, songID: songID) }
        return .empty
    }

    // MARK: The play queue

    /// The shared play queue: `current` as an id, or (`byIndex`) `currentIndex`.
    func playQueue(_ user: SubsonicUser, byIndex: Bool) throws -> SubsonicDocument {
        try database.read { db in
            let queue = try sheetReads.queue(db, userID: user.id)
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
    func savePlayQueue(_ user: SubsonicUser, _ parameters: SavePlayQueueParameters, client: String) throws
        -> SubsonicDocument
    {
        let requested = parameters.id.map(\.value)
        let current = parameters.current?.value
        if !requested.isEmpty && current == nil { throw SubsonicError.missing("current") }
        return try saveQueue(user, position: parameters.position, client: client) { db in
            let unknown = Set(try catalog.unknownSongs(db, ids: requested))
            let ids = requested.filter { !unknown.contains($0) }
            return (ids, ids.isEmpty ? nil : ids.firstIndex { $0 == current } ?? 0)
        }
    }

    /// indexBasedQueue: the same song may come twice, and `currentIndex` says which. Without ids the queue is
    /// cleared (and `currentIndex` must not be sent); out of range is 10, as the extension says.
    func savePlayQueueByIndex(
        _ user: SubsonicUser, _ parameters: SavePlayQueueByIndexParameters, client: String
    )
        throws -> SubsonicDocument
    {
        let ids = parameters.id.map(\.value)
        let index = parameters.currentIndex
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
        return try saveQueue(user, position: parameters.position, client: client) { db in
            try requireSongs(db, ids)
            return (ids, index.map { Int($0) })
        }
    }

    private func saveQueue(
        _ user: SubsonicUser, position: Int64?, client: String,
        _ resolve: (Connection) throws -> (ids: [Int64], current: Int?)
    ) throws -> SubsonicDocument {
        let position = position ?? 0
        guard position <= 86_400_000 else {
            throw SubsonicError(.generic, "'position' is milliseconds into the song, at most 86400000.")
        }
        try database.write { db in
            let (ids, current) = try resolve(db)
            guard ids.count <= SheetService.maxQueueSongs else {
                throw SubsonicError(
                    .generic, "A play queue can hold at most \(SheetService.maxQueueSongs) songs.")
            }
            // Subsonic has no loop mode: the one the other apps chose stays.
            let loopMode = try sheets.queue(db, viewer: user.viewer).loopMode
            let saved = try sheets.storeQueue(
                db, songIDs: ids, currentIndex: current, positionMs: current == nil ? 0 : Int(position),
                loopMode: loopMode, viewer: user.viewer, now: clock())
            try store.setQueueClient(
                db, userID: user.id, version: saved.version, client: String(client.prefix(256)))
        }
        return .empty
    }

    // MARK: People and the library

    func user(_ user: SubsonicUser, username: String) throws -> SubsonicDocument {
        let person = try database.read { db in try store.person(db, username: username) }
        guard person?.id == user.id || user.isAdmin else {
            throw SubsonicError(
                .notAuthorized, "You can only see your own user (administrators see anyone's).")
        }
        guard let person else { throw SubsonicError.notFound("user") }
        return SubsonicDocument("user", Self.userElement(person))
    }

    /// Everyone for administrators; the caller alone for others (as Navidrome answers).
    func users(_ user: SubsonicUser) throws -> SubsonicDocument {
        let people = try database.read { db in
            user.isAdmin ? try store.people(db) : try store.person(db, id: user.id).map { [$0] } ?? []
        }
        var element = SubsonicElement()
        element.add("user", many: people.map(Self.userElement))
        return SubsonicDocument("users", element)
    }

    /// A person as Subsonic's `User`: what they may do through this server's Subsonic API.
    static func userElement(_ person: SubsonicStore.PersonRecord) -> SubsonicElement {
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
        return element
    }

    // MARK: Now playing

    /// Who may see what `userID`'s apps play: theirs to read (and administrators'), theirs alone to change.
    func nowPlayingSetting(userID: Int64, by viewer: Viewer) throws -> NowPlayingSetting {
        guard viewer.userID == userID || viewer.isAdmin else {
            throw ServiceError.forbidden(
                "Only the account's owner (or an administrator) can see this setting.")
        }
        guard let visibility = try database.read({ db in try store.nowPlayingVisibility(db, userID: userID) })
        else { throw AccountService.noUser }
        return NowPlayingSetting(visibility: visibility)
    }

    func setNowPlaying(userID: Int64, _ visibility: NowPlayingVisibility, by viewer: Viewer) throws
        -> NowPlayingSetting
    {
        guard viewer.userID == userID else {
            throw ServiceError.forbidden("Only the account's owner can choose who sees what they play.")
        }
        try database.write { db in try store.setNowPlayingVisibility(db, userID: userID, visibility) }
        return NowPlayingSetting(visibility: visibility)
    }

    // MARK: Internet radio

    /// The stations administrators added, by name. Apps play `streamUrl` themselves.
    func radioStations() throws -> SubsonicDocument {
        let stations = try database.read { db in try store.radioStations(db) }
        var element = SubsonicElement()
        element.add(
            "internetRadioStation",
            many: stations.map { station in
                var item = SubsonicElement()
                item.add("id", SubsonicShapes.id(.radio, station.id))
                item.add("name", station.name)
                item.add("streamUrl", station.streamURL)
                item.add("homePageUrl", station.homepageURL)
                return item
            })
        return SubsonicDocument("internetRadioStations", element)
    }

    func createRadioStation(_ parameters: NewRadioStationParameters) throws -> SubsonicDocument {
        let station = try Self.radioStation(
            name: parameters.name, stream: parameters.streamUrl, homepage: parameters.homepageUrl)
        try database.write { db in
            guard try store.radioStationsCount(db) < Self.maxRadioStations else {
                throw SubsonicError(
                    .generic, "There can be at most \(Self.maxRadioStations) stations. Delete one first.")
            }
            try store.insertRadioStation(db, station, now: clock())
        }
        return .empty
    }

    func updateRadioStation(_ parameters: RadioStationChangeParameters) throws -> SubsonicDocument {
        var station = try Self.radioStation(
            name: parameters.name, stream: parameters.streamUrl, homepage: parameters.homepageUrl)
        station.id = parameters.id.value
        try database.write { db in
            guard try store.updateRadioStation(db, station, now: clock()) else {
                throw SubsonicError.notFound("internet radio station")
            }
        }
        return .empty
    }

    func deleteRadioStation(id: Int64) throws -> SubsonicDocument {
        try database.write { db in
            guard try store.deleteRadioStation(db, id: id) else {
                throw SubsonicError.notFound("internet radio station")
            }
        }
        return .empty
    }

    static let maxRadioStations = 1_000

    /// A station with checked addresses: http or https, a host, no user name or password in it, and not a
    /// loopback, private or link-local address (every person's app fetches it; the server does not).
    static func radioStation(name: String, stream: String, homepage: String?) throws
        -> SubsonicStore.RadioStation
    {
        guard let name = try TextPolicy.check(name, field: "The station's name", limit: 100) else {
            throw SubsonicError.missing("name")
        }
        return SubsonicStore.RadioStation(
            id: 0, name: name, streamURL: try publicWebAddress(stream, field: "streamUrl"),
            homepageURL: try homepage.map { try publicWebAddress($0, field: "homepageUrl") })
    }

    static func publicWebAddress(_ text: String, field: String) throws -> String {
        let text = trimmedOfSpaces(text)
        guard let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
            url.user == nil, url.password == nil
        else {
            throw SubsonicError(
                .generic,
                "'\(field)' must be an http or https address, such as https://radio.example.com/live.")
        }
        guard !PublicAddress.isPrivateHost(host) else {
            throw SubsonicError(
                .generic, "'\(field)' names a loopback or private address; give the station's public address."
            )
        }
        return text
    }

    func scanStatus(start: Bool) throws -> SubsonicDocument {
        let status = start ? try scans.start() : try scans.status()
        let count = try database.read { db in try store.songsCount(db) }
        var element = SubsonicElement()
        element.add("scanning", status.running)
        element.add("count", count)
        return SubsonicDocument("scanStatus", element)
    }
}
