import AudioMetadata
import Cryptography
import Foundation

/// A song as a scan read it from disk, with the fallbacks for missing tags already applied.
struct ScannedSong: Sendable {
    var file: FoundFile
    var fingerprint: String
    var title: String
    var artists: [String]
    var album: String
    var albumArtist: String?
    var isCompilation: Bool
    var trackNumber: Int?
    var trackTotal: Int?
    var discNumber: Int?
    var discTotal: Int?
    var year: Int?
    var genres: [String]
    var durationMilliseconds: Int
    var bitRate: Int
    var sampleRate: Int
    var channels: Int
    var format: String
    var embeddedLyric: String?
    var musicBrainzTrackID: String?
    var musicBrainzAlbumID: String?
    var musicBrainzArtistID: String?

    static let unknownArtist = "Unknown Artist"

    /// Reads tags and properties; missing tags fall back to the file and folder names
    /// (`Artist/Album/01 Title.mp3`).
    static func read(_ file: FoundFile, root: String) throws -> ScannedSong {
        let info = try AudioFileReader.read(path: file.path)
        let tags = info.tags
        let url = URL(fileURLWithPath: file.path)
        let albumFolder = url.deletingLastPathComponent()
        let insideRoot = albumFolder.path.count > root.count
        let folderAlbum = insideRoot ? albumFolder.lastPathComponent : nil
        let artistFolder = albumFolder.deletingLastPathComponent()
        let folderArtist = artistFolder.path.count > root.count ? artistFolder.lastPathComponent : nil
        let named = namesFromFileName(url.deletingPathExtension().lastPathComponent)
        let artists =
            tags.artists.isEmpty
            ? (tags.albumArtists.isEmpty
                ? [named.artist ?? folderArtist ?? unknownArtist] : tags.albumArtists) : tags.artists
        return ScannedSong(
            file: file,
            fingerprint: try fingerprint(path: file.path, size: file.size),
            title: nonEmpty(tags.title) ?? named.title,
            artists: artists,
            album: nonEmpty(tags.album) ?? folderAlbum ?? "Unknown Album",
            albumArtist: tags.albumArtists.first,
            isCompilation: tags.isCompilation,
            trackNumber: tags.trackNumber ?? trackFromFileName(url.lastPathComponent),
            trackTotal: tags.trackTotal,
            discNumber: tags.discNumber,
            discTotal: tags.discTotal,
            year: tags.year,
            genres: tags.genres,
            durationMilliseconds: info.properties.durationMilliseconds,
            bitRate: info.properties.bitRate,
            sampleRate: info.properties.sampleRate,
            channels: info.properties.channels,
            format: url.pathExtension.lowercased(),
            embeddedLyric: nonEmpty(tags.lyrics),
            musicBrainzTrackID: tags.musicBrainzTrackID,
            musicBrainzAlbumID: tags.musicBrainzAlbumID,
            musicBrainzArtistID: tags.musicBrainzArtistID)
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            return nil
        }
        return text
    }

    /// "01 - Title", "01. Title", "1 Title" -> "Title"; a name that is only digits stays as it is.
    static func titleFromFileName(_ name: String) -> String {
        let trimmed = name.drop(while: \.isNumber).drop { $0 == " " || $0 == "-" || $0 == "." || $0 == "_" }
        return trimmed.isEmpty ? name : String(trimmed)
    }

    /// "Artist - Title" (after any track number) names both; otherwise only the title.
    static func namesFromFileName(_ name: String) -> (artist: String?, title: String) {
        let title = titleFromFileName(name)
        guard let dash = title.range(of: " - ") else { return (nil, title) }
        let artist = nonEmpty(String(title[..<dash.lowerBound]))
        let rest = nonEmpty(String(title[dash.upperBound...]))
        guard let artist, let rest else { return (nil, title) }
        return (artist, rest)
    }

    static func trackFromFileName(_ name: String) -> Int? {
        let digits = name.prefix(while: \.isNumber)
        guard !digits.isEmpty, digits.count <= 3, digits.count < name.count else { return nil }
        return Int(digits)
    }

    /// A content fingerprint that survives a move or rename: size plus the first and last 64 KiB.
    static func fingerprint(path: String, size: Int64) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ScanFailure(reason: "cannot open the file to read it")
        }
        defer { try? handle.close() }
        let hasher = Crypto.Hasher()
        hasher.update(size)
        let chunk = 64 << 10
        hasher.update(try handle.read(upToCount: chunk) ?? Data())
        if size > Int64(chunk) {
            try handle.seek(toOffset: UInt64(max(Int64(chunk), size - Int64(chunk))))
            hasher.update(try handle.read(upToCount: chunk) ?? Data())
        }
        return hasher.finalizeHex()
    }
}

/// Why one file could not join the library; listed in the scan report.
struct ScanFailure: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
