import Foundation
import HTTPServer
import MusicCore
import Synchronization

/// The Subsonic shapes (Child, AlbumID3, ArtistID3, Artist, Playlist) made from the store's records: every
/// field our data has, none it has not. OpenSubsonic fields we support but lack a value for go out as ""
/// or [] in JSON and are left out of XML.
enum SubsonicShapes {
    static func id(_ kind: SubsonicIDKind, _ value: Int64) -> String { SubsonicID(kind, value).description }

    /// A song as `Child` (in albums, lists, playlists, the queue...).
    static func song(_ song: SubsonicStore.SongRecord) -> SubsonicElement {
        var element = SubsonicElement()
        let artistNames = song.artists.isEmpty ? nil : song.artists.map(\.name).joined(separator: " / ")
        element.add("id", id(.song, song.id))
        element.add("parent", song.albumID.map { id(.album, $0) })
        element.add("isDir", false)
        element.add("title", song.title)
        element.add("album", song.albumTitle)
        element.add("artist", artistNames)
        element.add("track", song.track)
        element.add("year", song.year)
        element.add("genre", song.genres.first)
        element.add("coverArt", song.albumID.map { id(.album, $0) })
        element.add("size", song.size)
        element.add("contentType", contentType(song.path))
        element.add("suffix", suffix(song.path, format: song.format))
        element.add("duration", (song.durationMilliseconds + 500) / 1_000)
        element.add("bitRate", song.bitRate > 0 ? song.bitRate : nil)
        element.add("path", relativePath(song))
        element.add("userRating", song.rating)
        element.add("playCount", song.plays)
        element.add("discNumber", song.disc)
        element.addDate("created", song.createdAt)
        element.addDate("starred", song.starredAt)
        element.add("albumId", song.albumID.map { id(.album, $0) })
        element.add("artistId", song.artists.first.map { id(.artist, $0.id) })
        element.add("type", "music")
        element.add("isVideo", false)
        element.add("bitDepth", song.bitDepth > 0 ? song.bitDepth : nil)
        element.add("samplingRate", song.sampleRate)
        element.add("channelCount", song.channels)
        element.add("bpm", song.bpm)
        element.add("comment", song.comment)
        element.addSoft("sortName", song.sortTitle)
        element.add("mediaType", "song")
        element.addDate("played", song.lastPlayed)
        element.addSoft("musicBrainzId", song.musicBrainzID)
        element.addSoft("displayArtist", artistNames)
        element.addSoft("displayAlbumArtist", song.albumArtistName)
        element.add("genres", many: song.genres.map { SubsonicElement([("name", .string($0))]) })
        element.add("artists", many: song.artists.map { reference(.artist, $0.id, $0.name) })
        element.add(
            "albumArtists",
            many: song.albumArtistID.map { [reference(.artist, $0, song.albumArtistName ?? "")] } ?? [])
        if !song.replayGain.isEmpty {
            var gain = SubsonicElement()
            gain.add("trackGain", song.replayGain.trackGain)
            gain.add("trackPeak", song.replayGain.trackPeak)
            gain.add("albumGain", song.replayGain.albumGain)
            gain.add("albumPeak", song.replayGain.albumPeak)
            element.add("replayGain", one: gain)
        }
        return element
    }

    /// An album as `Child` with `isDir` (getAlbumList, search2, getStarred, an artist's directory).
    static func albumDirectory(_ album: SubsonicStore.AlbumRecord) -> SubsonicElement {
        var element = SubsonicElement()
        element.add("id", id(.album, album.id))
        element.add("parent", album.artistID.map { id(.artist, $0) })
        element.add("isDir", true)
        element.add("title", album.title)
        element.add("album", album.title)
        element.add("artist", album.artistName)
        element.add("year", album.year)
        element.add("genre", album.genres.first)
        element.add("coverArt", id(.album, album.id))
        element.add("duration", (album.durationMilliseconds + 500) / 1_000)
        element.add("userRating", album.rating)
        element.add("playCount", album.plays)
        element.addDate("created", album.createdAt)
        element.addDate("starred", album.starredAt)
        element.add("mediaType", "album")
        element.addDate("played", album.lastPlayed)
        element.addSoft("musicBrainzId", album.musicBrainzID)
        element.addSoft("displayArtist", album.artistName)
        element.add("genres", many: album.genres.map { SubsonicElement([("name", .string($0))]) })
        element.add(
            "artists", many: album.artistID.map { [reference(.artist, $0, album.artistName ?? "")] } ?? [])
        return element
    }

    /// An album as `AlbumID3`; `songs` makes it `AlbumWithSongsID3`.
    static func album(_ album: SubsonicStore.AlbumRecord, songs: [SubsonicStore.SongRecord]? = nil)
        -> SubsonicElement
    {
        var element = SubsonicElement()
        element.add("id", id(.album, album.id))
        element.add("name", album.title)
        element.add("artist", album.artistName)
        element.add("artistId", album.artistID.map { id(.artist, $0) })
        element.add("coverArt", id(.album, album.id))
        element.add("songCount", album.songsCount)
        element.add("duration", (album.durationMilliseconds + 500) / 1_000)
        element.add("playCount", album.plays)
        element.addDate("created", album.createdAt)
        element.addDate("starred", album.starredAt)
        element.add("year", album.year)
        element.add("genre", album.genres.first)
        element.addDate("played", album.lastPlayed)
        element.add("userRating", album.rating)
        element.addSoft("musicBrainzId", album.musicBrainzID)
        element.addSoft("displayArtist", album.artistName)
        element.addSoft("sortName", album.sortName)
        element.add("isCompilation", album.isCompilation)
        element.add("genres", many: album.genres.map { SubsonicElement([("name", .string($0))]) })
        element.add(
            "artists", many: album.artistID.map { [reference(.artist, $0, album.artistName ?? "")] } ?? [])
        var released = SubsonicElement()
        released.add("year", album.year)
        element.add("releaseDate", one: released)
        if let songs { element.add("song", many: songs.map(song)) }
        return element
    }

