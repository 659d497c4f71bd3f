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
        let metadata = ["TRACKNUMBER=5", "TRACKTOTAL=9", "DISCNUMBER=2", "DISCTOTAL=2", "LYRICS=[00:01.00]歌词", "COMPILATION=1"]
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
