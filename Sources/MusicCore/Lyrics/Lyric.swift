/// One timed word (or syllable, or CJK character) of a word-timed lyric line.
public struct LyricWord: Codable, Sendable, Equatable {
    /// Start in milliseconds from the start of the song.
    public var start: Int
    /// Duration in milliseconds, never negative.
    public var duration: Int
    /// The word as displayed; a following space is part of the word, so a line's words joined give its text.
    public var text: String

    public init(start: Int, duration: Int, text: String) {
        self.start = start
        self.duration = duration
        self.text = text
    }

    /// End in milliseconds (`start + duration`, saturating).
    public var end: Int { saturatingAdd(start, duration) }
}

/// One displayed line of lyrics.
public struct LyricLine: Codable, Sendable, Equatable {
    /// Start in milliseconds from the start of the song.
    public var start: Int
    /// End in milliseconds: explicit in KSC; in LRC the next later line's start.
    public var end: Int
    /// The visible text (no timestamps, no brackets); empty for an instrumental gap.
    public var text: String
    /// The timed words, sorted by start; empty when the line is not word-timed.
    public var words: [LyricWord]

    public init(start: Int, end: Int, text: String, words: [LyricWord] = []) {
        self.start = start
        self.end = end
        self.text = text
        self.words = words
    }
}

/// The source syntax of a lyric.
public enum LyricFormat: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// `[mm:ss.xx]text`, optionally with enhanced `<mm:ss.xx>` word times.
    case lrc
    /// `karaoke.add('start', 'end', 'text', 'durations');` scripts.
    case ksc
}

/// A source line the parser skipped or had to repair.
public struct LyricIssue: Codable, Sendable, Equatable {
    /// The 1-based line number in the source text.
    public var line: Int
    /// What was wrong, in words a person can act on.
    public var reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }
}

/// Where playback is inside a lyric: the current line and word and how far through them.
public struct LyricPosition: Codable, Sendable, Equatable {
    /// Index into `Lyric.lines`.
    public var lineIndex: Int
    /// Index into the line's `words`; nil when the line is not word-timed or its first word has not started.
    public var wordIndex: Int?
    /// Progress through the current word, 0...1; through the line when the line is not word-timed.
    public var wordProgress: Double
    /// Progress from the line's start to its end, 0...1.
    public var lineProgress: Double

    public init(lineIndex: Int, wordIndex: Int?, wordProgress: Double, lineProgress: Double) {
        self.lineIndex = lineIndex
        self.wordIndex = wordIndex
        self.wordProgress = wordProgress
        self.lineProgress = lineProgress
    }
}

/// A parsed lyric: metadata tags, lines sorted by start, and the source lines that were skipped.
public struct Lyric: Codable, Sendable, Equatable {
    public var format: LyricFormat
    /// Metadata: LRC `[key:value]` tags (keys lowercased) and KSC `karaoke.tag('key', 'value')`.
    public var tags: [String: String]
    /// Lines sorted by start (the lookups rely on it); lines with equal starts keep source order.
    public var lines: [LyricLine]
    /// Problems found while parsing; never fatal.
    public var issues: [LyricIssue]

    public init(
        format: LyricFormat, tags: [String: String] = [:], lines: [LyricLine] = [],
        issues: [LyricIssue] = []
    ) {
        self.format = format
        self.tags = tags
        self.lines = lines
        self.issues = issues
    }

    /// The index of the line showing at `ms`, or nil before the first line; O(log n).
    ///
    /// This is the last line that has started; after its end it stays current until the next one starts.
    /// When several lines share that start (a translation under its original), the first of them.
    public func lineIndex(at ms: Int) -> Int? {
        let after = firstIndex(in: lines, where: { $0.start > ms })
        guard after > 0 else { return nil }
        let start = lines[after - 1].start
        return firstIndex(in: lines[..<after], where: { $0.start >= start })
    }

    /// The line and word at `ms` and the progress through each, or nil before the first line; O(log n).
    ///
    /// Between two words the earlier word is current with progress 1; before a line's first word,
    /// `wordIndex` is nil and `wordProgress` 0.
    public func position(at ms: Int) -> LyricPosition? {
        guard let index = lineIndex(at: ms) else { return nil }
        let line = lines[index]
        let lineProgress = lyricProgress(ms, from: line.start, to: line.end)
        guard !line.words.isEmpty else {
            return LyricPosition(
                lineIndex: index, wordIndex: nil, wordProgress: lineProgress, lineProgress: lineProgress)
        }
        let after = firstIndex(in: line.words, where: { $0.start > ms })
        guard after > 0 else {
            return LyricPosition(
                lineIndex: index, wordIndex: nil, wordProgress: 0, lineProgress: lineProgress)
        }
        let word = line.words[after - 1]
        return LyricPosition(
            lineIndex: index, wordIndex: after - 1,
            wordProgress: lyricProgress(ms, from: word.start, to: word.end),
            lineProgress: lineProgress)
    }
}

/// The first index in `elements` whose element satisfies `predicate`, which must be false then true.
func firstIndex<C: RandomAccessCollection>(
    in elements: C, where predicate: (C.Element) -> Bool
) -> C.Index {
    var low = elements.startIndex
    var count = elements.count
    while count > 0 {
        let half = count / 2
        let middle = elements.index(low, offsetBy: half)
        if predicate(elements[middle]) {
            count = half
        } else {
            low = elements.index(after: middle)
            count -= half + 1
        }
    }
    return low
}

/// How far `ms` is from `start` to `end`, 0 to 1 (shared with `LyricSync`, so their answers are identical).
func lyricProgress(_ ms: Int, from start: Int, to end: Int) -> Double {
    if end <= start { return ms >= start ? 1 : 0 }
    let value = (Double(ms) - Double(start)) / (Double(end) - Double(start))
    return min(1, max(0, value))
}

func saturatingAdd(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    if overflow { return b > 0 ? Int.max : Int.min }
    return sum
}
