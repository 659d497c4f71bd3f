import Foundation
import HTTPServer
import MusicCore
import Testing

@testable import CloudMusicServer

/// The hand-written JSON of long lists must be byte for byte what JSONEncoder writes.
@Suite struct CatalogJSONTests {
    let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }()

    func written<T: JSONWritable>(_ value: T) -> String {
        var writer = JSONWriter()
        value.writeJSON(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    func encoded<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static let awkward =
        "quote \" backslash \\ slash / tab \t newline \n return \r bell \u{7} nul \u{0} del \u{7F} 夜曲 🎵👩‍👩‍👧 \u{2028}"

    func song(_ text: String, full: Bool) -> Song {
        var song = Song(
            id: "42", title: text, icon: full ? "v1/albums/7/cover" : nil, uri: "v1/songs/42/stream",
            style: 10,
            lyric: full ? text : nil,
            singer: full ? Singer(id: "3", name: text) : nil,
            artists: full ? [ArtistSummary(id: "3", name: text), ArtistSummary(id: "4", name: "B")] : [],
            album: full ? AlbumSummary(id: "7", title: text, icon: "v1/albums/7/cover") : nil,
            genres: full ? ["Pop", text] : [], trackNumber: full ? 1 : nil, discNumber: full ? 2 : nil,
            year: full ? 1999 : nil, duration: 215_000, format: "flac", bitRate: 900, sampleRate: 44_100,
            channels: 2, clicksCount: 0, commentsCount: -1, playsCount: Int.max,
            createdAt: "2026-12-01T00:00:00Z",
            updatedAt: "2026-12-01T00:00:01Z")
        song.user = full ? UserSummary(id: "9", nickname: text, icon: nil) : nil
        return song
    }

    @Test(arguments: [true, false]) func songsMatchJSONEncoder(full: Bool) throws {
        for text in [Self.awkward, "", "plain"] {
            let value = song(text, full: full)
            #expect(written(value) == (try encoded(value)))
        }
    }

    @Test func sheetsAndPagesMatchJSONEncoder() throws {
        for full in [true, false] {
            let sheet = Sheet(
                id: "9", title: Self.awkward, icon: full ? "v1/sheets/9/cover?v=1" : nil,
                detail: full ? Self.awkward : nil, tags: full ? ["a", Self.awkward] : [], isPrivate: full,
                kind: "likes", clicksCount: 1, collectsCount: 2, commentsCount: 3, songsCount: 4,
                user: UserSummary(id: "1", nickname: "Ann", icon: full ? "v1/users/1/avatar?v=2" : nil),
                collected: full ? false : nil,
                songs: full ? [song("x", full: true), song("", full: false)] : nil,
                createdAt: "2026-12-01T00:00:00Z", updatedAt: "2026-12-01T00:00:00Z")
            #expect(written(sheet) == (try encoded(sheet)))
            let page = Page(items: full ? [sheet, sheet] : [], total: full ? 45 : 0, page: 2, size: 20)
            #expect(written(page) == (try encoded(page)))
        }
    }

    @Test func theEnvelopeIsTheSameEitherWay() throws {
        let value = song(Self.awkward, full: true)
        guard case .data(let fast) = APIEnvelope.answer(value).body else {
            Issue.record("no body")
            return
        }
        let slow = Data(#"{"status":0,"data":"#.utf8) + (try encoder.encode(value)) + Data("}".utf8)
        #expect(fast == slow)
    }

    @Test func datesAreISO8601InUTC() {
        #expect(APIDate.string(0) == "1970-01-01T00:00:00Z")
        #expect(APIDate.string(1_796_083_200) == "2026-12-01T00:00:00Z")
        #expect(APIDate.string(253_402_300_799) == "9999-12-31T23:59:59Z")
    }
}
