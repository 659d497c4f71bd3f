/// KSC karaoke scripts; see `LyricParser.parseKSC`.
enum KSCParser {
    private struct SyntaxError: Error {
        var reason: String
    }

    /// Reads KSC statements over one line's characters.
    private struct Scanner {
        let chars: [Character]
        var index = 0

        var atEnd: Bool { index >= chars.count }
        var current: Character? { index < chars.count ? chars[index] : nil }

        mutating func skipSpaces() {
            while index < chars.count, chars[index].isWhitespace { index += 1 }
        }

        /// Consumes `word` compared case-insensitively.
        mutating func consume(_ word: String) -> Bool {
            let wanted = Array(word.lowercased())
            guard index + wanted.count <= chars.count else { return false }
            for offset in wanted.indices where chars[index + offset].lowercased() != String(wanted[offset]) {
                return false
            }
            index += wanted.count
            return true
        }

        mutating func identifier() -> String {
            let start = index
            while index < chars.count, chars[index].isLetter || chars[index].isNumber || chars[index] == "_" {
                index += 1
            }
            return String(chars[start..<index])
        }

        /// A `'...'` or `"..."` literal; `\x` stands for `x`, and a doubled quote for one quote.
        mutating func quoted() throws(SyntaxError) -> String {
            guard let quote = current, quote == "'" || quote == "\"" else {
                throw SyntaxError(reason: "Expected a quoted string.")
            }
            index += 1
            var value = ""
            while index < chars.count {
                let character = chars[index]
                if character == "\\", index + 1 < chars.count {
                    value.append(chars[index + 1])
                    index += 2
                } else if character == quote {
                    if index + 1 < chars.count, chars[index + 1] == quote {
                        value.append(quote)
                        index += 2
                    } else {
                        index += 1
                        return value
                    }
                } else {
                    value.append(character)
                    index += 1
                }
            }
            throw SyntaxError(reason: "A quoted string is not closed.")
        }

        /// `( 'a', "b", ... )`.
        mutating func arguments() throws(SyntaxError) -> [String] {
            skipSpaces()
            guard current == "(" else { throw SyntaxError(reason: "Expected '(' after the command.") }
            index += 1
            var values: [String] = []
            skipSpaces()
            if current == ")" {
                index += 1
                return values
            }
            while true {
                skipSpaces()
                values.append(try quoted())
                skipSpaces()
                if current == "," {
                    index += 1
                } else if current == ")" {
                    index += 1
                    return values
                } else {
                    throw SyntaxError(reason: "Expected ',' or ')' between the arguments.")
                }
            }
        }

        /// True when only `;`, spaces and a `//` comment remain.
        mutating func restIsEmpty() -> Bool {
            skipSpaces()
            if current == ";" { index += 1 }
            skipSpaces()
            return atEnd || (current == "/" && index + 1 < chars.count && chars[index + 1] == "/")
        }
    }

    private struct RawLine {
        var line: LyricLine
        var order: Int
    }

    static func parse(_ source: String) -> Lyric {
        var tags: [String: String] = [:]
        var issues: [LyricIssue] = []
        var lines: [RawLine] = []

        for (number, content) in sourceLines(source) {
            guard !content.isEmpty, !content.hasPrefix("//") else { continue }
            var scanner = Scanner(chars: Array(content))
            guard scanner.consume("karaoke") else {
                issues.append(
                    LyricIssue(
                        line: number,
                        reason: "Not a KSC statement; expected karaoke.add(...) or karaoke.tag(...)."))
                continue
            }
            scanner.skipSpaces()
            // karaoke := CreateKaraokeObject;
            if scanner.current == ":" || scanner.current == "=" { continue }
            guard scanner.current == "." else {
                issues.append(LyricIssue(line: number, reason: "Expected '.' after 'karaoke'."))
                continue
            }
            scanner.index += 1
            scanner.skipSpaces()
            let command = scanner.identifier()
            do throws(SyntaxError) {
                switch command.lowercased() {
                case "rows", "clear":
                    continue
                case "add":
                    let arguments = try scanner.arguments()
                    if let line = try addLine(arguments, number: number, issues: &issues) {
                        lines.append(RawLine(line: line, order: lines.count))
                    }
                case "tag":
                    let arguments = try scanner.arguments()
                    guard arguments.count == 2 else {
                        throw SyntaxError(reason: "karaoke.tag takes a key and a value.")
                    }
                    tags[arguments[0]] = arguments[1]
                default:
                    // karaoke.songname := '...'; karaoke.TimeOffset := 0;
                    scanner.skipSpaces()
                    guard !command.isEmpty, scanner.consume(":=") || scanner.consume("=") else {
                        throw SyntaxError(reason: "Unknown KSC command karaoke.\(command).")
                    }
                    scanner.skipSpaces()
                    if scanner.current == "'" || scanner.current == "\"" {
                        tags[command] = try scanner.quoted()
                    } else {
                        let start = scanner.index
                        while let character = scanner.current, character != ";" { scanner.index += 1 }
                        tags[command] = String(trimmed(scanner.chars[start..<scanner.index]))
                    }
                }
                if !scanner.restIsEmpty() {
                    issues.append(
                        LyricIssue(
                            line: number, reason: "Unexpected text after the statement; it was ignored."))
                }
            } catch {
                issues.append(LyricIssue(line: number, reason: error.reason))
            }
        }
        lines.sort { ($0.line.start, $0.order) < ($1.line.start, $1.order) }
        return Lyric(format: .ksc, tags: tags, lines: lines.map(\.line), issues: issues)
    }

