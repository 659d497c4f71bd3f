import CloudMusicTUI
import Testing

@Suite struct DownloadsViewTests {
    static let rows = [
        DownloadRow(title: "晴天", artist: "周杰伦", state: "downloading", received: 3_355_443, total: 8_283_750),
        DownloadRow(
            title: "Yesterday", artist: "The Beatles", state: "done", received: 8_283_750, total: 8_283_750),
        DownloadRow(
            title: "👩‍👩‍👧‍👦 Family", artist: "👍🏽", state: "failed", received: 10, total: 100, message: "Disk full"),
        DownloadRow(title: "Queued one", artist: "X", state: "queued", received: 0, total: nil),
    ]

    @Test func progressAndSizes() {
        #expect(DownloadsView.progress(Self.rows[0]) == "3.2 MB / 7.9 MB 40%")
        #expect(DownloadsView.progress(Self.rows[1]) == "7.9 MB")
        #expect(DownloadsView.progress(Self.rows[2]) == "Disk full")
        #expect(DownloadsView.progress(Self.rows[3]) == "")
        #expect(
            DownloadsView.progress(.init(title: "", artist: "", state: "paused", received: 1536, total: nil))
                == "1.5 KB")
        #expect(DownloadsView.size(0) == "0 B")
        #expect(DownloadsView.size(1023) == "1023 B")
        #expect(DownloadsView.size(1024) == "1.0 KB")
        #expect(DownloadsView.size(1_048_575) == "1.0 MB")
        #expect(DownloadsView.size(5_905_580_032) == "5.5 GB")
    }

    @Test func columnsLineUpAndDownloadingIsMarked() {
        let output = DownloadsView.render(rows: Self.rows, selected: 1, scrollOffset: 0, width: 80, height: 6)
        ViewTest.expectShape(output.lines, width: 80, height: 6)
        let header = output.lines[0]
        let state = ViewTest.column(of: "State", in: header)!
        #expect(ViewTest.column(of: "Artist", in: header) == ViewTest.column(of: "周杰伦", in: output.lines[1]))
        #expect(ViewTest.column(of: "downloading", in: output.lines[1]) == state)
        #expect(ViewTest.column(of: "done", in: output.lines[2]) == state)
        #expect(ViewTest.column(of: "failed", in: output.lines[3]) == state)
        #expect(output.lines[1].text.hasPrefix("▶ 晴天 "))
        #expect(output.lines[1].text.hasSuffix("3.2 MB / 7.9 MB 40%"))
        #expect(output.lines[2].allSatisfy { $0.style == .selected })
        #expect(output.lines[3].text.hasSuffix("Disk full"))
        #expect(output.lines[4].text.hasPrefix("  Queued one "))
        // Narrow: the artist goes below 60 columns, the state below 36.
        let narrow = DownloadsView.render(
            rows: Self.rows, selected: nil, scrollOffset: 0, width: 40, height: 3)
        #expect(!narrow.lines[0].text.contains("Artist") && narrow.lines[0].text.contains("State"))
        let tiny = DownloadsView.render(rows: Self.rows, selected: nil, scrollOffset: 0, width: 30, height: 3)
        #expect(!tiny.lines[0].text.contains("State") && tiny.lines[1].text.hasSuffix(" / 7.9 MB 40%"))
    }

    @Test func everySizeIsExact() {
        let messy =
            Self.rows + [
                DownloadRow(
                    title: ViewTest.messy, artist: ViewTest.messy, state: ViewTest.messy, received: -5,
                    total: 0,
                    message: ViewTest.messy)
            ]
        for (width, height) in ViewTest.sizes {
            for rows in [messy, []] {
                let output = DownloadsView.render(
                    rows: rows, selected: 2, scrollOffset: 3, width: width, height: height)
                ViewTest.expectShape(output.lines, width: width, height: height, "downloads")
            }
        }
        let empty = DownloadsView.render(rows: [], selected: nil, scrollOffset: 0, width: 30, height: 3)
        #expect(ViewTest.trimmed(empty.lines[1]) == "         No downloads")
    }
}
