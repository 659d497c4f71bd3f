import Foundation
import Testing

@testable import AudioMetadata

/// Formats whose tags differ most: ID3v2, Vorbis comments, MP4 atoms, ASF attributes, APE items.
let tagFamilies: [Format] = [.mp3, .flac, .aac, .wma, .wavpack]

@Suite("Edge cases on real files")
struct EdgeCaseTests {
    /// One ARTIST value naming several people is split; band names stay whole.
    static let artistCases: [(String, [String])] = [
        ("A; B", ["A", "B"]),
        ("A;B;C", ["A", "B", "C"]),
        ("A / B", ["A", "B"]),
        ("A feat. B", ["A", "B"]),
        ("A Feat. B", ["A", "B"]),
        ("周杰伦、方文山", ["周杰伦", "方文山"]),
        ("Song Artist (feat. X)", ["Song Artist", "X"]),
        ("AC/DC", ["AC/DC"]),
        ("Simon & Garfunkel", ["Simon & Garfunkel"]),
        ("AC/DC; Simon & Garfunkel", ["AC/DC", "Simon & Garfunkel"]),
    ]

    @Test(arguments: tagFamilies)
    func severalArtistsInOneTag(format: Format) throws {
        let path = try fixtures.copy(format)
        for (raw, expected) in Self.artistCases {
            try writeRaw([("ARTIST", [raw]), ("ALBUMARTIST", [raw])], to: path)
            let tags = try AudioFileReader.read(path: path).tags
            #expect(tags.artists == expected, "ARTIST \(raw.debugDescription)")
            #expect(tags.albumArtists == expected, "ALBUMARTIST \(raw.debugDescription)")
        }
    }

    /// Several ARTIST values (Vorbis comments, APE items and ID3v2.4 frames keep lists).
    @Test(arguments: [Format.flac, .vorbis, .wavpack, .mp3])
    func severalArtistValues(format: Format) throws {
        let path = try fixtures.copy(format)
        try writeRaw([("ARTIST", ["A", "B; C", "a"])], to: path)
        #expect(try AudioFileReader.read(path: path).tags.artists == ["A", "B", "C"])
    }

    /// ARTISTS (MusicBrainz's list tag) wins over the display string in ARTIST.
    @Test(arguments: [Format.flac, .mp3])
    func artistsTagWins(format: Format) throws {
        let path = try fixtures.copy(format)
        try writeRaw([("ARTIST", ["A feat. B"]), ("ARTISTS", ["A", "B"])], to: path)
        #expect(try AudioFileReader.read(path: path).tags.artists == ["A", "B"])
    }

    /// Chinese, Japanese (precomposed and combining kana), Korean (syllables and conjoining jamo)
    /// and astral-plane text come back byte for byte: nothing normalises Unicode on the way.
    @Test(arguments: Format.allCases)
    func cjkByteExact(format: Format) throws {
        let title = "夜曲 ガ\u{30AB}\u{3099} 한\u{1112}\u{1161}\u{11AB} 𠮷野家 🎵"
        let artist = "周杰伦"
        let album = "アルバム 앨범 专辑"
        let path = try fixtures.copy(format)
        try AudioTagWriter.write(
            AudioTags(title: title, artists: [artist, "宇多田ヒカル", "아이유"], album: album, genres: ["华语流行"]),
            to: path)
        let tags = try AudioFileReader.read(path: path).tags
        #expect(Array(tags.title?.utf8 ?? "".utf8) == Array(title.utf8))
        #expect(tags.artists.map { Array($0.utf8) } == [artist, "宇多田ヒカル", "아이유"].map { Array($0.utf8) })
        #expect(Array(tags.album?.utf8 ?? "".utf8) == Array(album.utf8))
        #expect(tags.genres == ["华语流行"])
    }

    /// The longest prefix of whole characters within `limit` UTF-8 bytes, computed independently.
    static func prefix(_ s: String, bytes limit: Int) -> String {
        var out = ""
        for c in s {
            if out.utf8.count + String(c).utf8.count > limit { break }
            out.append(c)
        }
        return out
    }

