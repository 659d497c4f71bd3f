import Foundation
import Markup
import MusicCore
import WebFeeds

/// parse: reads a feed file in 64 KB chunks through `WebFeedParser` (as the fetcher hands it over), timing
/// each round; the baseline, in the same run, is libxml2 alone reading the same chunks into a handler that
/// does nothing (`XMLStreamReader`), so the ratio is what building the items costs on top of the XML.
///
///     podcast-bench parse big.xml [--rounds 5] [--only feed|xml] [--keep]
///
/// Peak memory: `--only feed --rounds 1` under `/usr/bin/time -v` (run.sh does), so nothing else is in the
/// process's peak; `--keep` keeps every item in memory too (what `WebFeedParser.parse` does), where a
/// refresh would store them as they come.
enum ParseBench {
    final class Nothing: XMLEventHandler {
        var elements = 0
        func startElement(_ name: XMLName, attributes: [XMLAttribute]) throws { elements += 1 }
        func endElement(_ name: XMLName) throws {}
        func characters(_ text: UnsafeRawBufferPointer) throws {}
    }

    static func run(_ arguments: [String]) async throws {
        guard let path = arguments.first, !path.hasPrefix("--") else {
            print("usage: podcast-bench parse FILE [--rounds 5] [--only feed|xml]")
            exit(2)
        }
        let rounds = option("--rounds", in: arguments).flatMap { Int($0) } ?? 5
        let only = option("--only", in: arguments)
        let keep = arguments.contains("--keep")
        var kept: [WebFeedItem] = []
        let url = URL(fileURLWithPath: path)
        var feedTimes: [Double] = []
        var xmlTimes: [Double] = []
        var items = 0
        for _ in 0..<max(1, rounds) {
            if only != "xml" {
                let start = ContinuousClock.now
                items = 0
                kept = []
                let parser = WebFeedParser(url: URL(string: "https://show0.example/feed.xml")!) { item in
                    items += 1
                    if keep { kept.append(item) }
                }
                try chunks(of: url) { try parser.feed($0) }
                _ = try parser.finish()
                feedTimes.append(seconds(start.duration(to: .now)))
            }
            if only != "feed" {
                let start = ContinuousClock.now
                let reader = XMLStreamReader(handler: Nothing())
                try chunks(of: url) { try reader.feed($0) }
                try reader.finish()
                xmlTimes.append(seconds(start.duration(to: .now)))
            }
        }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let feedBest = feedTimes.min() ?? 0
        let xmlBest = xmlTimes.min() ?? 0
        print(
            "parse: \(items) items, \(size) bytes; best of \(rounds): WebFeedParser \(format(feedBest * 1000)) ms, "
                + "libxml2 alone \(format(xmlBest * 1000)) ms; peak RSS \(format(peakResidentMiB())) MiB")
        print(
            "{\"benchmark\":\"parse\",\"items\":\(items),\"bytes\":\(size),\"rounds\":\(rounds),"
                + "\"feedMs\":\(format(feedBest * 1000)),\"feedMsAll\":[\(feedTimes.map { format($0 * 1000) }.joined(separator: ","))],"
                + "\"xmlOnlyMs\":\(format(xmlBest * 1000)),"
                + "\"ratio\":\(xmlBest > 0 && feedBest > 0 ? format(feedBest / xmlBest) : "null"),"
                + "\"peakRSSMiB\":\(format(peakResidentMiB()))}")
    }

    /// Hands the file to `body` 64 KB at a time: never the whole file in memory.
    static func chunks(of url: URL, _ body: (Data) throws -> Void) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        while let chunk = try handle.read(upToCount: 64 << 10), !chunk.isEmpty {
            try body(chunk)
        }
    }
}
