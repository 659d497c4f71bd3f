import Foundation
import Testing

@testable import AudioMetadata

/// Every field `AudioTagWriter` writes, filled with non-ASCII text so encodings are exercised.
let fullTags = AudioTags(
    title: "Round Trip — 标题 タイトル 제목", artists: ["Alice", "鲍勃", "AC/DC"], album: "Album 专辑",
    albumArtists: ["Various Artists", "Simon & Garfunkel"], trackNumber: 3, trackTotal: 12, discNumber: 2,
    discTotal: 3, year: 2019, genres: ["Rock", "华语流行"], isCompilation: true,
    lyrics: "[00:01.00]第一行\n[00:02.50]Second line\n[00:04.00]세 번째 줄",
    musicBrainzTrackID: "0b5a1ee0-6b57-4d3c-9d4e-6f0f3a2a4c11",
    musicBrainzAlbumID: "7d1c5c1c-1e1f-4f6a-8f8e-3b2a1d0c9e88",
    musicBrainzArtistID: "a74b1b7f-71a5-4011-9441-d0b5e4122711")

@Suite("Write then read, per format")
struct FormatRoundTripTests {
    @Test(arguments: Format.allCases)
    func allFieldsRoundTrip(format: Format) throws {
        let path = try fixtures.copy(format)
        try AudioTagWriter.write(fullTags, to: path)
        let info = try AudioFileReader.read(path: path)
        let tags = info.tags
        #expect(tags.title == fullTags.title)
        #expect(tags.artists == fullTags.artists)
        #expect(tags.album == fullTags.album)
        #expect(tags.albumArtists == fullTags.albumArtists)
        #expect(tags.trackNumber == 3)
        #expect(tags.trackTotal == 12)
        #expect(tags.discNumber == 2)
        #expect(tags.discTotal == 3)
        #expect(tags.year == 2019)
        #expect(tags.genres == fullTags.genres)
        #expect(tags.isCompilation)
        #expect(tags.lyrics == fullTags.lyrics)
        #expect(tags.musicBrainzTrackID == fullTags.musicBrainzTrackID)
        #expect(tags.musicBrainzAlbumID == fullTags.musicBrainzAlbumID)
        #expect(tags.musicBrainzArtistID == fullTags.musicBrainzArtistID)
        #expect(tags == fullTags)
    }

    @Test(arguments: Format.allCases)
    func properties(format: Format) throws {
        let path = try fixtures.copy(format)
        let before = try AudioFileReader.read(path: path).properties
        #expect(abs(before.durationMilliseconds - fixtureMilliseconds) <= 100, "\(before)")
        #expect(before.sampleRate == format.sampleRate)
        #expect(before.channels == format.channels)
        #expect(before.bitRate > 0)
        // Writing tags must not change what TagLib sees of the stream.
        try AudioTagWriter.write(fullTags, to: path)
        let after = try AudioFileReader.read(path: path).properties
        #expect(after.sampleRate == before.sampleRate)
        #expect(after.channels == before.channels)
        #expect(abs(after.durationMilliseconds - before.durationMilliseconds) <= 100, "\(before) -> \(after)")
    }

    @Test(arguments: Format.allCases)
    func untaggedFileHasNoTags(format: Format) throws {
        let path = try fixtures.copy(format)
        #expect(try AudioFileReader.read(path: path).tags == AudioTags())
    }

    /// Writing replaces: fields left out of the second write are gone, the new ones are there.
    @Test(arguments: Format.allCases)
    func rewriteReplacesAndRemoves(format: Format) throws {
        let path = try fixtures.copy(format)
        try AudioTagWriter.write(fullTags, to: path)
        let second = AudioTags(title: "Second", artists: ["Carol"], trackNumber: 7)
        try AudioTagWriter.write(second, to: path)
        #expect(try AudioFileReader.read(path: path).tags == second)
        try AudioTagWriter.write(AudioTags(), to: path)
        #expect(try AudioFileReader.read(path: path).tags == AudioTags())
    }

    /// Track and disc numbers without totals, and a year alone.
    @Test(arguments: Format.allCases)
    func numbersWithoutTotals(format: Format) throws {
        let path = try fixtures.copy(format)
        let tags = AudioTags(title: "N", trackNumber: 11, discNumber: 1, year: 1999)
        try AudioTagWriter.write(tags, to: path)
        #expect(try AudioFileReader.read(path: path).tags == tags)
    }
}

/// Writes and reads on many threads at once, each on its own file (the scanner and the tag editor
/// run in parallel): TagLib's shared state must not mix them up.
@Test func concurrentWritesAndReads() async throws {
    var paths: [(Format, String)] = []
    for _ in 0..<3 {
        for format in Format.allCases { paths.append((format, try fixtures.copy(format))) }
    }
    let results = await withTaskGroup(of: (String, String?).self) { group in
        for (index, (format, path)) in paths.enumerated() {
            group.addTask {
                let title = "\(format.rawValue) \(index) 标题"
                do throws(AudioMetadataError) {
                    try AudioTagWriter.write(
                        AudioTags(title: title, artists: ["歌手 \(index)"], trackNumber: index + 1), to: path)
                    let tags = try AudioFileReader.read(path: path).tags
                    let ok =
                        tags.title == title && tags.artists == ["歌手 \(index)"]
                        && tags.trackNumber == index + 1
                    return (path, ok ? nil : "\(tags)")
                } catch {
                    return (path, error.description)
                }
            }
        }
        var out: [(String, String?)] = []
        for await result in group { out.append(result) }
        return out
    }
    #expect(results.count == paths.count)
    for (path, problem) in results where problem != nil {
        Issue.record("\(path): \(problem ?? "")")
    }
}
