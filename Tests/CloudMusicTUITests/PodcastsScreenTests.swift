import CloudMusicKit
import Foundation
import MusicCore
import Testing

@testable import CloudMusicTUI

/// The podcast screen as a pure function of state: the list (mine first), a podcast's episodes with the place
/// reached, the keys that open, play, subscribe and change the speed.
@Suite struct PodcastsScreenTests {
    static func podcast(_ id: String, _ title: String, subscribed: Bool?) -> Podcast {
        Podcast(
            id: id, title: title, author: "主播", detail: "", detailHtml: nil, imageUrl: nil,
            feedUrl: "https://example.com/\(id).xml", link: nil, categories: [], explicit: false,
            keep: .stream,
            retention: 10, episodesCount: 3, subscribersCount: 0, subscribed: subscribed, refreshedAt: nil,
            lastError: nil, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z")
    }

    static func episode(
        _ id: String, duration: Int? = 100, progress: EpisodeProgress? = nil, likes: Int = 0,
        likeId: String? = nil
    ) -> PodcastEpisode {
        PodcastEpisode(
            id: id, podcastId: "p1", podcastTitle: "山海夜话", title: "第\(id)集", detail: "",
            publishedAt: "2026-06-0\(id)T08:00:00Z", duration: duration, uri: "v1/episodes/\(id)/stream",
            enclosureUrl: "https://example.com/\(id).mp3", enclosureType: "audio/mpeg", enclosureLength: nil,
            season: nil, episode: Int(id), chaptersUrl: nil, transcriptUrl: nil, imageUrl: nil,
            downloaded: false,
            progress: progress, likesCount: likes, likeId: likeId, createdAt: "2026-01-01T00:00:00Z",
            updatedAt: "2026-01-01T00:00:00Z")
    }

    static func place(_ position: Double, _ finished: Bool) -> EpisodeProgress {
        EpisodeProgress(
            episodeId: "x", position: position, finished: finished, updatedAt: "2026-06-01T00:00:00Z")
    }

    @Test func mySubscriptionsComeFirstAndEnterOpensThePodcast() {
        var state = AppState(server: AppFixture.server, signedIn: ("u1", "Ann"))
        #expect(state.reduce(.key(.character("0"))) == [.loadPodcasts])
        #expect(state.screen == .podcasts)
        _ = state.reduce(
            .podcastsLoaded([
                Self.podcast("p1", "Alpha", subscribed: false), Self.podcast("p2", "山海夜话", subscribed: true),
            ]))
        #expect(state.podcasts.podcasts.map(\.id) == ["p2", "p1"])
        #expect(state.reduce(.key(.enter)) == [.openPodcast(id: "p2")])
        let episodes = [Self.episode("3"), Self.episode("2"), Self.episode("1")]
        _ = state.reduce(.episodesLoaded(podcastID: "p2", episodes))
        _ = state.reduce(.key(.down))
        #expect(state.reduce(.key(.enter)) == [.playEpisodes(episodes, start: 1)])
        // Subscribe from the episodes; Esc goes back to the podcasts, then out.
        #expect(state.reduce(.key(.character("s"))) == [.setSubscribed(podcastID: "p2", false)])
        #expect(state.reduce(.key(.escape)) == [.loadPodcasts])
        #expect(state.podcasts.open == nil && state.screen == .podcasts)
        _ = state.reduce(.key(.escape))
        #expect(state.screen == .home)
    }

    static func comment(_ id: String, _ content: String) -> MusicCore.Comment {
        MusicCore.Comment(
            id: id, content: content, likesCount: 0, repliesCount: 0, likeId: nil, parentId: nil, parent: nil,
            songId: nil, sheetId: nil, feedId: nil, episodeId: "2",
            user: UserSummary(id: "u2", nickname: "Bob", icon: nil), mentions: [], topics: [],
            createdAt: "2026-06-01T00:00:00Z", updatedAt: "2026-06-01T00:00:00Z")
    }

    @Test func anEpisodesCommentsAreShownAndItIsLikedWithAKey() {
        var state = AppState(server: AppFixture.server, signedIn: ("u1", "Ann"))
        _ = state.reduce(.key(.character("0")))
        _ = state.reduce(.podcastsLoaded([Self.podcast("p1", "山海夜话", subscribed: true)]))
        _ = state.reduce(.key(.enter))
        let episodes = [Self.episode("3"), Self.episode("2", likes: 2, likeId: "2199023255553")]
        _ = state.reduce(.episodesLoaded(podcastID: "p1", episodes))
        #expect(AppView.hint(state).contains("f like · c comments"))
        _ = state.reduce(.key(.down))
        // f likes the selected episode, or takes my like back (the like's id goes with it).
        #expect(
            state.reduce(.key(.character("f"))) == [.setEpisodeLiked(episodeID: "2", likeID: "2199023255553")]
        )
        var unliked = episodes[1]
        unliked.likeId = nil
        unliked.likesCount = 1
        _ = state.reduce(.episodeChanged(unliked))
        #expect(state.podcasts.episodes[1].likesCount == 1 && state.podcasts.episodes[1].likeId == nil)
        #expect(state.toast?.message == "Unliked 第2集.")
        #expect(state.reduce(.key(.character("f"))) == [.setEpisodeLiked(episodeID: "2", likeID: nil)])
        // No song is liked instead, whatever plays.
        #expect(
            !state.reduce(.key(.character("f"))).contains { if case .setLiked = $0 { true } else { false } })

