import Foundation
import MusicCore
import Testing

@Suite("API envelope")
struct APIEnvelopeTests {
    struct Song: Codable, Sendable, Equatable {
        var id: String
        var title: String
    }

    func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test(
        "pages and next",
        arguments: [
            // total, page, size, pages, next
            (0, 1, 10, 0, nil), (1, 1, 10, 1, nil), (10, 1, 10, 1, nil), (11, 1, 10, 2, 2),
            (11, 2, 10, 2, nil),
            (25, 2, 10, 3, 3), (25, 3, 10, 3, nil), (25, 4, 10, 3, nil), (5, 1, 0, 0, nil), (3, 1, 1, 3, 2),
        ] as [(Int, Int, Int, Int, Int?)])
    func pageArithmetic(total: Int, page: Int, size: Int, pages: Int, next: Int?) {
        let result = Page<Int>(items: [], total: total, page: page, size: size)
        #expect(result.pages == pages)
        #expect(result.next == next)
        #expect(result.total == total && result.page == page && result.size == size)
    }

    @Test func pageEncodesNextAsNull() throws {
        let last = Page(items: [Song(id: "1", title: "a")], total: 1, page: 1, size: 10)
        #expect(
            try json(last)
                == #"{"data":[{"id":"1","title":"a"}],"next":null,"page":1,"pages":1,"size":10,"total":1}"#)
        let first = Page<Song>(items: [], total: 30, page: 1, size: 10)
        #expect(try json(first) == #"{"data":[],"next":2,"page":1,"pages":3,"size":10,"total":30}"#)
    }

    @Test func pageRoundTripsAndMaps() throws {
        let page = Page(items: [Song(id: "1", title: "a")], total: 11, page: 1, size: 10)
        let decoded = try JSONDecoder().decode(Page<Song>.self, from: Data(try json(page).utf8))
        #expect(decoded == page)
        let titles = page.map(\.title)
        #expect(titles.data == ["a"])
        #expect(titles.next == 2 && titles.total == 11)
    }

    @Test func decodeSuccessWithPage() throws {
        let body =
            #"{"status":0,"data":{"total":1,"pages":1,"size":10,"page":1,"next":null,"data":[{"id":"s1","title":"t"}]}}"#
        let response = try JSONDecoder().decode(APIResponse<Page<Song>>.self, from: Data(body.utf8))
        #expect(response.isSuccess)
        #expect(response.message == nil)
        #expect(response.data?.data == [Song(id: "s1", title: "t")])
    }

    @Test func decodeFailure() throws {
        let body = #"{"status":1002,"message":"The password is wrong."}"#
        let response = try JSONDecoder().decode(APIResponse<Song>.self, from: Data(body.utf8))
        #expect(!response.isSuccess)
        #expect(response.status == 1002)
        #expect(response.message == "The password is wrong.")
        #expect(response.data == nil)
    }

    @Test func decodeWithoutStatusFails() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(APIResponse<Song>.self, from: Data(#"{"data":null}"#.utf8))
        }
    }

    @Test func encodeLeavesOutMissingFields() throws {
        #expect(
            try json(APIResponse(data: Song(id: "1", title: "a")))
                == #"{"data":{"id":"1","title":"a"},"status":0}"#)
        #expect(
            try json(APIResponse<Song>(status: 404, message: "No such song."))
                == #"{"message":"No such song.","status":404}"#)
    }

    @Test func lyricInsideTheEnvelope() throws {
        let lyric = LyricParser.parseLRC("[ti:T]\n[00:01.00]a")
        let body = try json(APIResponse(data: lyric))
        let decoded = try JSONDecoder().decode(APIResponse<Lyric>.self, from: Data(body.utf8))
        #expect(decoded.data == lyric)
    }
}
