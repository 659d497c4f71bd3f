import Foundation

/// Reads tags and stream properties from audio files.
public enum AudioFileReader {
    /// File name extensions (lower case, no dot) that `read` accepts.
    public static let supportedExtensions: Set<String> = [
        "mp3", "flac", "ogg", "oga", "opus", "m4a", "mp4", "aac", "alac", "wav", "aiff", "aif",
        "wma", "ape", "wv", "mpc", "spx", "tta",
    ]

    /// Largest stored lyrics, in UTF-8 bytes; longer lyrics are cut on a character boundary.
    public static let maximumLyricsBytes = 64 * 1024
    /// Largest stored value of any other tag, in UTF-8 bytes.
    public static let maximumTagBytes = 1024

    /// Reads one file; throws `AudioMetadataError` for anything that is not a readable audio file.
    public static func read(path: String) throws(AudioMetadataError) -> AudioFileInfo {
        let file = try open(path)
        let properties = try audioStream(of: file)
        return AudioFileInfo(tags: tags(from: file.allProperties), properties: properties)
    }

    /// Opens `path` with TagLib after checking, without TagLib, that it is a non-empty, readable
    /// regular file of a supported type: TagLib would block forever reading a FIFO.
    static func open(_ path: String) throws(AudioMetadataError) -> TagLibFile {
        let ext = (path as NSString).pathExtension.lowercased()
        guard supportedExtensions.contains(ext) else {
            throw AudioMetadataError(
                path: path,
                reason: ext.isEmpty
                    ? "file has no extension, so its audio format is unknown"
                    : "“.\(ext)” is not a supported audio file type")
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw AudioMetadataError(
                path: path, reason: "file cannot be opened: \(String(cString: strerror(errno)))")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw AudioMetadataError(path: path, reason: "not a regular file")
        }
        guard status.st_size > 0 else {
            throw AudioMetadataError(path: path, reason: "file is empty")
        }
        guard access(path, R_OK) == 0 else {
            throw AudioMetadataError(path: path, reason: "file is not readable (permission denied)")
        }
        return try TagLibFile(path: path)
    }

    /// The stream properties of an opened file; throws if TagLib found no audio in it.
    static func audioStream(of file: TagLibFile) throws(AudioMetadataError) -> AudioProperties {
        guard let properties = file.audioProperties,
            properties.sampleRate > 0 || properties.durationMilliseconds > 0
        else {
            let ext = (file.path as NSString).pathExtension.lowercased()
            throw AudioMetadataError(
                path: file.path,
                reason: "no audio found in the file (it is damaged, or not really a “.\(ext)” file)")
        }
        // TagLib 1.13 takes any data without a Musepack signature for a headerless SV4-SV6 stream.
        if (file.path as NSString).pathExtension.lowercased() == "mpc", !hasMusepackSignature(file.path) {
            throw AudioMetadataError(
                path: file.path, reason: "not an audio file TagLib can read (no Musepack signature)")
        }
        return properties
    }

    /// True if the file starts, after any ID3v2 tag, with "MP+" (SV7) or "MPCK" (SV8).
    static func hasMusepackSignature(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard var head = try? handle.read(upToCount: 10), head.count >= 4 else { return false }
        if head.starts(with: Array("ID3".utf8)), head.count == 10 {
            // ID3v2 size: four 7-bit bytes, plus the 10-byte header and a 10-byte footer if flagged.
            let footer = head[5] & 0x10 != 0 ? 10 : 0
            let size = head[6...9].reduce(0) { $0 << 7 | Int($1 & 0x7F) } + 10 + footer
            guard (try? handle.seek(toOffset: UInt64(size))) != nil,
                let next = try? handle.read(upToCount: 4)
            else { return false }
            head = next
        }
        return head.starts(with: Array("MP+".utf8)) || head.starts(with: Array("MPCK".utf8))
    }

