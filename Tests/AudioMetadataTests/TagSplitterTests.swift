import Testing

@testable import AudioMetadata

@Suite("TagSplitter")
struct TagSplitterTests {
    static let artistCases: [(String, [String])] = [
        ("", []),
        ("   ", []),
        ("Solo Artist", ["Solo Artist"]),
        ("A; B", ["A", "B"]),
        ("A;B;C", ["A", "B", "C"]),
        ("A；B", ["A", "B"]),
        ("A/B", ["A", "B"]),
        ("A / B", ["A", "B"]),
        ("周杰伦、方文山", ["周杰伦", "方文山"]),
        ("周杰伦，费玉清", ["周杰伦", "费玉清"]),
        ("A feat. B", ["A", "B"]),
        ("A FEAT. B", ["A", "B"]),
        ("A feat B", ["A", "B"]),
        ("A ft. B", ["A", "B"]),
        ("A featuring B", ["A", "B"]),
        ("A (feat. X)", ["A", "X"]),
        ("A [feat. X]", ["A", "X"]),
        ("A (ft. X & Y)", ["A", "X", "Y"]),
        ("A (Featuring X)", ["A", "X"]),
        ("A & B", ["A", "B"]),
        ("A x B", ["A", "B"]),
        ("A × B", ["A", "B"]),
        ("Lil Nas X", ["Lil Nas X"]),
        ("Lil Nas X & Billy Ray Cyrus", ["Lil Nas X", "Billy Ray Cyrus"]),
        ("Tyler, The Creator", ["Tyler, The Creator"]),
        ("AC/DC", ["AC/DC"]),
        ("ac/dc", ["ac/dc"]),
        ("Simon & Garfunkel", ["Simon & Garfunkel"]),
        ("AC/DC; Simon & Garfunkel", ["AC/DC", "Simon & Garfunkel"]),
        ("Earth, Wind & Fire feat. X", ["Earth, Wind & Fire", "X"]),
        ("Nick Cave & the Bad Seeds", ["Nick Cave & the Bad Seeds"]),
        ("Florence & The Machine", ["Florence & The Machine"]),
        ("Daryl Hall & John Oates", ["Daryl Hall & John Oates"]),
        ("A; a; A", ["A"]),
        (" ; A ;; B ; ", ["A", "B"]),
        ("陈奕迅 feat. 王菲", ["陈奕迅", "王菲"]),
        ("宇多田ヒカル/椎名林檎", ["宇多田ヒカル", "椎名林檎"]),
        ("아이유 (feat. 박명수)", ["아이유", "박명수"]),
    ]

    @Test(arguments: artistCases)
    func artists(input: String, expected: [String]) {
        #expect(TagSplitter.splitArtists(input) == expected)
    }

    static let genreCases: [(String, [String])] = [
        ("", []),
        ("Rock", ["Rock"]),
        ("Rock; Pop", ["Rock", "Pop"]),
        ("Rock/Pop", ["Rock", "Pop"]),
        ("Rock, Pop", ["Rock", "Pop"]),
        ("Rock|Pop", ["Rock", "Pop"]),
        ("Rock；Pop", ["Rock", "Pop"]),
        ("Rock，Pop", ["Rock", "Pop"]),
        ("华语流行、民谣", ["华语流行", "民谣"]),
        ("Hip-Hop/Rap", ["Hip-Hop/Rap"]),
        ("hip-hop/rap; Jazz", ["hip-hop/rap", "Jazz"]),
        ("R&B/Soul", ["R&B/Soul"]),
        ("Drum & Bass", ["Drum & Bass"]),
        ("Rock; rock; ROCK", ["Rock"]),
        (" ; Jazz ;; ", ["Jazz"]),
        ("J-Pop/K-Pop", ["J-Pop", "K-Pop"]),
    ]

    @Test(arguments: genreCases)
    func genres(input: String, expected: [String]) {
        #expect(TagSplitter.splitGenres(input) == expected)
    }

    /// Every listed exception survives on its own and next to another name, in any case.
    @Test func everyArtistExceptionStaysWhole() {
        for name in TagSplitter.artistExceptions {
            #expect(TagSplitter.splitArtists(name) == [name])
            #expect(TagSplitter.splitArtists("\(name); Other") == [name, "Other"])
            #expect(TagSplitter.splitArtists(name.uppercased()) == [name.uppercased()])
        }
        for name in TagSplitter.genreExceptions {
            #expect(TagSplitter.splitGenres(name) == [name])
        }
    }

    /// What the writer joins, the reader splits back (for names without separators).
    @Test func joinedListSplitsBack() {
        let names = ["Alice", "鲍勃", "AC/DC", "Simon & Garfunkel", "宇多田ヒカル"]
        #expect(TagSplitter.splitArtists(names.joined(separator: "; ")) == names)
    }
}