    /// The line of a `karaoke.add(start, end, text, durations)`, or nil (with an issue) when it is unusable.
    private static func addLine(
        _ arguments: [String], number: Int, issues: inout [LyricIssue]
    ) throws(SyntaxError) -> LyricLine? {
        guard arguments.count == 3 || arguments.count == 4 else {
            throw SyntaxError(reason: "karaoke.add takes a start, an end, the text and the word durations.")
        }
        guard let start = clockMilliseconds(ArraySlice(arguments[0]), colonFraction: false) else {
            throw SyntaxError(reason: "Start time '\(arguments[0])' is not mm:ss.xxx or hh:mm:ss.xxx.")
        }
        guard let end = clockMilliseconds(ArraySlice(arguments[1]), colonFraction: false) else {
            throw SyntaxError(reason: "End time '\(arguments[1])' is not mm:ss.xxx or hh:mm:ss.xxx.")
        }
        guard end >= start else {
            throw SyntaxError(reason: "End time \(arguments[1]) is before start time \(arguments[0]).")
        }
        let (texts, unclosed) = splitWords(arguments[2])
        if unclosed {
            issues.append(
                LyricIssue(line: number, reason: "A '[' in the text is not closed; the rest is one word."))
        }
        let durations = arguments.count == 4 ? parseDurations(arguments[3]) : nil
        var words: [LyricWord] = []
        if let durations, durations.count == texts.count {
            var wordStart = start
            for (text, duration) in zip(texts, durations) {
                words.append(LyricWord(start: wordStart, duration: duration, text: text))
                wordStart = saturatingAdd(wordStart, duration)
            }
        } else {
            let reason: String
            if arguments.count == 3 {
                reason = "No word durations; the \(texts.count) words were spread evenly over the line."
            } else if let durations {
                reason =
                    "\(durations.count) word durations for \(texts.count) words; the words were spread evenly over the line."
            } else {
                reason = "Word durations are not comma-separated milliseconds; the words were spread evenly."
            }
            issues.append(LyricIssue(line: number, reason: reason))
            let total = end - start
            for (index, text) in texts.enumerated() {
                let wordStart = start + total * index / texts.count
                let wordEnd = start + total * (index + 1) / texts.count
                words.append(LyricWord(start: wordStart, duration: wordEnd - wordStart, text: text))
            }
        }
        return LyricLine(start: start, end: end, text: texts.joined(), words: words)
    }

    private static func parseDurations(_ text: String) -> [Int]? {
        let body = trimmed(Substring(text))
        if body.isEmpty { return [] }
        var values: [Int] = []
        for part in body.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = decimal(trimmed(part), maxDigits: 9) else { return nil }
            values.append(value)
        }
        return values
    }

    /// Splits KSC text into words; whitespace is appended to the word before it. Also tells whether a
    /// `[` was left unclosed.
    static func splitWords(_ text: String) -> ([String], Bool) {
        let chars = Array(text)
        var words: [String] = []
        var previousWasBracket = false
        var unclosed = false
        var index = 0
        while index < chars.count {
            let character = chars[index]
            if character == "[" {
                let close = chars[(index + 1)...].firstIndex(of: "]")
                if close == nil { unclosed = true }
                let end = close ?? chars.count
                let content = String(trimmed(chars[(index + 1)..<end]))
                if !content.isEmpty {
                    if previousWasBracket { words[words.count - 1].append(" ") }
                    words.append(content)
                    previousWasBracket = true
                }
                index = end + 1
            } else if character.isWhitespace {
                if !words.isEmpty { words[words.count - 1].append(character) }
                previousWasBracket = false
                index += 1
            } else if isAlphabetic(character) {
                let start = index
                while index < chars.count, isAlphabetic(chars[index]) { index += 1 }
                words.append(String(chars[start..<index]))
                previousWasBracket = false
            } else {
                words.append(String(character))
                previousWasBracket = false
                index += 1
            }
        }
        if !words.isEmpty {
            words[words.count - 1] = String(trimmed(Substring(words[words.count - 1])))
        }
        return (words, unclosed)
    }

    /// Letters, digits and punctuation of scripts written with spaces between words (Latin, Greek,
    /// Cyrillic), which group into one word; every other character is a word by itself.
    private static func isAlphabetic(_ character: Character) -> Bool {
        guard !character.isWhitespace, character != "[", let scalar = character.unicodeScalars.first else {
            return false
        }
        let value = scalar.value
        return value < 0x0530 || (0x1E00...0x1FFF).contains(value)
    }
}
