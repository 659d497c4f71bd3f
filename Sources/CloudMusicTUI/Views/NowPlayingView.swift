import CloudMusicKit
import Foundation
import MusicCore

/// The now-playing screen: title and "artist — album" on top, the synced lyrics filling the middle,
/// and a progress line with the loop mode and volume at the bottom.
public enum NowPlayingView {
    /// What the screen shows.
    public struct State: Sendable, Equatable {
        public var title: String
        public var artist: String
        public var album: String
        public var playback: PlaybackState
        /// Seconds played.
        public var position: Double
        /// Seconds in the song; NaN or 0 when unknown.
        public var duration: Double
        public var loopMode: LoopMode
        /// 0...100.
        public var volume: Int
        public var lyric: Lyric?
        /// Shown instead of the lyrics while set ("Loading lyrics…", an error).
        public var lyricStatus: String?

        public init(
            title: String, artist: String, album: String, playback: PlaybackState, position: Double,
            duration: Double, loopMode: LoopMode, volume: Int, lyric: Lyric? = nil, lyricStatus: String? = nil
        ) {
            self.title = title
            self.artist = artist
            self.album = album
            self.playback = playback
            self.position = position
            self.duration = duration
            self.loopMode = loopMode
            self.volume = volume
            self.lyric = lyric
            self.lyricStatus = lyricStatus
        }
    }

    /// From this many rows up the title, "artist — album" and a blank row sit above the lyrics.
    public static let headerMinimumHeight = 8

    /// The screen: exactly `height` rows of exactly `width` columns.
    ///
    /// The last row is the progress line; every row between it and the header (dropped below
    /// `headerMinimumHeight` rows, so the lyrics keep the room) is the lyrics pane.
    public static func render(_ state: State, width: Int, height: Int) -> [Line] {
        let width = max(0, width)
        let height = max(0, height)
        guard height > 0 else { return [] }
        var lines: [Line] = []
        if height >= headerMinimumHeight {
            let title = TerminalWidth.sanitized(state.title)
            lines.append(
                title.isEmpty
                    ? ViewKit.centred("Nothing playing", width: width, style: .dim)
                    : ViewKit.centred(title, width: width, style: .accent))
            let subtitle = [state.artist, state.album].map(TerminalWidth.sanitized).filter { !$0.isEmpty }
                .joined(separator: " — ")
            lines.append(ViewKit.centred(subtitle, width: width, style: .dim))
            lines.append(Line.blank(width))
        }
        let lyricsHeight = height - lines.count - 1
        if let status = state.lyricStatus {
            for row in 0..<lyricsHeight {
                lines.append(
                    row == (lyricsHeight - 1) / 2
                        ? ViewKit.centred(TerminalWidth.sanitized(status), width: width, style: .dim)
                        : Line.blank(width))
            }
        } else {
            lines += LyricsView.render(
                lyric: state.lyric, milliseconds: milliseconds(state.position), width: width,
                height: lyricsHeight)
        }
        lines.append(progressLine(state, width: width))
        return ViewKit.screen(lines, width: width, height: height)
    }

    /// "▶ 1:23 ━━━━━━────── 4:05  [Loop]  Vol 80%" in exactly `width` columns.
    ///
    /// The loop mode and volume go when the bar would get fewer than 10 columns, the bar when it
    /// would get fewer than 3 (leaving "▶ 1:23 / 4:05"), then the glyph, then the duration.
    public static func progressLine(_ state: State, width: Int) -> Line {
        let width = max(0, width)
        // DisplayFormat.progress gives both times with matching hours ("0:01:23 / 1:02:03").
        let times = DisplayFormat.progress(position: state.position, duration: state.duration)
        let parts = times.components(separatedBy: " / ")
        let position = parts.first ?? ""
        let duration = parts.count > 1 ? parts[1] : ""
        let glyph = StyledSpan(
            DisplayFormat.playStateGlyph(state.playback.rawValue),
            state.playback == .failed ? .error : .accent)
        let volume = min(100, max(0, state.volume))
        let short = width < 60
        let tail =
            "  [" + DisplayFormat.loopMode(state.loopMode, short: short) + "]  "
            + (short ? "\(volume)%" : "Vol \(volume)%")
        let timesWidth = TerminalWidth.width(of: position) + TerminalWidth.width(of: duration)
        let withoutTail = 2 + timesWidth + 2
        let head: Line = [glyph, StyledSpan(" "), StyledSpan(position)]

        let fullBar = width - withoutTail - TerminalWidth.width(of: tail)
        if fullBar >= 10 {
            return
                (head + [StyledSpan(" ")]
                + ControlBar.progressBar(position: state.position, duration: state.duration, width: fullBar)
                + [StyledSpan(" "), StyledSpan(duration), StyledSpan(tail, .dim)]).fitted(to: width)
        }
        let bar = width - withoutTail
        if bar >= 3 {
            return
                (head + [StyledSpan(" ")]
                + ControlBar.progressBar(position: state.position, duration: state.duration, width: bar)
                + [StyledSpan(" "), StyledSpan(duration)]).fitted(to: width)
        }
        // Too narrow for a bar: the glyph goes before the times are cut.
        let both = position + " / " + duration
        if width >= 2 + TerminalWidth.width(of: both) {
            return (head + [StyledSpan(" / " + duration, .dim)]).fitted(to: width)
        }
        return [StyledSpan(width >= TerminalWidth.width(of: both) ? both : position)].fitted(to: width)
    }

    /// `seconds` as whole milliseconds; 0 for NaN and negative times.
    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int(min(seconds * 1000, Double(Int32.max)))
    }
}
