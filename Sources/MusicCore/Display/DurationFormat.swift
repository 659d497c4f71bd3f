extension DisplayFormat {
    /// What a time that cannot be shown (NaN, infinite, absurdly large) displays as.
    public static let unknownDuration = "--:--"

    /// A playback time as "m:ss" ("0:07", "3:05", "59:59"), or "h:mm:ss" from an hour up ("1:02:03").
    ///
    /// Fractions of a second are dropped (a player at 3.9 s shows "0:03", like the apps); negative
    /// times show "0:00"; NaN and infinite times show `unknownDuration`.
    public static func duration(seconds: Double) -> String {
        clock(seconds: seconds, withHours: false)
    }

    /// `duration(seconds:)` for a time in milliseconds (what `Song.duration` and `Lyric` use).
    public static func duration(milliseconds: Int) -> String {
        clock(max(0, milliseconds) / 1000, withHours: false)
    }

    /// "1:23 / 4:05": the position and the duration; the position has hours when the duration has
    /// them ("0:01:23 / 1:02:03") so that the two line up. An unknown duration shows "1:23 / --:--".
    public static func progress(position: Double, duration: Double) -> String {
        let withHours = duration.isFinite && duration >= 3600
        return "\(clock(seconds: position, withHours: withHours)) / \(self.duration(seconds: duration))"
    }

    private static func clock(seconds: Double, withHours: Bool) -> String {
        // Below 2^53 every whole second is exact and converts to Int without trapping.
        guard seconds.isFinite, seconds < 9_007_199_254_740_992 else { return unknownDuration }
        return clock(seconds > 0 ? Int(seconds) : 0, withHours: withHours)
    }

    private static func clock(_ totalSeconds: Int, withHours: Bool) -> String {
        let seconds = totalSeconds % 60
        let minutes = totalSeconds / 60
        guard withHours || minutes >= 60 else { return "\(minutes):\(twoDigits(seconds))" }
        return "\(minutes / 60):\(twoDigits(minutes % 60)):\(twoDigits(seconds))"
    }
}

func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
}
