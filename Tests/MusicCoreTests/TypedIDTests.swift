import Foundation
import MusicCore
import Testing

@Suite("Typed ids and body limits")
struct TypedIDTests {
    private struct Holder: Codable { var songId: ID<Song> }

    private func decode(_ json: String) throws -> Holder {
        try JSONDecoder().decode(Holder.self, from: Data(json.utf8))
    }

    @Test func anIdIsDigitsWithoutALeadingZeroAndTravelsAsText() throws {
        #expect(try decode(#"{"songId":"42"}"#).songId.rawValue == 42)
        for bad in [
            #""0""#, #""007""#, #""-1""#, #"" 1""#, #""1a""#, #""""#, #""1234567890123456789""#, "42", "null",
        ] {
            #expect(throws: DecodingError.self, "\(bad)") { try decode(#"{"songId":\#(bad)}"#) }
        }
        let written = String(
            decoding: try JSONEncoder().encode(Holder(songId: ID(rawValue: 7)!)), as: UTF8.self)
        #expect(written == #"{"songId":"7"}"#)
        #expect(ID<Song>(rawValue: 0) == nil)
        #expect(ID<Song>("12") == ID(rawValue: 12))
    }

    @Test func textAClientHoldsIsRefusedBeforeItIsSentNotTurnedIntoZero() {
        #expect(throws: ServiceError.self) { try ID<Sheet>(validating: "abc", field: "sheetId") }
        #expect(throws: ServiceError.self) { try IDPath<Sheet>("") }
        #expect(throws: ServiceError.self) { try [ID<Song>].ids(["1", "x"], field: "songIds") }
        #expect((try? IDPath<Sheet>("9"))?.id == ID(rawValue: 9))
    }

    @Test func theDocumentShowsIdsAndLimitsOnTheBody() throws {
        let builder = SchemaBuilder()
        _ = try builder.schema(for: MomentDraft.self)
        _ = try builder.schema(for: SongIDs.self)
        let moment = try #require(builder.components["MomentDraft"]?["properties"])
        #expect(moment["content"]?["maxLength"] == .number(Double(MomentDraft.contentText.limit)))
        #expect(moment["images"]?["maxItems"] == .number(Double(MomentDraft.maxImages)))
        #expect(moment["episodeId"]?["pattern"] == .string("^[1-9][0-9]{0,17}$"))
        let songs = try #require(builder.components["SongIDs"]?["properties"]?["songIds"])
        #expect(songs["maxItems"] == .number(Double(SongIDs.maxSongs)))
        #expect(songs["minItems"] == .number(1))
        #expect(songs["items"]?["pattern"] == .string("^[1-9][0-9]{0,17}$"))
    }

    @Test func aBodyPastItsLimitsIsRefusedInTheFeaturesWords() throws {
        let one = ID<Song>(rawValue: 1)!
        try SongIDs([one]).checkLimits()
        #expect(throws: ServiceError.self) { try SongIDs([]).checkLimits() }
        let tooMany = SongIDs(Array(repeating: one, count: SongIDs.maxSongs + 1))
        do {
            try tooMany.checkLimits()
            Issue.record("\(SongIDs.maxSongs + 1) songs were taken")
        } catch let error as ServiceError {
            #expect(error.kind == .invalid)
            #expect(error.message(in: .english) == "Send at most \(SongIDs.maxSongs) songs at a time.")
        }
        let long = MomentDraft(content: String(repeating: "好", count: MomentDraft.contentText.limit + 1))
        #expect(throws: ServiceError.self) { try long.checkLimits() }
        // Counted once trimmed, as people count characters: padding is not held against the writer.
        let padded = MomentDraft(
            content: "  " + String(repeating: "👍🏽", count: MomentDraft.contentText.limit) + "\n")
        try padded.checkLimits()
    }
}
