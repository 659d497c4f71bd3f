import Foundation
import Testing

@testable import AudioMetadata

/// The shortcuts a scan takes for the common case must give what the general code gives.
@Suite("Scan shortcuts")
struct ScanShortcutTests {
    /// A fixed sequence of random numbers, so that a failure can be repeated.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let names: [String] =
        TagSplitterTests.artistCases.map(\.0) + TagSplitterTests.genreCases.map(\.0)
        + TagSplitter.artistExceptions
        + TagSplitter.genreExceptions + [
            "Featherweight", "Left.", "Soft Cell", "ﬁne ﬀeat", "x", " x", "x ", "Max x Min", "Lil Nas X ",
            "\tName\n", " 周杰伦 ", "A\u{E000}0\u{E001}", "Beyoncé", "FT. Island", "Daft Punk", "Aftermath",
            "Feat", "ＦＥＡＴ", "Nick Cave", "\u{2003}wide\u{3000}", "\u{85}next\u{2028}", "e\u{301} ",
            " \u{301}",
        ]

    @Test func oneNameShortcutsAgreeWithTheFullSplit() {
        var random = SplitMix(state: 16)
        let alphabet: [Character] = [
            "a", "F", "e", "A", "t", "T", ".", " ", "x", "X", "&", "/", ";", "、", "，", "×", ",", "|", "ﬀ",
            "ﬅ",
            "\u{E002}", "周", "\n", "\u{3000}",
        ]
        var inputs = Self.names
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...9, using: &random)
            inputs.append(String((0..<length).map { _ in alphabet.randomElement(using: &random)! }))
        }
        for input in inputs {
            #expect(
                TagSplitter.splitArtists(input) == TagSplitter.splitArtistsInFull(input),
                "\(input.debugDescription)")
            #expect(
                TagSplitter.splitGenres(input) == TagSplitter.splitGenresInFull(input),
                "\(input.debugDescription)")
        }
    }

    @Test func trimmingAgreesWithFoundation() {
        for text in Self.names + [
            "", " ", "\u{A0}a\u{A0}", "\u{200B}zero width\u{200B}", "\r\n", "a\u{0}", "\u{180E}a\u{180E}",
        ] {
            #expect(
                AudioFileReader.trimmed(text) == text.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(text.debugDescription)")
        }
    }

    @Test func numbersOnBytesAgreeWithNumbersOnCharacters() {
        var random = SplitMix(state: 25)
        let alphabet: [Character] = ["0", "1", "9", "5", " ", "\t", "/", "-", "a", "\r\n", "\n", "."]
        var inputs = [
            "", "0", "007", "3/12", " 12 ", "\t4", "1234567890", "123456789", "2019-05-01", "05/01/2019",
            "0000-1999",
        ]
        for _ in 0..<3_000 {
            let length = Int.random(in: 0...12, using: &random)
            inputs.append(String((0..<length).map { _ in alphabet.randomElement(using: &random)! }))
        }
        for input in inputs {
            #expect(
                AudioFileReader.positiveInt(input) == AudioFileReader.positiveIntInFull(input),
                "\(input.debugDescription)")
            #expect(
                AudioFileReader.year(input) == AudioFileReader.yearInFull(input), "\(input.debugDescription)")
        }
    }

    @Test func fileExtensionsAgreeWithNSString() {
        let paths = [
            "a.mp3", "/x/y.MP3", "/x.y/z", "noext", "trailing.", "/d/.mp3", ".mp3", "a.b.flac", "/dir/a.mp3/",
            "/dir/a.mp3//", "a.m p3", "/a/b c.flac", "/", "", "a..mp3", "/x/.hidden.ogg", "x.tar.gz", "a./b",
            "/a/b.", "a.MP3 ", "a.É", " .mp3", "a/.", "a/..", "//x.mp3", "a.mp3/.", "/music/周杰伦/七里香.FLAC",
        ]
        for path in paths {
            #expect(
                AudioFileReader.fileExtension(of: path) == (path as NSString).pathExtension.lowercased(),
                "\(path.debugDescription)")
        }
    }
}