    @Test(arguments: tagFamilies)
    func longValuesAreCutOnCharacterBoundaries(format: Format) throws {
        let path = try fixtures.copy(format)
        let cjk = "a" + String(repeating: "界", count: 400)  // 1201 bytes
        let emoji = String(repeating: "👨‍👩‍👧‍👦", count: 41)  // 25 bytes per character
        let album = String(repeating: "é", count: 600)  // 1200 bytes
        try AudioTagWriter.write(AudioTags(title: cjk, artists: [emoji], album: album), to: path)
        let tags = try AudioFileReader.read(path: path).tags
        #expect(tags.title?.utf8.count == 1024)
        #expect(tags.title == "a" + String(repeating: "界", count: 341))
        #expect(tags.artists == [String(repeating: "👨‍👩‍👧‍👦", count: 40)])
        #expect(tags.album == String(repeating: "é", count: 512))
        #expect(tags.album == Self.prefix(album, bytes: AudioFileReader.maximumTagBytes))
    }

    /// A cut that lands just after a space or newline does not leave it at the end.
    @Test(arguments: [Format.mp3, .flac])
    func cutDoesNotEndInWhitespace(format: Format) throws {
        let path = try fixtures.copy(format)
        let title = String(repeating: "a", count: 1023) + " b"
        let lyrics = String(repeating: "x", count: AudioFileReader.maximumLyricsBytes - 1) + "\nmore"
        try AudioTagWriter.write(AudioTags(title: title, lyrics: lyrics), to: path)
        let tags = try AudioFileReader.read(path: path).tags
        #expect(tags.title == String(repeating: "a", count: 1023))
        #expect(tags.lyrics == String(repeating: "x", count: AudioFileReader.maximumLyricsBytes - 1))
    }

    /// One character (a letter with 600 combining marks, 1201 bytes) longer than the limit.
    @Test func characterLongerThanTheLimit() {
        let zalgo = "e" + String(repeating: "\u{301}", count: 600)
        #expect(zalgo.count == 1)
        #expect(AudioFileReader.clean(zalgo, limit: AudioFileReader.maximumTagBytes) == nil)
        #expect(AudioFileReader.clean("ok " + zalgo, limit: AudioFileReader.maximumTagBytes) == "ok")
        #expect(AudioFileReader.tags(from: ["TITLE": [zalgo], "ARTIST": [zalgo]]) == AudioTags())
    }

    @Test(arguments: [Format.mp3, .flac, .aac, .vorbis])
    func longLyricsAreCut(format: Format) throws {
        let path = try fixtures.copy(format)
        var lyrics = ""
        var i = 0
        while lyrics.utf8.count < 70_000 {
            lyrics += "[\(String(format: "%02d:%02d.00", i / 60, i % 60))]第\(i)行 line 歌词\n"
            i += 1
        }
        lyrics += "最后"
        let short = "[00:01.00]短い歌詞\n[00:02.00]짧은 가사"
        try AudioTagWriter.write(AudioTags(title: "L", lyrics: short), to: path)
        #expect(try AudioFileReader.read(path: path).tags.lyrics == short)
        try AudioTagWriter.write(AudioTags(title: "L", lyrics: lyrics), to: path)
        let read = try #require(try AudioFileReader.read(path: path).tags.lyrics)
        #expect(read.utf8.count <= AudioFileReader.maximumLyricsBytes)
        #expect(read.utf8.count > AudioFileReader.maximumLyricsBytes - 4)
        #expect(read == Self.prefix(lyrics, bytes: AudioFileReader.maximumLyricsBytes))
    }

    @Test(arguments: tagFamilies)
    func whitespaceIsTrimmedAndBlankValuesAreAbsent(format: Format) throws {
        let path = try fixtures.copy(format)
        try AudioTagWriter.write(
            AudioTags(
                title: "  Padded Title \t\n", artists: ["   ", " Real "], album: " \n ",
                genres: [" ", "Jazz "]),
            to: path)
        let tags = try AudioFileReader.read(path: path).tags
        #expect(tags.title == "Padded Title")
        #expect(tags.artists == ["Real"])
        #expect(tags.album == nil)
        #expect(tags.genres == ["Jazz"])
    }

    /// A NUL inside a value must not silently cut the rest of it off when writing: the reader drops
    /// NULs, so the writer stores what the reader would return.
    @Test(arguments: tagFamilies)
    func nulInsideValue(format: Format) throws {
        let path = try fixtures.copy(format)
        try AudioTagWriter.write(
            AudioTags(title: "Foo\0Bar", album: "\0", lyrics: "line one\0\nline two"), to: path)
        let tags = try AudioFileReader.read(path: path).tags
        #expect(tags.title == "FooBar")
        #expect(tags.album == nil)
        #expect(tags.lyrics == "line one\nline two")
    }