    /// An artist as `ArtistID3`; `albums` makes it `ArtistWithAlbumsID3`.
    static func artist(_ artist: SubsonicStore.ArtistRecord, albums: [SubsonicStore.AlbumRecord]? = nil)
        -> SubsonicElement
    {
        var element = SubsonicElement()
        element.add("id", id(.artist, artist.id))
        element.add("name", artist.name)
        // An artist's picture is the cover of one of their albums (or of one they appear on).
        element.add(
            "coverArt", artist.albumsCount > 0 || artist.songsCount > 0 ? id(.artist, artist.id) : nil)
        element.add("albumCount", artist.albumsCount)
        element.addDate("starred", artist.starredAt)
        element.addSoft("musicBrainzId", nil)
        element.addSoft("sortName", artist.sortName)
        var roles: [SubsonicValue] = []
        if artist.albumsCount > 0 { roles.append(.string("albumartist")) }
        if artist.songsCount > 0 { roles.append(.string("artist")) }
        element.add("roles", .values(roles))
        if let albums { element.add("album", many: albums.map { album($0) }) }
        return element
    }

    /// An artist as the non-ID3 `Artist` (getIndexes, search2, getStarred, similar artists).
    static func artistFolder(_ artist: SubsonicStore.ArtistRecord) -> SubsonicElement {
        var element = SubsonicElement()
        element.add("id", id(.artist, artist.id))
        element.add("name", artist.name)
        element.addDate("starred", artist.starredAt)
        element.add("userRating", artist.rating)
        return element
    }

    /// A sheet as `Playlist`; `entries` makes it `PlaylistWithSongs`.
    static func playlist(
        _ playlist: SubsonicStore.PlaylistRecord, viewerID: Int64, entries: [SubsonicStore.SongRecord]? = nil
    ) -> SubsonicElement {
        var element = SubsonicElement()
        element.add("id", id(.playlist, playlist.id))
        element.add("name", playlist.title)
        element.add("comment", playlist.detail)
        element.add("owner", playlist.owner)
        element.add("public", !playlist.isPrivate)
        element.add("songCount", playlist.songsCount)
        element.add("duration", (playlist.durationMilliseconds + 500) / 1_000)
        element.addDate("created", playlist.createdAt)
        element.addDate("changed", playlist.updatedAt)
        element.add("coverArt", playlist.hasCover ? id(.playlist, playlist.id) : nil)
        element.add("readonly", playlist.ownerID != viewerID)
        if let entries { element.add("entry", many: entries.map(song)) }
        return element
    }

    static func reference(_ kind: SubsonicIDKind, _ value: Int64, _ name: String) -> SubsonicElement {
        SubsonicElement([("id", .string(id(kind, value))), ("name", .string(name))])
    }

    /// The file's extension (the scanner's format).
    static func suffix(_ path: String, format: String) -> String {
        let ext = pathExtension(path).lowercased()
        return ext.isEmpty ? format : ext
    }

    /// What `NSString.pathExtension` answers (the text after the last dot of the last component, none for
    /// ".hidden"), without bridging to NSString, which costs microseconds for each song of a list. Bytes, not
    /// characters: "/" and "." are ASCII, which no byte of a longer UTF-8 sequence is.
    static func pathExtension(_ path: String) -> String {
        let utf8 = path.utf8
        var end = utf8.endIndex
        while end > utf8.startIndex, utf8[utf8.index(before: end)] == UInt8(ascii: "/") {
            end = utf8.index(before: end)
        }
        let component = utf8[..<end]
        let start =
            component.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        guard let dot = component[start...].lastIndex(of: UInt8(ascii: ".")), dot != start else { return "" }
        return String(Substring(utf8[utf8.index(after: dot)..<end]))
    }

    /// `mimeType(forPath:)` of a song file, found once for each extension (it costs a Foundation search for
    /// each song of a list otherwise).
    static func contentType(_ path: String) -> String {
        let utf8 = path.utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")),
            !utf8[dot...].contains(UInt8(ascii: "/"))
        else { return mimeType(forPath: path) }
        let ext = String(Substring(utf8[dot...]))
        if let known = contentTypes.withLock({ $0[ext] }) { return known }
        let found = mimeType(forPath: ext)
        contentTypes.withLock { types in
            if types.count < 256 { types[ext] = found }
        }
        return found
    }

    private static let contentTypes = Mutex<[String: String]>([:])

    /// The path inside its music folder (never where the folder is on the server).
    static func relativePath(_ song: SubsonicStore.SongRecord) -> String {
        if let folder = song.folderPath {
            let prefix = folder.utf8.last == UInt8(ascii: "/") ? folder : folder + "/"
            if song.path.utf8.starts(with: prefix.utf8) {
                return String(Substring(song.path.utf8.dropFirst(prefix.utf8.count)))
            }
        }
        return (song.path as NSString).lastPathComponent
    }
}
