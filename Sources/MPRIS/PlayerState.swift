import CloudMusicKit
import Foundation

/// What the service knows about the player, and the MPRIS properties that follow from it.
struct PlayerState: Sendable, Equatable {
    var info: NowPlayingInfo?
    /// When `info` arrived, in monotonic seconds: Position moves on from there while playing.
    var updatedAt: Double = 0
    var volume: Double = 1
    var loopStatus: String = "None"
    var shuffle: Bool = false

    static let loopStatuses: Set<String> = ["None", "Track", "Playlist"]
    /// A jump of more than this from where the position should be, in seconds, is a seek.
    static let seekTolerance = 2.0

    var playbackStatus: String {
        guard let info else { return "Stopped" }
        return info.isPlaying ? "Playing" : "Paused"
    }

    /// Where playback is at `now`: the last reported position, moved on by the time since while playing.
    func position(at now: Double) -> Double {
        guard let info else { return 0 }
        var position = info.position
        if info.isPlaying { position += max(0, now - updatedAt) }
        if let duration = info.duration, duration.isFinite, duration >= 0 {
            position = min(position, duration)
        }
        return max(0, position)
    }

    var trackID: String? { info.map(Self.trackID(for:)) }

    /// An object path that names the track: readable for people, with a hash so that titles that sanitize
    /// alike still differ. Only title, artist and album count, so a duration learned later keeps the id.
    static func trackID(for info: NowPlayingInfo) -> String {
        let readable = String(
            String.UnicodeScalarView(
                info.title.unicodeScalars.prefix(32).map {
                    $0.isASCII && (CharacterSet.alphanumerics.contains($0)) ? $0 : "_"
                }))
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in [info.title, info.artist ?? "", info.album ?? ""].joined(separator: "\u{1F}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "/org/cloudmusic/track/" + readable + "_" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    var metadata: DBusValue {
        guard let info, let trackID else { return .vardict([]) }
        var entries: [(String, DBusValue)] = [
            ("mpris:trackid", .objectPath(trackID)),
            ("xesam:title", .string(info.title)),
        ]
        if let artist = info.artist, !artist.isEmpty {
            // The apps join several artists with " / " (Song.artistNames); MPRIS wants them as a list.
            let names = artist.components(separatedBy: " / ").filter { !$0.isEmpty }
            entries.append(("xesam:artist", .strings(names)))
        }
        if let album = info.album, !album.isEmpty { entries.append(("xesam:album", .string(album))) }
        if let duration = info.duration, let micros = Self.microseconds(duration) {
            entries.append(("mpris:length", .int64(micros)))
        }
        if let cover = info.cover { entries.append(("mpris:artUrl", .string(cover.absoluteString))) }
        return .vardict(entries)
    }

    /// The org.mpris.MediaPlayer2.Player properties; Position only when asked, since it never signals.
    func playerProperties(at now: Double, includingPosition: Bool = true) -> [(String, DBusValue)] {
        var properties: [(String, DBusValue)] = [
            ("PlaybackStatus", .string(playbackStatus)),
            ("LoopStatus", .string(loopStatus)),
            ("Rate", .double(1)),
            ("Shuffle", .boolean(shuffle)),
            ("Metadata", metadata),
            ("Volume", .double(volume)),
        ]
        if includingPosition {
            properties.append(("Position", .int64(Self.microseconds(position(at: now)) ?? 0)))
        }
        properties += [
            ("MinimumRate", .double(1)),
            ("MaximumRate", .double(1)),
            ("CanGoNext", .boolean(true)),
            ("CanGoPrevious", .boolean(true)),
            ("CanPlay", .boolean(true)),
            ("CanPause", .boolean(true)),
            ("CanSeek", .boolean(true)),
            ("CanControl", .boolean(true)),
        ]
        return properties
    }

    /// The Player properties whose values differ from `old`'s, for PropertiesChanged.
    func changedProperties(since old: PlayerState) -> [(String, DBusValue)] {
        let before = Dictionary(uniqueKeysWithValues: old.playerProperties(at: 0, includingPosition: false))
        return playerProperties(at: 0, includingPosition: false).filter { before[$0.0] != $0.1 }
    }

    /// Seconds as MPRIS's microseconds; nil for values that are not a time.
    static func microseconds(_ seconds: Double) -> Int64? {
        guard seconds.isFinite else { return nil }
        return Int64(max(0, min(seconds * 1_000_000, Double(Int64.max / 2))))
    }
}
