/// Where a mention or topic sits in a text, in both units clients count in.
///
/// iOS text views (`NSString`, `NSRange`) count UTF-16 code units; most other platforms count
/// Unicode scalars (code points). Sending both spares every client a walk over the text, and the two
/// differ as soon as the text holds an emoji or a CJK character outside the BMP (e.g. U+20000).
public struct TextRange: Codable, Sendable, Hashable {
    /// UTF-16 code units before the range.
    public var utf16Offset: Int
    /// UTF-16 code units inside the range.
    public var utf16Length: Int
    /// Unicode scalars before the range.
    public var scalarOffset: Int
    /// Unicode scalars inside the range.
    public var scalarLength: Int

    public init(utf16Offset: Int, utf16Length: Int, scalarOffset: Int, scalarLength: Int) {
        self.utf16Offset = utf16Offset
        self.utf16Length = utf16Length
        self.scalarOffset = scalarOffset
        self.scalarLength = scalarLength
    }

    /// The same range in `text`, or nil when it does not fit there: out of bounds, splitting a
    /// character, or covering a different number of scalars (the text is not the one it was made for).
    ///
    /// Positions are taken from the UTF-16 offsets; the scalar length is checked against them.
    public func range(in text: String) -> Range<String.Index>? {
        let utf16 = text.utf16
        guard utf16Offset >= 0, utf16Length >= 0,
            let lowerUnit = utf16.index(utf16.startIndex, offsetBy: utf16Offset, limitedBy: utf16.endIndex),
            let upperUnit = utf16.index(lowerUnit, offsetBy: utf16Length, limitedBy: utf16.endIndex),
            let lower = String.Index(lowerUnit, within: text),
            let upper = String.Index(upperUnit, within: text)
        else { return nil }
        guard text.unicodeScalars[lower..<upper].count == scalarLength else { return nil }
        return lower..<upper
    }
}

/// A `@nickname` as written; whether anybody has that nickname is decided when it is resolved.
public struct ParsedMention: Sendable, Equatable {
    /// The nickname as written, without the '@'.
    public var nickname: String
    /// The whole `@nickname`, '@' included.
    public var range: TextRange

    public init(nickname: String, range: TextRange) {
        self.nickname = nickname
        self.range = range
    }
}

/// A `#topic#` as written.
public struct ParsedTopic: Sendable, Equatable {
    /// The title as written, without the '#'s.
    public var title: String
    /// The whole `#title#`, both '#'s included.
    public var range: TextRange

    public init(title: String, range: TextRange) {
        self.title = title
        self.range = range
    }
}

/// What a text mentions, each list in text order. Mentions and topics never overlap.
public struct ParsedRichText: Sendable, Equatable {
    public var mentions: [ParsedMention]
    public var topics: [ParsedTopic]

    public init(mentions: [ParsedMention] = [], topics: [ParsedTopic] = []) {
        self.mentions = mentions
        self.topics = topics
    }
}

/// A mention in a saved comment or moment: the person it names and where the `@nickname` is.
public struct Mention: Codable, Sendable, Equatable {
    public var userId: String
    /// The nickname as written in the text (without '@'), which may differ from the person's own
    /// spelling in case or width; the text at `range` is always "@" + `nickname`.
    public var nickname: String
    public var range: TextRange

    public init(userId: String, nickname: String, range: TextRange) {
        self.userId = userId
        self.nickname = nickname
        self.range = range
    }
}

/// A topic in a saved comment or moment: the topic record and where the `#title#` is.
public struct TopicMention: Codable, Sendable, Equatable {
    /// The topic record's id.
    public var id: String
    /// The title as written in the text (without '#'s).
    public var title: String
    public var range: TextRange

    public init(id: String, title: String, range: TextRange) {
        self.id = id
        self.title = title
        self.range = range
    }
}

extension ParsedRichText {
    /// The mentions whose nickname is one of `nicknames` (compared as written, so case matters);
    /// a mention of a nickname nobody has stays plain text.
    public func mentions(among nicknames: Set<String>) -> [ParsedMention] {
        mentions.filter { nicknames.contains($0.nickname) }
    }

    /// The mentions that name someone, as a saved text returns them; the others stay plain text.
    ///
    /// `userId` answers for a nickname as written, or nil when nobody has it; the server passes its
    /// own lookup, which folds case and width the way nickname uniqueness does. It is asked once per
    /// distinct nickname, so a person mentioned twice costs one lookup.
    public func resolvedMentions(userId: (String) throws -> String?) rethrows -> [Mention] {
        var known: [String: String?] = [:]
        var result: [Mention] = []
        for mention in mentions {
            let id: String?
            if let cached = known[mention.nickname] {
                id = cached
            } else {
                id = try userId(mention.nickname)
                known[mention.nickname] = id
            }
            if let id { result.append(Mention(userId: id, nickname: mention.nickname, range: mention.range)) }
        }
        return result
    }

