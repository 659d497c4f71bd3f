import Foundation
import Testing

@testable import AudioMetadata

/// Tags written by ffmpeg's own muxers (`-metadata key=value`), not by TagLib.
@Suite("Tags written by ffmpeg")
struct FFmpegTagTests {
    static let formats: [Format] = [.mp3, .flac, .vorbis, .opus, .aac, .alac, .wma, .wavpack]

    @Test(arguments: formats)
    func commonTags(format: Format) throws {
        let path = fixtures.newPath(format.fileExtension)
        let metadata = [
            "title=Café 夜曲", "artist=A; B", "album=专辑 Album", "album_artist=AC/DC", "track=3/12",
            "disc=1/2", "date=2019-05-01", "genre=Rock/Pop",
        ]
        try runFFmpeg(toneArguments(format, extra: metadata.flatMap { ["-metadata", $0] }, to: path))
        let tags = try AudioFileReader.read(path: path).tags
        #expect(tags.title == "Café 夜曲")
        #expect(tags.artists == ["A", "B"])
        #expect(tags.album == "专辑 Album")
        #expect(tags.albumArtists == ["AC/DC"])
        #expect(tags.trackNumber == 3)
        #expect(tags.trackTotal == 12)
        #expect(tags.discNumber == 1)
        #expect(tags.discTotal == 2)
        if format == .wma {
            // ffmpeg's ASF muxer stores `date` as an attribute named "date", not WM/Year, and
            // TagLib 1.13 only maps WM/ attributes, so the year of an ffmpeg-made WMA is unknown.
            #expect(tags.year == nil)
        } else {
            #expect(tags.year == 2019)
        }
        #expect(tags.genres == ["Rock", "Pop"])
    }

    /// ffmpeg's MP4 and ID3v2 muxers write `compilation` as cpil / TCMP.
    @Test(arguments: [Format.mp3, .aac])
    func compilationFlag(format: Format) throws {
        let path = fixtures.newPath(format.fileExtension)
        try runFFmpeg(toneArguments(format, extra: ["-metadata", "compilation=1"], to: path))
        #expect(try AudioFileReader.read(path: path).tags.isCompilation)
    }

    /// Vorbis comments are free-form, so ffmpeg writes any key; LYRICS and separate TRACKTOTAL
    /// are what other taggers use.
    @Test(arguments: [Format.flac, .vorbis, .opus])
    func vorbisCommentKeys(format: Format) throws {
        let path = fixtures.newPath(format.fileExtension)
        let metadata = [
            "TRACKNUMBER=5", "TRACKTOTAL=9", "DISCNUMBER=2", "DISCTOTAL=2", "LYRICS=[00:01.00]歌词",
            "COMPILATION=1",
        ]
        try runFFmpeg(toneArguments(format, extra: metadata.flatMap { ["-metadata", $0] }, to: path))
        let tags = try AudioFileReader.read(path: path).tags
        #expect(tags.trackNumber == 5)
        #expect(tags.trackTotal == 9)
        #expect(tags.discNumber == 2)
        #expect(tags.discTotal == 2)
        #expect(tags.lyrics == "[00:01.00]歌词")
        #expect(tags.isCompilation)
    }
}

@Suite("Files from other taggers")
struct OtherTaggerTests {
    /// ID3v2.3 (what many Windows taggers write): ffmpeg stores non-Latin text as UTF-16.
    @Test func id3v23() throws {
        let path = fixtures.newPath("mp3")
        let metadata = ["title=夜に駆ける", "artist=YOASOBI/幾田りら", "track=2/10", "date=2020", "TCMP=1"]
        try runFFmpeg(
            toneArguments(
                .mp3, extra: ["-id3v2_version", "3"] + metadata.flatMap { ["-metadata", $0] }, to: path))
        let tags = try AudioFileReader.read(path: path).tags
        #expect(tags.title == "夜に駆ける")
        #expect(tags.artists == ["YOASOBI", "幾田りら"])
        #expect(tags.trackNumber == 2 && tags.trackTotal == 10)
        #expect(tags.year == 2020)
    }

