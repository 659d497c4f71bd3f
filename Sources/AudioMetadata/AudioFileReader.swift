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
    static func open(_ path: String, extensions: Set<String> = supportedExtensions) throws(AudioMetadataError)
        -> TagLibFile
    {
        let ext = fileExtension(of: path)
        guard extensions.contains(ext) else {
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
            let ext = fileExtension(of: file.path)
            throw AudioMetadataError(
                path: file.path,
                reason: "no audio found in the file (it is damaged, or not really a “.\(ext)” file)")
        }
        // TagLib 1.13 takes any data without a Musepack signature for a headerless SV4-SV6 stream.
        if fileExtension(of: file.path) == "mpc", !hasMusepackSignature(file.path) {
            throw AudioMetadataError(
                path: file.path, reason: "not an audio file TagLib can read (no Musepack signature)")
        }
        return properties
    }

    /// The extension of the path's last component, lower case, without the dot ("" when there is none), as
    /// `NSString.pathExtension` finds it, without bridging the path to an NSString three times a file.
    public static func fileExtension(of path: String) -> String {
        // On the UTF-8 bytes: "/" and "." are ASCII, and never part of another character's encoding.
        let bytes = path.utf8
        var end = bytes.endIndex
        while bytes.distance(from: bytes.startIndex, to: end) > 1,
            bytes[bytes.index(before: end)] == UInt8(ascii: "/")
        {
            end = bytes.index(before: end)
        }
        let name = bytes[..<end]
        let start = name.lastIndex(of: UInt8(ascii: "/")).map { name.index(after: $0) } ?? name.startIndex
        guard let dot = name[start...].lastIndex(of: UInt8(ascii: ".")), dot != start else { return "" }
        let ext = Substring(name[name.index(after: dot)...])
        return ext.utf8.allSatisfy({ $0 < 0x80 && !(65...90).contains($0) }) ? String(ext) : ext.lowercased()
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
        let albumArtists = values("ALBUMARTIST")
        let albumArtistList = albumArtists.isEmpty ? values("ALBUM_ARTIST") : albumArtists
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
        // The first in sorted order, without sorting every key of every file.
        let lyricsKey = map.keys.filter { $0 == "LYRICS" || $0.hasPrefix("LYRICS:") }.min()
        tags.lyrics = lyricsKey.flatMap {
            map[$0]?.lazy.compactMap { clean($0, limit: maximumLyricsBytes) }.first
        }
        tags.musicBrainzTrackID = first("MUSICBRAINZ_TRACKID")
        tags.musicBrainzAlbumID = first("MUSICBRAINZ_ALBUMID")
        tags.musicBrainzArtistID = first("MUSICBRAINZ_ARTISTID")
        tags.replayGain = ReplayGain(
            trackGain: decibels(first("REPLAYGAIN_TRACK_GAIN")),
            trackPeak: decibels(first("REPLAYGAIN_TRACK_PEAK")),
            albumGain: decibels(first("REPLAYGAIN_ALBUM_GAIN")),
            albumPeak: decibels(first("REPLAYGAIN_ALBUM_PEAK")))
        tags.bpm = decibels(first("BPM")).flatMap { $0 > 0 && $0 < 1_000 ? Int($0.rounded()) : nil }
        tags.titleSort = first("TITLESORT")
        tags.artistSort = first("ARTISTSORT")
        tags.albumSort = first("ALBUMSORT")
        tags.albumArtistSort = first("ALBUMARTISTSORT")
        // Vorbis comments (FLAC, Ogg) call it DESCRIPTION, as ffmpeg writes it.
        tags.comment = first("COMMENT", "DESCRIPTION")
        return tags
    }

    /// A number as tags write gains, peaks and tempos: "-6.54 dB", "0.988547", "120" (a comma decimal too).
    static func decibels(_ text: String?) -> Double? {
        guard var text = text?.trimmingCharacters(in: .whitespaces) else { return nil }
        if text.lowercased().hasSuffix("db") {
            text = String(text.dropLast(2)).trimmingCharacters(in: .whitespaces)
        }
        guard let value = Double(text.replacingOccurrences(of: ",", with: ".")), value.isFinite,
            abs(value) < 1_000_000
        else { return nil }
        return value
    }

    /// Trims, drops NULs and empty values, and caps the UTF-8 length on a character boundary.
    static func clean(_ raw: String, limit: Int) -> String? {
        var s = raw.utf8.contains(0) ? raw.replacingOccurrences(of: "\0", with: "") : raw
        s = trimmed(s)
        guard !s.isEmpty else { return nil }
        guard s.utf8.count > limit else { return s }
        // A cut can end on a space, and a single character longer than the limit (a letter with
        // hundreds of combining marks) leaves nothing.
        s = truncated(s, maxUTF8Bytes: limit).trimmingCharacters(in: .whitespacesAndNewlines)
        return s.isEmpty ? nil : s
    }

    /// `s` without white space or newlines at either end, as `trimmingCharacters(in: .whitespacesAndNewlines)`
    /// gives it, which is only called when an end is white (most tag values are not, and the call bridges
    /// every value to an NSString).
    public static func trimmed(_ s: String) -> String {
        // Foundation's set is Unicode's White_Space (Z*, U+0009-U+000D, U+0085) and U+200B, zero width space.
        func white(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isWhitespace || scalar == "\u{200B}"
        }
        guard let first = s.unicodeScalars.first, let last = s.unicodeScalars.last,
            white(first) || white(last)
        else { return s }
        return s.trimmingCharacters(in: .whitespacesAndNewlines)
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
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII (nearly every tag): the same rule on bytes, without Foundation's trimming.
            var number = 0
            var digits = 0
            for byte in s.utf8.drop(while: { $0 == 0x20 || $0 == 0x09 }) {
                guard (48...57).contains(byte) else { break }
                digits += 1
                guard digits <= 9 else { return nil }
                number = number * 10 + Int(byte - 48)
            }
            return digits > 0 && number > 0 ? number : nil
        }
        return positiveIntInFull(s)
    }

    /// `positiveInt` on characters, for any text.
    static func positiveIntInFull(_ s: String) -> Int? {
        let digits = s.trimmingCharacters(in: .whitespaces).prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9, let n = Int(digits), n > 0 else { return nil }
        return n
    }

    /// The first four-digit run in a date ("2019-05-01" -> 2019, "05/01/2019" -> 2019).
    static func year(_ s: String?) -> Int? {
        guard let s else { return nil }
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: the first run of exactly four digits, on bytes.
            var run = 0
            var value = 0
            for byte in s.utf8 + [0x20] {
                if (48...57).contains(byte) {
                    run += 1
                    value = value * 10 + Int(byte - 48)
                } else {
                    if run == 4, value > 0 { return value }
                    run = 0
                    value = 0
                }
            }
            return nil
        }
        return yearInFull(s)
    }

    /// `year` on characters, for any text.
    static func yearInFull(_ s: String) -> Int? {
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
