import CloudMusicKit
import Foundation
import MusicCore
import OriginTestSupport
import ServerTestSupport
import Testing

/// The real `cloudmusic` in tmux with a podcast the server fetched from the tests' origin on 127.0.0.2 (its
/// episodes made by ffmpeg, downloaded by the server): the podcast screen, an episode resumed where the
/// person left it on another device, the speed keys, and the place written back when paused; an episode liked
/// and its comments read.
@Suite(.serialized) struct TerminalPlayerPodcastTests {
    static func feed(_ origin: FeedOrigin) -> String {
        let items = (1...3).map { number in
            """
            <item><guid>tui-episode-\(number)</guid><title>夜话第\(number)集</title>
            <pubDate>Mon, 0\(number) Jun 2026 08:00:00 +0000</pubDate>
            <enclosure url="\(origin.url("/docs/tui-episode.mp3").absoluteString)" type="audio/mpeg" length="160000"/>
            <itunes:duration>0:40</itunes:duration><itunes:episode>\(number)</itunes:episode></item>
            """
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
            <channel><title>终端夜话</title><itunes:author>主播小李</itunes:author><description>TUI</description>
            \(items.joined(separator: "\n"))
            </channel></rss>
            """
    }

    /// A server allowed to fetch from `origin`, its administrator (the first account) signed in, and the
    /// podcast of `feed` (put on the origin) added as `draft` says.
    static func podcastServer(_ origin: FeedOrigin, feed name: String, _ draft: PodcastDraft) async throws
        -> (
            TestServer, MusicRepository, Podcast
        )
    {
        let feed = try origin.put(name, Self.feed(origin))
        let server = try await TestServer.start(extraArguments: [
            "--fetch-allow", "\(FeedOrigin.host)/32", "--podcast-refresh", "off",
        ])
        let admin = MusicRepository(client: APIClient(baseURL: server.baseURL))
        _ = try await admin.signUp(
            .email("tui-admin@example.com"), password: "tui-admin-pass", nickname: "管理员")
        try await admin.login(.email("tui-admin@example.com"), password: "tui-admin-pass")
        var draft = draft
        draft.url = feed.absoluteString
        return (server, admin, try await admin.client.send(PodcastsAPI.add, body: draft))
    }

    @Test func aListenerResumesAnEpisodeChangesTheSpeedAndThePlaceIsSaved() async throws {
        let origin = try await FeedOrigin.start()
        let audio = temporaryFolder() + "/tui-episode.mp3"
        try await runChecked(
            "/usr/bin/ffmpeg",
            [
                "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=330:duration=40",
                "-ac", "1",
                "-ar", "22050", "-b:a", "32k", audio,
            ])
        try origin.put("tui-episode.mp3", try Data(contentsOf: URL(fileURLWithPath: audio)))
        // The server keeps the episodes' files (Range for seeking).
        let (server, admin, podcast) = try await Self.podcastServer(
            origin, feed: "tui-podcast.xml", PodcastDraft(url: "", keep: .download, retention: 10))
        defer { server.stop() }

        // On another device Ann got 12 s into the newest episode.
        try await signUp(server, email: "ann@example.com", password: "correct horse", nickname: "Ann")
        let phone = MusicRepository(client: APIClient(baseURL: server.baseURL))
        try await phone.login(.email("ann@example.com"), password: "correct horse")
        let newest = try await phone.episodes(podcastID: podcast.id).data[0]
        #expect(newest.title == "夜话第3集")
        _ = try await phone.client.send(
            PodcastsAPI.saveProgress, path: IDPath(newest.id), body: EpisodeProgressDraft(position: 12))

        let player = try TerminalPlayer(server: server)
        let tmux = player.session
        try await player.signIn(email: "ann@example.com", password: "correct horse", nickname: "Ann")
        try await tmux.press("0")
        try await tmux.waitFor(text: "终端夜话")
        try await tmux.press("s")
        try await tmux.waitFor(text: "Subscribed to 终端夜话.")
        try await tmux.press("Enter")
        var screen = try await tmux.waitFor("the episodes with the place reached") { rows in
            rows.contains { $0.contains("夜话第3集") && $0.contains("30%") }
        }
        #expect(screen.contains { $0.contains("终端夜话 · 主播小李 · subscribed · speed 1×") })

        // Enter plays the newest episode from 0:12, where the phone left it.
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "Resuming at 0:12")
        // A whole second past it: an MP3 seek lands on a frame, up to a few hundredths before 0:12, and the
        // shown time may round up (a place of 11.93 s was saved once after 0:12 showed).
        screen = try await tmux.waitFor("the episode playing past its saved place") { rows in
            controlBar(rows).contains("夜话第3集") && controlBar(rows).contains("▶")
                && Self.position(controlBar(rows)).map { $0 >= 13 } == true
        }
        try await tmux.press(">")
        try await tmux.press(">")
        try await tmux.waitFor(text: "Speed: 1.5×")
        try await tmux.waitFor(text: "speed 1.5×")

        // Paused: the place goes to the server, where the phone reads it.
        try await tmux.press("Space")
        try await tmux.waitFor("paused") { !controlBar($0).contains("▶") }
        var saved = EpisodeProgress(episodeId: newest.id, position: 0, finished: false, updatedAt: nil)
        for _ in 0..<600 {  // a bound for a hung test; each look asks the server
            saved = try await phone.client.send(PodcastsAPI.progress, path: IDPath(newest.id))
            if saved.position > 12 { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(saved.position > 12)
        #expect(!saved.finished)
        #expect(
            try await phone.continueListening().data.map(\.id) == [newest.id])
        try await tmux.press("q")
        #expect(try await tmux.waitForExit().status == 0)
    }

    @Test func anEpisodeIsLikedAndItsCommentsReadOnThePodcastScreen() async throws {
        let origin = try await FeedOrigin.start()
        let (server, admin, podcast) = try await Self.podcastServer(
            origin, feed: "tui-social.xml", PodcastDraft(url: ""))
        defer { server.stop() }
        let newest = try await admin.episodes(podcastID: podcast.id).value.data[0]
        _ = try await admin.postComment("第三集真好听", on: .episode(newest.id))
        try await signUp(server, email: "ann@example.com", password: "correct horse", nickname: "Ann")
        let phone = MusicRepository(client: APIClient(baseURL: server.baseURL))
        try await phone.login(.email("ann@example.com"), password: "correct horse")

        let player = try TerminalPlayer(server: server)
        let tmux = player.session
        try await player.signIn(email: "ann@example.com", password: "correct horse", nickname: "Ann")
        try await tmux.press("0")
        try await tmux.waitFor(text: "终端夜话")
        try await tmux.press("Enter")
        try await tmux.waitFor(text: "夜话第3集")
        try await tmux.waitFor(text: "f like · c comments")

        // f likes the newest episode (selected first); the row shows it, and the server has Ann's like.
        try await tmux.press("f")
        try await tmux.waitFor(text: "Liked 夜话第3集.")
        try await tmux.waitFor(text: "♥1")
        let liked = try await phone.episode(id: newest.id).value
        #expect(liked.likesCount == 1 && liked.likeId != nil)

        // c shows its comments; f there takes the like back; Esc returns to the episodes.
        try await tmux.press("c")
        try await tmux.waitFor(text: "第三集真好听")
        try await tmux.waitFor(text: "Comments · 夜话第3集 · 1")
        try await tmux.press("f")
        try await tmux.waitFor(text: "Unliked 夜话第3集.")
        let unliked = try await phone.episode(id: newest.id).value
        #expect(unliked.likesCount == 0 && unliked.likeId == nil)
        try await tmux.press("Escape")
        try await tmux.waitFor(text: "夜话第2集")
        try await tmux.press("q")
        #expect(try await tmux.waitForExit().status == 0)
    }

    /// The seconds of "m:ss" at the start of the control bar's time ("0:14 / 0:40").
    static func position(_ bar: String) -> Double? {
        guard let range = bar.range(of: #"\d+:\d\d / "#, options: .regularExpression) else { return nil }
        let parts = bar[range].dropLast(3).split(separator: ":")
        guard parts.count == 2, let minutes = Double(parts[0]), let seconds = Double(parts[1]) else {
            return nil
        }
        return minutes * 60 + seconds
    }
}