        // c opens its comments (read-only), f likes the episode from there too; Esc goes back to the episodes.
        #expect(state.reduce(.key(.character("c"))) == [.loadEpisodeComments(episodeID: "2")])
        #expect(state.podcasts.comments?.status == .loading)
        _ = state.reduce(
            .episodeCommentsLoaded(episodeID: "other", [Self.comment("9", "elsewhere")], total: 1))
        #expect(state.podcasts.comments?.comments.isEmpty == true)
        _ = state.reduce(
            .episodeCommentsLoaded(
                episodeID: "2", [Self.comment("8", "好听 #夜谈#"), Self.comment("7", "Nice")], total: 2))
        #expect(state.podcasts.comments?.status == .loaded)
        #expect(
            AppView.hint(state).contains("f like the episode") && AppView.hint(state).contains("Esc episodes")
        )
        var lines = AppView.body(&state, width: 80, height: 12, now: Date())
        ViewTest.expectShape(lines, width: 80, height: 12)
        #expect(lines[0].text.contains("Comments · 第2集 · 2"))
        #expect(lines.contains { $0.text.contains("好听 #夜谈#") })
        #expect(lines.contains { $0.text.contains("Bob") })
        _ = state.reduce(.key(.down))
        #expect(state.podcasts.comments?.list.selected == 1)
        #expect(state.reduce(.key(.character("f"))) == [.setEpisodeLiked(episodeID: "2", likeID: nil)])
        _ = state.reduce(.key(.escape))
        #expect(state.podcasts.comments == nil && state.podcasts.open?.id == "p1")
        lines = AppView.body(&state, width: 80, height: 12, now: Date())
        #expect(lines.contains { $0.text.contains("第2集") && $0.text.contains("1") })

        // A failure is the comments' own; signed out, liking asks to sign in.
        _ = state.reduce(.key(.character("c")))
        _ = state.reduce(.episodeCommentsFailed(episodeID: "2", "The server cannot be reached."))
        #expect(state.podcasts.comments?.status == .failed("The server cannot be reached."))
        var visitor = AppState(server: AppFixture.server)
        visitor.screen = .podcasts
        visitor.podcasts.open = Self.podcast("p1", "山海夜话", subscribed: nil)
        _ = visitor.reduce(.episodesLoaded(podcastID: "p1", episodes))
        #expect(visitor.reduce(.key(.character("f"))) == [])
        #expect(visitor.toast?.isError == true && visitor.toast?.message == "Sign in to like episodes.")
    }

    @Test func episodesLoadedForAnotherPodcastAreIgnored() {
        var state = AppState(server: AppFixture.server, signedIn: ("u1", "Ann"))
        _ = state.reduce(.key(.character("0")))
        _ = state.reduce(.podcastsLoaded([Self.podcast("p1", "Alpha", subscribed: nil)]))
        _ = state.reduce(.key(.enter))
        _ = state.reduce(.episodesLoaded(podcastID: "other", [Self.episode("1")]))
        #expect(state.podcasts.episodes.isEmpty)
        #expect(state.podcasts.episodesStatus == .loading)
    }

    @Test func speedStepsBetweenHalfAndThreeTimes() {
        var state = AppState(server: AppFixture.server, signedIn: ("u1", "Ann"))
        #expect(state.reduce(.key(.character(">"))) == [.setSpeed(1.25)])
        #expect(state.toast?.message == "Speed: 1.25×")
        for _ in 0..<10 { _ = state.reduce(.key(.character(">"))) }
        #expect(state.podcasts.speed == 3)
        for _ in 0..<20 { _ = state.reduce(.key(.character("<"))) }
        #expect(state.podcasts.speed == 0.5)
        #expect(PodcastsView.label(0.5) == "0.5×" && PodcastsView.label(2) == "2×")
    }

    @Test func subscribingNeedsASignedInPerson() {
        var state = AppState(server: AppFixture.server)
        state.screen = .podcasts
        _ = state.reduce(.podcastsLoaded([Self.podcast("p1", "Alpha", subscribed: nil)]))
        #expect(state.reduce(.key(.character("s"))) == [])
        #expect(state.toast?.isError == true)
    }

    @Test func theEpisodesShowWhereThePersonIsAndWhatPlays() {
        let podcast = Self.podcast("p1", "山海夜话", subscribed: true)
        let episodes = [
            Self.episode("3", progress: Self.place(40, false)),
            Self.episode("2", progress: Self.place(99, true)),
            Self.episode("1", duration: nil),
        ]
        #expect(PodcastsState.progressText(episodes[0]) == "40%")
        #expect(PodcastsState.progressText(episodes[1]) == "done")
        #expect(PodcastsState.progressText(episodes[2]) == "")
        let output = PodcastsView.episodes(
            of: podcast, episodes, playingID: EpisodeSong.id("3"), speed: 1.5, selected: 1, scrollOffset: 0,
            width: 80, height: 8)
        ViewTest.expectShape(output.lines, width: 80, height: 8)
        #expect(output.lines[0].text.contains("山海夜话 · 主播 · subscribed · speed 1.5×"))
        #expect(output.lines[1].text.contains("Likes"))
        #expect(output.lines[2].text.hasPrefix("▶ 第3集"))
        #expect(output.lines[2].text.hasSuffix("40%"))
        #expect(output.lines[3].allSatisfy { $0.style == .selected })
        #expect(output.lines[3].text.hasSuffix("done"))
        for (width, height) in ViewTest.sizes {
            ViewTest.expectShape(
                PodcastsView.episodes(
                    of: podcast, episodes, playingID: nil, speed: 1, selected: 0, scrollOffset: 0,
                    width: width,
                    height: height
                ).lines, width: width, height: height)
            ViewTest.expectShape(
                PodcastsView.podcasts(
                    [podcast, Self.podcast("p2", ViewTest.messy, subscribed: false)], selected: 1,
                    scrollOffset: 0, width: width, height: height
                ).lines, width: width, height: height)
        }
        let list = PodcastsView.podcasts([podcast], selected: 0, scrollOffset: 0, width: 80, height: 4)
        #expect(list.lines[1].text.hasPrefix("  ✓  山海夜话"))
        #expect(
            PodcastsView.podcasts([], selected: 0, scrollOffset: 0, width: 80, height: 4).lines
                .contains { $0.text.contains(PodcastsView.emptyPodcasts) })
    }

    @Test func anEpisodeIsASongOfItsOwnKind() {
        let song = EpisodeSong.song(Self.episode("7"))
        var state = AppState(server: AppFixture.server, signedIn: ("u1", "Ann"))
        // No lyrics are asked for an episode.
        #expect(state.reduce(.queueChanged(songs: [song], current: 0, mode: .list)) == [])
        #expect(state.playing.lyricStatus == "A podcast episode: no lyrics")
        #expect(EpisodeSong.episodeID(of: song) == "7")
        #expect(song.uri == "v1/episodes/7/stream")
        #expect(song.artistNames == "山海夜话")
        #expect(EpisodeSong.episodeID(of: AppFixture.song("7")) == nil)
    }
}
