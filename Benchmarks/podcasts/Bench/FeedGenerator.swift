import Foundation

/// generate: writes podcast feeds as large publishers write them (iTunes and Podcasting 2.0 tags, HTML show
/// notes of about 1.5 KB in CDATA, Chinese and English text).
///
///     podcast-bench generate --episodes 5000 --out big.xml
///     podcast-bench generate --episodes 50 --feeds 1000 --folder feeds/      (feeds/0.xml ... 999.xml)
enum FeedGenerator {
    static func run(_ arguments: [String]) async throws {
        let episodes = option("--episodes", in: arguments).flatMap { Int($0) } ?? 5_000
        if let folder = option("--folder", in: arguments) {
            let feeds = option("--feeds", in: arguments).flatMap { Int($0) } ?? 1_000
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for number in 0..<feeds {
                try write(feed(number: number, episodes: episodes), to: "\(folder)/\(number).xml")
            }
            print("generate: \(feeds) feeds of \(episodes) episodes in \(folder)")
        } else {
            let out = option("--out", in: arguments) ?? "feed.xml"
            try write(feed(number: 0, episodes: episodes), to: out)
            let size = (try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
            print("generate: \(episodes) episodes, \(size) bytes in \(out)")
        }
    }

    /// Written whole to a temporary name, then renamed, so a server never serves half a feed.
    static func write(_ text: String, to path: String) throws {
        let staging = path + ".tmp"
        try Data(text.utf8).write(to: URL(fileURLWithPath: staging))
        guard rename(staging, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// Feed `number`, with `episodes` episodes, newest first; `revision` above 0 adds that many newer ones.
    static func feed(number: Int, episodes: Int, revision: Int = 0) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                 xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
            <channel>
            <title>Show \(number) 节目</title><link>https://show\(number).example/</link>
            <description>A show about everything, 关于一切的节目.</description>
            <language>zh-cn</language><itunes:author>Host \(number)</itunes:author>
            <itunes:image href="https://show\(number).example/cover.jpg"/>
            <itunes:category text="Arts"><itunes:category text="Books"/></itunes:category>
            <podcast:guid>show-\(number)</podcast:guid>

            """
        let notes =
            "<p>In this episode we talk about books, music and 城市的夜晚. Guests: <a href=\"https://guest.example/\">A Guest</a>.</p>"
            + String(
                repeating:
                    "<p>Notes &amp; links: <a href=\"https://links.example/a?b=1&amp;c=2\">one</a>, two, three; 中文说明文字。</p>",
                count: 9)
        for episode in stride(from: episodes + revision, through: 1, by: -1) {
            let day = 1 + episode % 28
            text += """
                <item><title>Episode \(episode): 第\(episode)集</title>
                <guid isPermaLink="false">show-\(number)-\(episode)</guid>
                <link>https://show\(number).example/\(episode)</link>
                <pubDate>Mon, \(String(format: "%02d", day)) Jan 2024 08:00:00 +0800</pubDate>
                <description>Episode \(episode) of show \(number).</description>
                <content:encoded><![CDATA[\(notes)]]></content:encoded>
                <enclosure url="https://cdn.show\(number).example/\(episode).mp3" length="\(30_000_000 + episode)" type="audio/mpeg"/>
                <itunes:duration>\(episode % 2):\(String(format: "%02d", episode % 60)):\(String(format: "%02d", episode % 59))</itunes:duration>
                <itunes:episode>\(episode)</itunes:episode><itunes:season>\(1 + episode / 100)</itunes:season>
                <itunes:explicit>false</itunes:explicit>
                <podcast:chapters url="https://show\(number).example/\(episode)/chapters.json" type="application/json+chapters"/>
                <podcast:transcript url="https://show\(number).example/\(episode)/t.vtt" type="text/vtt"/>
                </item>

                """
        }
        return text + "</channel></rss>\n"
    }
}
