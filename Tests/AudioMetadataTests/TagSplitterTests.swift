import AudioMetadata
import Testing

@Suite struct TagSplitterTests {
    @Test func knownNamesStayWhole() {
        #expect(TagSplitter.splitArtists("AC/DC") == ["AC/DC"])
    }
}
