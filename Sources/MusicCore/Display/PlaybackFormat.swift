extension DisplayFormat {
    /// The loop mode as players label it: "Loop", "One", "Shuffle"; one character each when `short`.
    public static func loopMode(_ mode: LoopMode, short: Bool = false) -> String {
        switch mode {
        case .list: short ? "L" : "Loop"
        case .single: short ? "1" : "One"
        case .shuffle: short ? "S" : "Shuffle"
        }
    }

    /// The one-column glyph of a play state, by its name (a player's `PlaybackState` raw value):
    /// ▶ playing, ‖ paused, … loading, ! failed, and ■ for anything else (idle, ended).
    public static func playStateGlyph(_ state: String) -> String {
        switch state {
        case "playing": "▶"
        case "paused": "‖"
        case "loading": "…"
        case "failed": "!"
        default: "■"
        }
    }
}
