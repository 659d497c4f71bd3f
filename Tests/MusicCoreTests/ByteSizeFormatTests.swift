import MusicCore
import Testing

@Suite struct ByteSizeFormatTests {
    @Test func sizesReadAsPeopleReadThem() {
        #expect(DisplayFormat.byteSize(0) == "0 bytes")
        #expect(DisplayFormat.byteSize(1) == "1 byte")
        #expect(DisplayFormat.byteSize(999) == "999 bytes")
        #expect(DisplayFormat.byteSize(1_000) == "1 KB")
        #expect(DisplayFormat.byteSize(64_000) == "64 KB")
        #expect(DisplayFormat.byteSize(1_500_000) == "1.5 MB")
        #expect(DisplayFormat.byteSize(10_000_000) == "10 MB")
        #expect(DisplayFormat.byteSize(9_999_999) == "10 MB")
        #expect(DisplayFormat.byteSize(2_000_000_000) == "2 GB")
    }
}