    /// The topics that have a record, as a saved text returns them; the others stay plain text.
    ///
    /// `topicId` answers for a title as written (finding or creating the record as the server sees
    /// fit), or nil to leave the topic as plain text. It is asked once per distinct title.
    public func resolvedTopics(topicId: (String) throws -> String?) rethrows -> [TopicMention] {
        var known: [String: String?] = [:]
        var result: [TopicMention] = []
        for topic in topics {
            let id: String?
            if let cached = known[topic.title] {
                id = cached
            } else {
                id = try topicId(topic.title)
                known[topic.title] = id
            }
            if let id { result.append(TopicMention(id: id, title: topic.title, range: topic.range)) }
        }
        return result
    }
}

/// Finds `@nickname` mentions and `#topic#` topics of comments and moments in one left-to-right
/// pass, O(n) in the text. Server and clients run this same parser, so what is highlighted while
/// typing is exactly what the server resolves on save.
///
/// The text is read in characters (grapheme clusters), so an emoji, a ZWJ family or a letter with
/// combining marks is never split, and lengths count what a person sees, as nickname rules do.
///
/// Mentions:
/// - Start at '@' at the start of the text, or after anything but a letter or digit of a script
///   written with spaces (Latin, Cyrillic, ...), '_' or '-'. So `ann@example.com` and `ann@bob` are
///   not mentions, while `谢谢@张三` (CJK needs no space), `(@ann)`, `🎉@ann` and `#歌#@ann` are.
///   An '@' right after a mention starts one too: `@ann@bob` is two.
/// - Run until whitespace, punctuation (ASCII, CJK and full-width: `，。！？、：；“”‘’（）【】《》…`),
///   another '@' or '#', a control or invisible character (those a nickname cannot hold), or the
///   end. '_', '-' and the middle dots `·` `・` stay inside, as in `jean-luc` and `克里斯·埃文斯`.
///   A nickname with spaces or other punctuation therefore cannot be mentioned.
/// - Hold 1 to 32 characters: a lone '@' is plain text, and a longer run is no mention at all
///   (cutting it at 32 could name somebody else; no nickname is that long).
/// - Only ASCII '@' counts; full-width '＠' is punctuation, and an '@' carrying a combining mark is
///   not an '@'.
///
/// Topics:
/// - `#title#` with 1 to 32 characters inside, no newline, tab or invisible character, not starting or
///   ending with whitespace (so Twitter-style `#a #b` is not a topic); spaces inside are fine.
/// - '#'s pair left to right: a '#' closes the nearest open one, so `#a#b#c#` is `#a#` and `#c#`,
///   and nothing nests. When a '#' cannot open a topic (`##`, unclosed, too long, a newline before
///   the next '#') it is plain text and the next '#' may open one: `##a#` holds the topic `#a#`,
///   `###` holds none.
/// - Inside a topic nothing else is looked for: `#@ann#` is a topic titled "@ann".
/// - Only a lone ASCII '#' counts; the keycap emoji #️⃣ and full-width '＃' do not.
public enum RichTextParser {
    /// The longest nickname, and the longest topic title, in characters.
    public static let maxLength = 32

    public static func parse(_ text: String) -> ParsedRichText {
        let units = Unit.units(of: text)
        let count = units.count - 1  // the last unit marks the end
        var result = ParsedRichText()
        var lastMentionEnd = -1
        var i = 0
        while i < count {
            switch units[i].kind {
            case .hash:
                if let close = topicClose(units, opening: i, count: count) {
                    result.topics.append(
                        ParsedTopic(
                            title: String(text[units[i + 1].index..<units[close].index]),
                            range: range(units, i, close + 1)))
                    i = close + 1
                    continue
                }
            case .at:
                let starts = i == 0 || units[i - 1].kind != .word || lastMentionEnd == i
                if starts, let end = mentionEnd(units, at: i, count: count) {
                    result.mentions.append(
                        ParsedMention(
                            nickname: String(text[units[i + 1].index..<units[end].index]),
                            range: range(units, i, end)))
                    lastMentionEnd = end
                    i = end
                    continue
                }
            default:
                break
            }
            i += 1
        }
        return result
    }

