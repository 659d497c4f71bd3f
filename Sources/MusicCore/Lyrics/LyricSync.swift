/// Follows playback through a lyric: the current line and word and the progress through each.
///
/// Gives exactly what `Lyric.position(at:)` gives, but cheap enough to call every frame: it keeps
/// the last answer and checks it, then the next line or word, before falling back to the binary
/// search (after a seek). A value type, so each player or view owns its copy without locks.
///
///     var sync = LyricSync(lyric: lyric)
///     let position = sync.update(seconds: playbackTime)  // on every frame
public struct LyricSync: Sendable {
    /// The lyric being followed.
    public let lyric: Lyric
    /// The answer of the last `update`; nil before the first line, or when the lyric has no lines.
    public private(set) var position: LyricPosition?

    /// The current line, or -1 before the first line.
    private var lineIndex = -1
    /// The first line that starts later than the current line (`lines.count` when none does).
    private var nextLineIndex = 0
    /// The current word of the current line, or -1 before its first word.
    private var wordIndex = -1

    public init(lyric: Lyric) {
        self.lyric = lyric
    }

    /// Moves to `ms` (milliseconds from the start of the song, as in `Lyric`) and returns the position.
    ///
    /// O(1) when time moves forward by less than a line or a word per call; O(log n) otherwise.
    @discardableResult
    public mutating func update(milliseconds ms: Int) -> LyricPosition? {
        let lines = lyric.lines
        if !lineIsCurrent(at: ms, in: lines) {
            if !advanceLine(to: ms, in: lines) {
                seekLine(to: ms, in: lines)
            }
            wordIndex = -1
        }
        guard lineIndex >= 0 else {
            position = nil
            return nil
        }
        let lineProgress = lyricProgress(ms, from: lines[lineIndex].start, to: lines[lineIndex].end)
        let words = lines[lineIndex].words
        guard !words.isEmpty else {
            position = LyricPosition(
                lineIndex: lineIndex, wordIndex: nil, wordProgress: lineProgress, lineProgress: lineProgress)
            return position
        }
        if !wordIsCurrent(wordIndex, at: ms, in: words) {
            if wordIsCurrent(wordIndex + 1, at: ms, in: words) {
                wordIndex += 1
            } else {
                wordIndex = firstIndex(in: words, where: { $0.start > ms }) - 1
            }
        }
        guard wordIndex >= 0 else {
            position = LyricPosition(
                lineIndex: lineIndex, wordIndex: nil, wordProgress: 0, lineProgress: lineProgress)
            return position
        }
        let word = words[wordIndex]
        position = LyricPosition(
            lineIndex: lineIndex, wordIndex: wordIndex,
            wordProgress: lyricProgress(ms, from: word.start, to: word.end), lineProgress: lineProgress)
        return position
    }

    /// `update(milliseconds:)` for a player's time in seconds; fractions of a millisecond are dropped.
    ///
    /// NaN (a player that has not started) counts as 0; infinities clamp to the ends of the song.
    @discardableResult
    public mutating func update(seconds: Double) -> LyricPosition? {
        let ms = (seconds * 1000).rounded(.down)
        if ms.isNaN { return update(milliseconds: 0) }
        // Int(_:) traps outside Int's range, and 2^63 (what Double makes of Int.max) is outside it.
        if ms >= 9_223_372_036_854_775_807.0 { return update(milliseconds: .max) }
        if ms <= -9_223_372_036_854_775_808.0 { return update(milliseconds: .min) }
        return update(milliseconds: Int(ms))
    }

    /// Whether the cached line is still the one `Lyric.lineIndex(at:)` gives for `ms`.
    @inline(__always)
    private func lineIsCurrent(at ms: Int, in lines: [LyricLine]) -> Bool {
        (lineIndex < 0 || lines[lineIndex].start <= ms)
            && (nextLineIndex == lines.count || ms < lines[nextLineIndex].start)
    }

    /// Moves to the next line when `ms` lies in it (normal playback); false when it does not.
    private mutating func advanceLine(to ms: Int, in lines: [LyricLine]) -> Bool {
        let candidate = nextLineIndex
        guard candidate < lines.count, lines[candidate].start <= ms else { return false }
        let start = lines[candidate].start
        var next = candidate + 1
        if next < lines.count, lines[next].start <= start {
            // Lines sharing a start (a translation under its original): rare, so a search is fine.
            next = firstIndex(in: lines[next...], where: { $0.start > start })
        }
        guard next == lines.count || ms < lines[next].start else { return false }
        lineIndex = candidate
        nextLineIndex = next
        return true
    }

    /// Finds the line by binary search, as `Lyric.lineIndex(at:)` does.
    private mutating func seekLine(to ms: Int, in lines: [LyricLine]) {
        let after = firstIndex(in: lines, where: { $0.start > ms })
        nextLineIndex = after
        guard after > 0 else {
            lineIndex = -1
            return
        }
        let start = lines[after - 1].start
        if after == 1 || lines[after - 2].start < start {
            lineIndex = after - 1  // the usual case: no other line shares the start
        } else {
            lineIndex = firstIndex(in: lines[..<after], where: { $0.start >= start })
        }
    }

    /// Whether `index` is the last word that has started at `ms` (-1: no word has started).
    @inline(__always)
    private func wordIsCurrent(_ index: Int, at ms: Int, in words: [LyricWord]) -> Bool {
        guard index < words.count else { return false }
        return (index < 0 || words[index].start <= ms)
            && (index + 1 == words.count || ms < words[index + 1].start)
    }
}
