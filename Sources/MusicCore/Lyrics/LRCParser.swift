/// LRC and enhanced LRC; see `LyricParser.parseLRC`.
enum LRCParser {
    /// A word before offset and line ends are applied; `end` is nil while no later word tag closes it.
    private struct RawWord {
        var start: Int
        var end: Int?
        var text: String
    }

    private struct RawLine {
        var start: Int
        var text: String
        var words: [RawWord]
        var order: Int
    }

    static func parse(_ source: String) -> Lyric {
        var tags: [String: String] = [:]
        var issues: [LyricIssue] = []
        var rawLines: [RawLine] = []
        var offset = 0

        for (number, content) in sourceLines(source) {
            guard !content.isEmpty else { continue }
            let chars = Array(content)
            guard chars[0] == "[" else {
                issues.append(LyricIssue(line: number, reason: "Not a tag or a timed line (no leading '[')."))
                continue
            }
            var stamps: [Int] = []
            var index = 0
            var skip = false
            var isTag = false
            while index < chars.count, chars[index] == "[" {
                guard let close = chars[(index + 1)...].firstIndex(of: "]") else {
                    if stamps.isEmpty {
                        issues.append(
                            LyricIssue(line: number, reason: "Unclosed '[' at the start of the line."))
                        skip = true
                    }
                    break
                }
                let inner = trimmed(chars[(index + 1)..<close])
                if let first = inner.first, first.isASCII, first.isNumber {
                    guard let time = clockMilliseconds(inner, colonFraction: true) else {
                        let stamp = String(chars[index...close])
                        issues.append(
                            LyricIssue(
                                line: number,
                                reason:
                                    "Malformed timestamp \(stamp); expected [mm:ss], [mm:ss.xx] or [mm:ss:xx]."
                            ))
                        skip = true
                        break
                    }
                    stamps.append(time)
                    index = close + 1
                } else if stamps.isEmpty {
                    isTag = true
                    if let reason = readTag(chars, number: number, tags: &tags, offset: &offset) {
                        issues.append(LyricIssue(line: number, reason: reason))
                    }
                    break
                } else {
                    break  // text that starts with a bracket, such as "[00:01.00][Chorus] la"
                }
            }
            if skip || isTag { continue }
            let body = String(trimmed(chars[index...]))
            let (text, words, backwards) = splitWords(body, lineStart: stamps[0])
            if backwards {
                issues.append(
                    LyricIssue(
                        line: number, reason: "Word times go backwards; later words were moved forward."))
            }
            for stamp in stamps {
                let shift = stamp - stamps[0]
                let shifted = words.map {
                    RawWord(start: $0.start + shift, end: $0.end.map { $0 + shift }, text: $0.text)
                }
                rawLines.append(RawLine(start: stamp, text: text, words: shifted, order: rawLines.count))
            }
        }

        let shift = { (time: Int) in max(0, time - offset) }
        for index in rawLines.indices {
            rawLines[index].start = shift(rawLines[index].start)
            for word in rawLines[index].words.indices {
                rawLines[index].words[word].start = shift(rawLines[index].words[word].start)
                rawLines[index].words[word].end = rawLines[index].words[word].end.map(shift)
            }
        }
        rawLines.sort { ($0.start, $0.order) < ($1.start, $1.order) }

        var lines = [LyricLine](repeating: LyricLine(start: 0, end: 0, text: ""), count: rawLines.count)
        var nextStart: Int?
        for index in rawLines.indices.reversed() {
            let raw = rawLines[index]
            if index + 1 < rawLines.count, rawLines[index + 1].start > raw.start {
                nextStart = rawLines[index + 1].start
            }
            var end: Int
            if let nextStart {
                end = nextStart
            } else if raw.words.isEmpty {
                end = raw.start + LyricParser.defaultLastLineDuration
            } else {
                end = raw.start
                for word in raw.words {
                    end = max(end, word.end ?? (word.start + LyricParser.defaultLastWordDuration))
                }
            }
            let words = raw.words.map {
                LyricWord(start: $0.start, duration: max(0, ($0.end ?? end) - $0.start), text: $0.text)
            }
            lines[index] = LyricLine(start: raw.start, end: end, text: raw.text, words: words)
        }
        return Lyric(format: .lrc, tags: tags, lines: lines, issues: issues)
    }

