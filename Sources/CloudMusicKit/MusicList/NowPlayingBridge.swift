import Foundation
import MusicCore

/// Connects a music list to the platform's media session: what plays goes to the now-playing panel, and
/// the panel's commands (media keys, lock screen, MPRIS) come back to the list.
public final class NowPlayingBridge: Sendable {
    private let tasks: [Task<Void, Never>]

    /// How often the panel hears the position while nothing else changes, in seconds.
    public static let positionInterval = 1.0

    /// - Parameter artwork: the cover's URL for a song (its `icon` joined onto the server), or nil.
    public init(
        list: MusicListManager, session: any MediaSession,
        artwork: @escaping @Sendable (Song) -> URL? = { _ in nil }
    ) async {
        let events = await list.events()
        let commands = session.commands()
        let initial = await list.snapshot()
        tasks = [
            Task {
                var info = initial.current.map { Self.info(for: $0, artwork: artwork) }
                var shownID = initial.current?.id
                // Kept apart from `info`: a song that follows another gaplessly (or repeats) comes with no new
                // state, since the player never stopped playing.
                var playing = initial.state == .playing
                info?.position = initial.position
                info?.isPlaying = playing
                session.update(info)
                var lastSent = Date.distantPast
                for await event in events {
                    switch event {
                    case .currentChanged(let song):
                        info = song.map { Self.info(for: $0, artwork: artwork) }
                        shownID = song?.id
                        info?.isPlaying = playing
                    case .state(let state):
                        playing = state == .playing
                        info?.isPlaying = playing
                    case .progress(let position, let duration):
                        // Panels move the position themselves between updates; once a second is enough.
                        guard Date().timeIntervalSince(lastSent) >= Self.positionInterval else {
                            info?.position = position
                            if let duration { info?.duration = duration }
                            continue
                        }
                        // The list keeps only the newest events for a listener that falls behind (progress
                        // comes 20 times a second), so a state or a song change can be lost on a busy machine:
                        // once a second, what the panel shows is checked against the list itself.
                        let now = await list.snapshot()
                        playing = now.state == .playing
                        if now.current?.id != shownID {
                            info = now.current.map { Self.info(for: $0, artwork: artwork) }
                            shownID = now.current?.id
                        }
                        info?.position = position
                        if let duration { info?.duration = duration }
                        info?.isPlaying = playing
                    case .listChanged, .modeChanged, .skipped, .soundOutput:
                        continue
                    }
                    session.update(info)
                    lastSent = Date()
                }
            },
            Task {
                for await command in commands {
                    switch command {
                    case .play: try? await list.play()
                    case .pause: await list.pause()
                    case .togglePlayPause: try? await list.togglePlayPause()
                    case .next: try? await list.next()
                    case .previous: try? await list.previous()
                    case .seek(let seconds): await list.seek(to: seconds)
                    }
                }
            },
        ]
    }

    deinit { stop() }

    public func stop() {
        for task in tasks { task.cancel() }
    }

    static func info(for song: Song, artwork: (Song) -> URL?) -> NowPlayingInfo {
        NowPlayingInfo(
            title: song.title, artist: song.artistNames,
            album: song.album?.title, cover: artwork(song), duration: Double(song.duration) / 1000)
    }
}
