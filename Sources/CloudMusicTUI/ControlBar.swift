import CloudMusicKit
import MusicCore

/// The global control bar shown on every screen: play state, what is playing, progress, loop, volume.
public enum ControlBar {
    /// What the bar shows.
    public struct State: Sendable, Equatable {
        public var title: String
        public var artist: String
        public var playback: PlaybackState
        /// Seconds played.
        public var position: Double
        /// Seconds in the song; NaN or 0 when unknown.
        public var duration: Double
        public var loopMode: LoopMode
        /// 0...100.
        public var volume: Int
        /// What keeps anything from playing (no sound output), shown in place of the progress.
        public var problem: String?

        public init(
            title: String, artist: String, playback: PlaybackState, position: Double, duration: Double,
            loopMode: LoopMode, volume: Int, problem: String? = nil
        ) {
            self.title = title
            self.artist = artist
            self.playback = playback
            self.position = position
            self.duration = duration
            self.loopMode = loopMode
            self.volume = volume
            self.problem = problem
        }
    }

    /// The bar as one row of exactly `width` columns.
    ///
    /// From 40 columns up everything shows: glyph, "Title - Artist" (cut with an ellipsis), a
    /// progress bar, "1:23 / 4:05", the loop mode and the volume. Below 40 the bar, loop and volume
    /// go first, then the title, then the times; what is left always fits.
    ///
    /// With a `problem` the bar is the glyph and that sentence, then the song's name when there is room: the
    /// progress, loop mode and volume mean nothing while nothing can play.
    public static func render(_ state: State, width: Int) -> Line {
        let width = max(0, width)
        let glyphSpan = StyledSpan(
            DisplayFormat.playStateGlyph(state.playback.rawValue),
            state.playback == .failed || state.problem != nil ? .error : .accent)
        let name = nowPlaying(state)
        if let problem = state.problem.map(TerminalWidth.sanitized), !problem.isEmpty {
            let text = TerminalWidth.truncate(problem, to: max(0, width - 2))
            var spans: Line = [glyphSpan, StyledSpan(" "), StyledSpan(text, .error)]
            let left = width - 2 - TerminalWidth.width(of: text) - 3
            if left >= 8, !name.isEmpty {
                spans.append(StyledSpan(" · " + TerminalWidth.truncate(name, to: left), .dim))
            }
            return spans.fitted(to: width)
        }
        let times = DisplayFormat.progress(position: state.position, duration: state.duration)
        let timesWidth = TerminalWidth.width(of: times)

        if width < 40 {
            // glyph, title, times; the times go when the title would get fewer than 6 columns.
            var spans: Line = [glyphSpan, StyledSpan(" ")]
            let room = width - 2 - timesWidth - 1
            if room >= 6 {
                spans.append(StyledSpan(TerminalWidth.pad(name, to: room), .normal))
                spans.append(StyledSpan(" "))
                spans.append(StyledSpan(times, .dim))
            } else {
                spans.append(StyledSpan(TerminalWidth.truncate(name, to: max(0, width - 2)), .normal))
            }
            return spans.fitted(to: width)
        }

        let short = width < 60
        let loop = "[" + DisplayFormat.loopMode(state.loopMode, short: short) + "]"
        let volume = short ? "\(clampedVolume(state.volume))%" : "Vol \(clampedVolume(state.volume))%"
        // glyph ␣ name ␣ bar ␣ times ␣ loop ␣ volume
        let fixed =
            1 + 1 + 1 + 1 + timesWidth + 1 + TerminalWidth.width(of: loop) + 1
            + TerminalWidth.width(of: volume)
        let flexible = width - fixed
        let nameWidth = min(TerminalWidth.width(of: name), max(flexible * 55 / 100, flexible - 60))
        let barWidth = flexible - nameWidth
        var spans: Line = [glyphSpan, StyledSpan(" ")]
        spans.append(StyledSpan(TerminalWidth.pad(name, to: nameWidth), .normal))
        spans.append(StyledSpan(" "))
        spans += progressBar(position: state.position, duration: state.duration, width: barWidth)
        spans.append(StyledSpan(" "))
        spans.append(StyledSpan(times, .normal))
        spans.append(StyledSpan(" "))
        spans.append(StyledSpan(loop, .dim))
        spans.append(StyledSpan(" "))
        spans.append(StyledSpan(volume, .dim))
        return spans.fitted(to: width)
    }

    /// A bar of `width` columns filled in proportion to `position / duration`.
    public static func progressBar(position: Double, duration: Double, width: Int) -> Line {
        let width = max(0, width)
        var fraction = duration.isFinite && duration > 0 && position.isFinite ? position / duration : 0
        fraction = min(1, max(0, fraction))
        let filled = Int((Double(width) * fraction).rounded(.down))
        return [
            StyledSpan(String(repeating: "━", count: filled), .progressFilled),
            StyledSpan(String(repeating: "─", count: width - filled), .progressEmpty),
        ].merged()
    }

    private static func nowPlaying(_ state: State) -> String {
        let title = TerminalWidth.sanitized(state.title)
        let artist = TerminalWidth.sanitized(state.artist)
        if title.isEmpty { return state.playback == .idle ? "Nothing playing" : "" }
        return artist.isEmpty ? title : "\(title) - \(artist)"
    }

    private static func clampedVolume(_ volume: Int) -> Int { min(100, max(0, volume)) }
}