    static let numberCases: [(String, Int?, Int?)] = [
        ("3/12", 3, 12), ("03/12", 3, 12), ("3", 3, nil), (" 7 / 9", 7, 9), ("3 of 12", 3, nil),
        ("0/12", nil, 12), ("abc", nil, nil),
    ]

    /// TagLib 1.13 drops an ID3v2 TRCK/TPOS whose number is 0 ("0/12") when it writes the frame,
    /// so an MP3 cannot keep the total alone.
    static func numberCases(for format: Format) -> [(String, Int?, Int?)] {
        format == .mp3 ? numberCases.filter { $0.0 != "0/12" } : numberCases
    }

    @Test(arguments: [Format.flac, .mp3, .wavpack])
    func trackAndDiscNumberStrings(format: Format) throws {
        let path = try fixtures.copy(format)
        for (raw, number, total) in Self.numberCases(for: format) {
            try writeRaw([("TRACKNUMBER", [raw]), ("DISCNUMBER", [raw])], to: path)
            let tags = try AudioFileReader.read(path: path).tags
            #expect(
                tags.trackNumber == number && tags.trackTotal == total,
                "TRACKNUMBER \(raw.debugDescription): \(tags)")
            #expect(
                tags.discNumber == number && tags.discTotal == total,
                "DISCNUMBER \(raw.debugDescription): \(tags)")
        }
    }

    /// MP4 stores track and disc as two integers.
    @Test func mp4NumberPairs() throws {
        let path = try fixtures.copy(.aac)
        try writeRaw([("TRACKNUMBER", ["3/12"]), ("DISCNUMBER", ["1/2"])], to: path)
        let tags = try AudioFileReader.read(path: path).tags
        #expect(tags.trackNumber == 3 && tags.trackTotal == 12 && tags.discNumber == 1 && tags.discTotal == 2)
    }

    /// Vorbis comments often keep the totals in their own fields.
    @Test func separateTotals() throws {
        let path = try fixtures.copy(.flac)
        try writeRaw(
            [("TRACKNUMBER", ["4"]), ("TRACKTOTAL", ["10"]), ("DISCNUMBER", ["1"]), ("TOTALDISCS", ["3"])],
            to: path)
        let tags = try AudioFileReader.read(path: path).tags
        #expect(tags.trackNumber == 4 && tags.trackTotal == 10 && tags.discNumber == 1 && tags.discTotal == 3)
    }

    static let dateCases: [(String, Int?)] = [
        ("2019-05-01", 2019), ("2019", 2019), ("2019-05-01T12:00:00Z", 2019), ("05/01/2019", 2019),
        ("May 2019", 2019), ("19", nil), ("0000", nil),
    ]

    /// ID3v2.4's TDRC holds an ISO 8601 time stamp; TagLib 1.13 drops a value it cannot parse as
    /// one ("May 2019") when it writes the frame, so an MP3 cannot keep such a date at all.
    static func dateCases(for format: Format) -> [(String, Int?)] {
        format == .mp3 ? dateCases.filter { $0.0 != "May 2019" } : dateCases
    }

    @Test(arguments: [Format.flac, .mp3, .aac, .wavpack])
    func yearsFromDates(format: Format) throws {
        let path = try fixtures.copy(format)
        for (raw, year) in Self.dateCases(for: format) {
            try writeRaw([("DATE", [raw])], to: path)
            let tags = try AudioFileReader.read(path: path).tags
            #expect(tags.year == year, "DATE \(raw.debugDescription)")
        }
    }

    /// Pure normalisation of a property map, for what no tagger can put in a file through TagLib.
    @Test func propertyMapNormalisation() {
        let tags = AudioFileReader.tags(from: [
            "TITLE": ["\0\0", "Second Title"],
            "ALBUM": ["Album\0\0"],
            "ARTIST": ["  ", "A"],
            "COMPILATION": ["TRUE"],
            "LYRICS:ENG": ["words"],
            "ORIGINALDATE": ["1987-01-01"],
            "TRACKNUMBER": ["2"], "TOTALTRACKS": ["8"],
        ])
        #expect(tags.title == "Second Title")
        #expect(tags.album == "Album")
        #expect(tags.artists == ["A"])
        #expect(tags.isCompilation)
        #expect(tags.lyrics == "words")
        #expect(tags.year == 1987)
        #expect(tags.trackNumber == 2 && tags.trackTotal == 8)
        #expect(AudioFileReader.tags(from: ["COMPILATION": ["0"]]).isCompilation == false)
        #expect(AudioFileReader.tags(from: [:]) == AudioTags())
    }
}