    /// An MP3 with only an ID3v1 tag (no ID3v2): ffmpeg 5 does not write ID3v1 without ID3v2, so
    /// the 128-byte tag is built by hand.
    @Test func id3v1Only() throws {
        let path = fixtures.newPath("mp3")
        try runFFmpeg(toneArguments(.mp3, extra: ["-id3v2_version", "0"], to: path))
        func field(_ s: String, _ size: Int) -> [UInt8] {
            Array((Array(s.utf8) + Array(repeating: 0, count: size)).prefix(size))
        }
        let tag =
            Array("TAG".utf8) + field("Old Song", 30) + field("Old Band", 30) + field("Old Album", 30)
            + field("1987", 4)
            + field("comment", 28) + [0, 4, 17]  // ID3v1.1 track 4, genre 17 (Rock)
        #expect(tag.count == 128)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(tag))
        try handle.close()
        let tags = try AudioFileReader.read(path: path).tags
        #expect(tags.title == "Old Song")
        #expect(tags.artists == ["Old Band"])
        #expect(tags.album == "Old Album")
        #expect(tags.year == 1987)
        #expect(tags.trackNumber == 4)
        #expect(tags.genres == ["Rock"])
        #expect(tags.comment == "comment")
        // The writer adds an ID3v2 tag with everything, and the ID3v1 tag follows it (its comment stays).
        try AudioTagWriter.write(fullTags, to: path)
        var expected = fullTags
        expected.comment = "comment"
        #expect(try AudioFileReader.read(path: path).tags == expected)
    }

    /// `AudioTagWriter` replaces only its own fields; a comment written by TagLib survives.
    @Test(arguments: Format.allCases)
    func otherTagsAreKept(format: Format) throws {
        let path = try fixtures.copy(format)
        try writeRaw([("COMMENT", ["keep me"]), ("TITLE", ["Old"])], to: path)
        try AudioTagWriter.write(AudioTags(title: "New"), to: path)
        #expect(try TagLibFile(path: path).values("COMMENT") == ["keep me"])
        #expect(try AudioFileReader.read(path: path).tags.title == "New")
    }

    /// The same with the comment ffmpeg writes (Vorbis comments: DESCRIPTION; MP3: TXXX:comment).
    @Test(arguments: [Format.mp3, .flac, .vorbis, .opus, .aac, .wavpack])
    func ffmpegCommentIsKept(format: Format) throws {
        let path = fixtures.newPath(format.fileExtension)
        try runFFmpeg(
            toneArguments(
                format, extra: ["-metadata", "comment=keep me", "-metadata", "title=Old"], to: path))
        let key = [.flac, .vorbis, .opus].contains(format) ? "DESCRIPTION" : "COMMENT"
        #expect(try TagLibFile(path: path).values(key) == ["keep me"])
        try AudioTagWriter.write(AudioTags(title: "New"), to: path)
        let after = try TagLibFile(path: path).values(key)
        if format == .mp3 {
            // TagLib 1.13 reads ffmpeg's TXXX:comment as COMMENT and, on saving the unchanged
            // map, adds a COMM frame next to it, so the comment is kept but listed twice.
            #expect(Set(after) == ["keep me"])
        } else {
            #expect(after == ["keep me"])
        }
        #expect(try AudioFileReader.read(path: path).tags.title == "New")
    }

    /// Other names for the same formats: Opus or Vorbis in .oga, ALAC in .alac.
    @Test(arguments: [(Format.opus, "oga"), (.vorbis, "oga"), (.alac, "alac"), (.aac, "mp4")])
    func otherExtensions(format: Format, ext: String) throws {
        let path = fixtures.newPath(ext)
        try FileManager.default.copyItem(atPath: try fixtures.copy(format), toPath: path)
        try AudioTagWriter.write(fullTags, to: path)
        let info = try AudioFileReader.read(path: path)
        #expect(info.tags == fullTags)
        #expect(info.properties.sampleRate == format.sampleRate)
    }
}
