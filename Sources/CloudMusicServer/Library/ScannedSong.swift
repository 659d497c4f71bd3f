import AudioMetadata
import Cryptography
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
    var details = Details()

    /// What the tags say besides the catalog's fields, for the apps that show it (Subsonic's Child).
    struct Details: Sendable, Equatable {
        var replayGain = ReplayGain()
        var bpm: Int?
        /// Bits per sample of a lossless file, else 0.
        var bitDepth = 0
        var titleSort: String?
        var artistSort: String?
        var albumSort: String?
        var albumArtistSort: String?
        var comment: String?
    }

    static let unknownArtist = "Unknown Artist"

    /// Reads tags and properties; missing tags fall back to the file and folder names
    /// (`Artist/Album/01 Title.mp3`).
    static func read(_ file: FoundFile, root: String) throws -> ScannedSong {
        let info = try AudioFileReader.read(path: file.path)
        let tags = info.tags
        // Plain string work on the walker's paths (absolute, no "." or ".." parts): URL and NSString
        // conversions were a tenth of a scan's CPU.
        let albumFolder = parent(file.path)
        let folderAlbum = albumFolder.utf8.count > root.utf8.count ? lastComponent(albumFolder) : nil
        let artistFolder = parent(albumFolder)
        let folderArtist = artistFolder.utf8.count > root.utf8.count ? lastComponent(artistFolder) : nil
        let fileName = lastComponent(file.path)
        let format = AudioFileReader.fileExtension(of: fileName)
        let stem = format.isEmpty ? fileName : String(fileName[..<fileName.lastIndex(of: ".")!])
        // Only files without a title or an artist need their names read.
        let title = nonEmpty(tags.title)
        let named =
            title == nil || (tags.artists.isEmpty && tags.albumArtists.isEmpty)
            ? namesFromFileName(stem) : nil
        let artists =
            tags.artists.isEmpty
            ? (tags.albumArtists.isEmpty
                ? [named?.artist ?? folderArtist ?? unknownArtist] : tags.albumArtists) : tags.artists
        return ScannedSong(
            file: file,
            fingerprint: try fingerprint(path: file.path, size: file.size, info: info),
            title: title ?? named!.title,
            artists: artists,
            album: nonEmpty(tags.album) ?? folderAlbum ?? "Unknown Album",
            albumArtist: tags.albumArtists.first,
            isCompilation: tags.isCompilation,
            trackNumber: tags.trackNumber ?? trackFromFileName(fileName),
            trackTotal: tags.trackTotal,
            discNumber: tags.discNumber,
            discTotal: tags.discTotal,
            year: tags.year,
            genres: tags.genres,
            durationMilliseconds: info.properties.durationMilliseconds,
            bitRate: info.properties.bitRate,
            sampleRate: info.properties.sampleRate,
            channels: info.properties.channels,
            format: format,
            embeddedLyric: nonEmpty(tags.lyrics),
            musicBrainzTrackID: tags.musicBrainzTrackID,
            musicBrainzAlbumID: tags.musicBrainzAlbumID,
            musicBrainzArtistID: tags.musicBrainzArtistID,
            details: Details(
                replayGain: tags.replayGain, bpm: tags.bpm, bitDepth: info.properties.bitDepth,
                titleSort: nonEmpty(tags.titleSort), artistSort: nonEmpty(tags.artistSort),
                albumSort: nonEmpty(tags.albumSort), albumArtistSort: nonEmpty(tags.albumArtistSort),
                comment: nonEmpty(tags.comment)))
    }

    /// The folder of an absolute path ("/" for a file at the root).
    static func parent(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of an absolute path.
    static func lastComponent(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text = text.map(AudioFileReader.trimmed), !text.isEmpty else { return nil }
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

    /// A content fingerprint that survives a move or rename: the size, the tags and stream properties just
    /// read, and 2 KiB at the start, the middle and the end of the file (all of it when smaller), through
    /// BLAKE2b. Marked "2:" to tell it from `legacyFingerprint`.
    ///
    /// The tags tell songs apart where the bytes at the ends may not (an album's tracks can start with the
    /// same cover picture and end in the same digital silence), and the middle is audio that no other
    /// recording shares. Hashing 6 KiB instead of up to 128 KiB: the hashing had been a fifth of a first
    /// scan's CPU.
    static func fingerprint(path: String, size: Int64, info: AudioFileInfo) throws -> String {
        let hasher = Crypto.Hasher()
        hasher.update(size)
        let tags = info.tags
        let fields: [String?] = [
            tags.title, tags.artists.joined(separator: "\u{1F}"), tags.album,
            tags.albumArtists.joined(separator: "\u{1F}"), tags.genres.joined(separator: "\u{1F}"),
            tags.trackNumber.map(String.init), tags.discNumber.map(String.init), tags.year.map(String.init),
            tags.musicBrainzTrackID,
        ]
        for field in fields {
            // Each field ends in a separator, so that no two lists of fields read as the same bytes.
            var text = field ?? ""
            text.withUTF8 { hasher.update(UnsafeRawBufferPointer($0)) }
            hasher.update(UInt8(0x1E))
        }
        let properties = info.properties
        for number in [
            properties.durationMilliseconds, properties.bitRate, properties.sampleRate, properties.channels,
        ] {
            hasher.update(Int64(number))
        }
        let chunk = 2 << 10
        let offsets: [Int64] =
            size <= Int64(3 * chunk)
            ? [0] : [0, size / 2 - Int64(chunk / 2), size - Int64(chunk)]
        try readChunks(path: path, at: offsets, length: size <= Int64(3 * chunk) ? Int(size) : chunk) {
            hasher.update($0)
        }
        return "2:" + hasher.finalizeHex()
    }

    /// The fingerprint scans stored before the "2:" ones: the size and the first and last 64 KiB. A song
    /// that vanished with one of these can still be found again: the scanner computes it for a new file of
    /// the same size.
    static func legacyFingerprint(path: String, size: Int64) throws -> String {
        let hasher = Crypto.Hasher()
        hasher.update(size)
        let chunk = 64 << 10
        try readChunks(path: path, at: [0], length: Int(min(size, Int64(chunk)))) { hasher.update($0) }
        if size > Int64(chunk) {
            try readChunks(path: path, at: [max(Int64(chunk), size - Int64(chunk))], length: chunk) {
                hasher.update($0)
            }
        }
        return hasher.finalizeHex()
    }

    /// Reads `length` bytes at each offset (fewer where the file ends) into one buffer, handing each to `use`.
    private static func readChunks(
        path: String, at offsets: [Int64], length: Int, _ use: (UnsafeRawBufferPointer) -> Void
    ) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ScanFailure(reason: "cannot open the file to read it") }
        defer { close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(length, 1), alignment: 16)
        defer { buffer.deallocate() }
        for offset in offsets {
            var filled = 0
            while filled < length {
                let count = pread(
                    descriptor, buffer.baseAddress! + filled, length - filled, off_t(offset) + off_t(filled))
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { throw ScanFailure(reason: "cannot read the file") }
                if count == 0 { break }
                filled += count
            }
            use(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]))
        }
    }
}

/// Why one file could not join the library; listed in the scan report.
struct ScanFailure: Error, CustomStringConvertible {
    var reason: String
    var description: String { reason }
}