    /// Reads a `[key:value]` line into `tags`; returns the reason when the line is not a valid tag.
    private static func readTag(
        _ chars: [Character], number: Int, tags: inout [String: String], offset: inout Int
    ) -> String? {
        var index = 1
        while index < chars.count, chars[index] == " " { index += 1 }
        let keyStart = index
        while index < chars.count, chars[index].isASCII, chars[index].isLetter { index += 1 }
        let key = String(chars[keyStart..<index]).lowercased()
        while index < chars.count, chars[index] == " " { index += 1 }
        guard !key.isEmpty, index < chars.count, chars[index] == ":" else {
            return "Not a tag or a timed line; tags look like [ar:Artist], timed lines like [01:02.50]text."
        }
        guard let close = chars.lastIndex(of: "]"), close > index else {
            return "Tag [\(key):...] has no closing ']'."
        }
        let value = String(trimmed(chars[(index + 1)..<close]))
        tags[key] = value
        if key == "offset" {
            var digits = Substring(value)
            var sign = 1
            if digits.first == "+" || digits.first == "-" {
                sign = digits.first == "-" ? -1 : 1
                digits = digits.dropFirst()
            }
            guard let amount = decimal(digits, maxDigits: 9) else {
                return
                    "Offset '\(value)' is not a whole number of milliseconds such as +500 or -250; ignored."
            }
            offset = sign * amount
        }
        return nil
    }

    /// Splits enhanced LRC text at `<mm:ss.xx>` word tags into the visible text and its words.
    ///
    /// Whitespace belongs to the word before it, so the words joined give the text. Text before the
    /// first tag starts at `lineStart`. Returns no words when the text has no word tags.
    private static func splitWords(_ body: String, lineStart: Int) -> (String, [RawWord], Bool) {
        let chars = Array(body)
        var segments: [(time: Int?, text: [Character])] = []
        var current: [Character] = []
        var currentTime: Int?
        var sawTag = false
        var index = 0
        while index < chars.count {
            if chars[index] == "<", index + 1 < chars.count, chars[index + 1].isASCII,
                chars[index + 1].isNumber,
                let close = chars[(index + 1)..<min(chars.count, index + 32)].firstIndex(of: ">"),
                let time = clockMilliseconds(chars[(index + 1)..<close], colonFraction: true)
            {
                segments.append((currentTime, current))
                current = []
                currentTime = time
                sawTag = true
                index = close + 1
            } else {
                current.append(chars[index])
                index += 1
            }
        }
        segments.append((currentTime, current))
        guard sawTag else { return (body, [], false) }

        var words: [RawWord] = []
        for segment in segments {
            if let time = segment.time, !words.isEmpty, words[words.count - 1].end == nil {
                words[words.count - 1].end = time
            }
            let leading = segment.text.prefix(while: \.isWhitespace)
            let rest = segment.text.dropFirst(leading.count)
            if !words.isEmpty { words[words.count - 1].text.append(contentsOf: leading) }
            if !rest.isEmpty {
                words.append(RawWord(start: segment.time ?? lineStart, end: nil, text: String(rest)))
            }
        }
        if !words.isEmpty {
            let last = words[words.count - 1].text
            words[words.count - 1].text = String(trimmed(Substring(last)))
        }
        var backwards = false
        for index in words.indices {
            if index > 0, words[index].start < words[index - 1].start {
                words[index].start = words[index - 1].start
                backwards = true
            }
            if let end = words[index].end, end < words[index].start {
                words[index].end = words[index].start
                backwards = true
            }
        }
        return (words.map(\.text).joined(), words, backwards)
    }
}