    /// Where the nickname after the '@' at `at` ends, or nil when there is none of 1-32 characters.
    private static func mentionEnd(_ units: [Unit], at: Int, count: Int) -> Int? {
        var j = at + 1
        while j < count, units[j].kind == .word || units[j].kind == .other {
            j += 1
            if j - at - 1 > maxLength { return nil }
        }
        return j > at + 1 ? j : nil
    }

    /// The '#' that closes a topic opened at `opening`, or nil when it opens none. Looks at most 33
    /// characters ahead, which keeps the whole pass linear.
    private static func topicClose(_ units: [Unit], opening: Int, count: Int) -> Int? {
        var j = opening + 1
        while j < count {
            switch units[j].kind {
            case .hash:
                let first = opening + 1
                let last = j - 1
                guard last >= first, units[first].kind != .space, units[last].kind != .space else {
                    return nil
                }
                return j
            case .newline, .invisible:
                return nil
            default:
                if j - opening >= maxLength + 1 { return nil }
                j += 1
            }
        }
        return nil
    }

    private static func range(_ units: [Unit], _ start: Int, _ end: Int) -> TextRange {
        TextRange(
            utf16Offset: units[start].utf16Offset,
            utf16Length: units[end].utf16Offset - units[start].utf16Offset,
            scalarOffset: units[start].scalarOffset,
            scalarLength: units[end].scalarOffset - units[start].scalarOffset)
    }
}

/// One character of the text, classified once, with where it starts in both units.
private struct Unit {
    enum Kind {
        case at, hash
        case newline
        /// Visible whitespace: spaces, including no-break and ideographic ones.
        case space
        /// Control and invisible characters, which nicknames refuse.
        case invisible
        /// Ends a mention and may precede one.
        case punctuation
        /// A letter or digit of a script written with spaces, '_' or '-': part of a nickname, and an
        /// '@' after it is an address, not a mention.
        case word
        /// Part of a nickname that an '@' may follow directly: CJK, emoji, symbols, middle dots.
        case other
    }

    var index: String.Index
    var kind: Kind
    var utf16Offset: Int
    var scalarOffset: Int

    /// The text's characters and one more unit marking its end.
    static func units(of text: String) -> [Unit] {
        var units: [Unit] = []
        units.reserveCapacity(text.utf8.count / 2 + 1)
        var utf16 = 0
        var scalars = 0
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(after: index)
            let character = text[index]
            units.append(
                Unit(index: index, kind: kind(of: character), utf16Offset: utf16, scalarOffset: scalars))
            utf16 += character.utf16.count
            scalars += character.unicodeScalars.count
            index = next
        }
        units.append(Unit(index: text.endIndex, kind: .space, utf16Offset: utf16, scalarOffset: scalars))
        return units
    }

    static func kind(of character: Character) -> Kind {
        let scalars = character.unicodeScalars
        let first = scalars.first!
        let second = scalars.dropFirst().first
        if second == nil {
            if first == "@" { return .at }
            if first == "#" { return .hash }
        }
        if character.isNewline { return .newline }
        // Before whitespace, so a tab is refused inside a topic as it is in a nickname.
        if scalars.contains(where: isInvisible) { return .invisible }
        if character.isWhitespace { return .space }
        // Keycaps (#️⃣, 1️⃣) and emoji-styled symbols are emoji, whatever their first scalar is.
        if second == "\u{FE0F}" || second == "\u{20E3}" { return .other }
        let value = first.value
        if first.isASCII {
            switch first {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-": return .word
            default: return .punctuation
            }
        }
        switch value {
        case 0x00B7, 0x30FB, 0xFF65:  // middle dots, as in transliterated names
            return .other
        case 0xFF0D, 0xFF3F:  // full-width '-' and '_', which nickname keys fold to ASCII
            return .other
        case 0xFF01...0xFF5E where !(first.properties.isAlphabetic || first.properties.numericType != nil):
            return .punctuation  // full-width ASCII punctuation and symbols: ＠＃！（）＋～ ...
        default:
            break
        }
        switch first.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return .punctuation
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return .word  // a mark with nothing under it still belongs to the word before
        default:
            break
        }
        if first.properties.isAlphabetic || first.properties.numericType != nil {
            return SearchText.isCJK(first) || first.properties.isIdeographic ? .other : .word
        }
        return .other
    }

    /// What nicknames refuse (see the server's account rules): controls, separators, private use,
    /// unassigned code points, text-direction controls, and invisible format characters other than
    /// the zero-width joiner and the tag characters emoji need.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) { return true }
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
            return true
        case .format:
            return !(value == 0x200D || (0xE0020...0xE007F).contains(value))
        default:
            return false
        }
    }
}