    /// Builds normalised tags from a TagLib property map (keys upper case, several values each).
    static func tags(from map: [String: [String]]) -> AudioTags {
        func values(_ key: String) -> [String] {
            (map[key] ?? []).compactMap { clean($0, limit: maximumTagBytes) }
        }
        func first(_ keys: String...) -> String? {
            for key in keys { if let v = values(key).first { return v } }
            return nil
        }
        var tags = AudioTags()
        tags.title = first("TITLE")
        let artistList = values("ARTISTS")
        tags.artists = dedupe(
            (artistList.isEmpty ? values("ARTIST") : artistList).flatMap(TagSplitter.splitArtists))
        tags.album = first("ALBUM")
        // ffmpeg writes APE tags (WavPack, APE, Musepack) with the key "album_artist".
        let albumArtistList = values("ALBUMARTIST").isEmpty ? values("ALBUM_ARTIST") : values("ALBUMARTIST")
        tags.albumArtists = dedupe(albumArtistList.flatMap(TagSplitter.splitArtists))
        (tags.trackNumber, tags.trackTotal) = numberPair(first("TRACKNUMBER"))
        if tags.trackTotal == nil { tags.trackTotal = positiveInt(first("TRACKTOTAL", "TOTALTRACKS")) }
        (tags.discNumber, tags.discTotal) = numberPair(first("DISCNUMBER"))
        if tags.discTotal == nil { tags.discTotal = positiveInt(first("DISCTOTAL", "TOTALDISCS")) }
        tags.year = year(first("DATE", "YEAR", "ORIGINALDATE", "ORIGINALYEAR"))
        tags.genres = dedupe(values("GENRE").flatMap(TagSplitter.splitGenres))
        if let c = first("COMPILATION") {
            tags.isCompilation = ["1", "true", "yes"].contains(c.lowercased())
        }
        let lyricsKey = map.keys.sorted().first { $0 == "LYRICS" || $0.hasPrefix("LYRICS:") }
        tags.lyrics = lyricsKey.flatMap {
            map[$0]?.lazy.compactMap { clean($0, limit: maximumLyricsBytes) }.first
        }
        tags.musicBrainzTrackID = first("MUSICBRAINZ_TRACKID")
        tags.musicBrainzAlbumID = first("MUSICBRAINZ_ALBUMID")
        tags.musicBrainzArtistID = first("MUSICBRAINZ_ARTISTID")
        return tags
    }

    /// Trims, drops NULs and empty values, and caps the UTF-8 length on a character boundary.
    static func clean(_ raw: String, limit: Int) -> String? {
        var s = raw.contains("\0") ? raw.replacingOccurrences(of: "\0", with: "") : raw
        s = s.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !s.isEmpty else { return nil }
        guard s.utf8.count > limit else { return s }
        // A cut can end on a space, and a single character longer than the limit (a letter with
        // hundreds of combining marks) leaves nothing.
        s = truncated(s, maxUTF8Bytes: limit).trimmingCharacters(in: .whitespacesAndNewlines)
        return s.isEmpty ? nil : s
    }

    /// `s` cut to at most `maxUTF8Bytes` bytes of UTF-8 without splitting a character.
    static func truncated(_ s: String, maxUTF8Bytes: Int) -> String {
        guard s.utf8.count > maxUTF8Bytes else { return s }
        var used = 0
        var end = s.startIndex
        for index in s.indices {
            let next = s.index(after: index)
            let size = s.utf8.distance(from: index, to: next)
            if used + size > maxUTF8Bytes { break }
            used += size
            end = next
        }
        return String(s[..<end])
    }

    /// "3/12" -> (3, 12); "03" -> (3, nil); zero or garbage -> nil.
    static func numberPair(_ s: String?) -> (Int?, Int?) {
        guard let s else { return (nil, nil) }
        let parts = s.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let number = positiveInt(parts.first.map(String.init))
        let total = parts.count > 1 ? positiveInt(String(parts[1])) : nil
        return (number, total)
    }

    /// The leading decimal number of `s` if it is positive ("07" -> 7, "3 of 5" -> 3).
    static func positiveInt(_ s: String?) -> Int? {
        guard let s else { return nil }
        let digits = s.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9, let n = Int(digits), n > 0 else { return nil }
        return n
    }

    /// The first four-digit run in a date ("2019-05-01" -> 2019, "05/01/2019" -> 2019).
    static func year(_ s: String?) -> Int? {
        guard let s else { return nil }
        var run = ""
        for c in s + " " {
            if c.isASCII && c.isNumber {
                run.append(c)
            } else {
                if run.count == 4, let y = Int(run), y > 0 { return y }
                run = ""
            }
        }
        return nil
    }

    static func dedupe(_ list: [String]) -> [String] {
        var seen: Set<String> = []
        return list.filter { seen.insert($0.lowercased()).inserted }
    }
}
