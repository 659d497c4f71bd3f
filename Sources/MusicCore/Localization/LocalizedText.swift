/// A sentence for a person, kept as its English template and its arguments so that it can be written in the
/// reader's language: `"'\(name)' must be an id."` is the template `'%@' must be an id.` with `["name"]`.
///
/// String literals and interpolations make one, so a call such as `ServiceError.invalid("...")` reads as
/// plain English in the code. The template is also the key of the other languages' tables
/// (`ChineseText.sentences`). An interpolated value is copied as it is (ids, numbers, field names), unless
/// it is itself a `LocalizedText` (written in the same language) or marked `word:` (a noun from
/// `ChineseText.words`, such as the kind of thing an id names). A `%` in the text is kept as `%%`.
public struct LocalizedText: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public indirect enum Argument: Sendable, Hashable {
        /// Copied as it is.
        case verbatim(String)
        /// A noun, translated through the language's word list when it has it.
        case word(String)
        /// A sentence or phrase of its own, written in the same language.
        case text(LocalizedText)
    }

    /// The English text with `%@` for each argument, in order.
    public private(set) var template: String
    public private(set) var arguments: [Argument]

    public init(stringLiteral value: String) {
        template = Self.escaped(value)
        arguments = []
    }

    public init(stringInterpolation: StringInterpolation) {
        template = stringInterpolation.template
        arguments = stringInterpolation.arguments
    }

    /// A phrase written where the type is not known from the context (`LocalizedText("phone number")`).
    public init(_ text: LocalizedText) { self = text }

    /// A template made elsewhere (the HTTP layer's sentences), in this type's form: `%@` for each argument,
    /// `%%` for a percent sign.
    public init(template: String, arguments: [Argument]) {
        self.template = template
        self.arguments = arguments
    }

    /// Text that is shown as it is in every language (a message from elsewhere that has no template).
    public init(verbatim text: String) {
        template = "%@"
        arguments = [.verbatim(text)]
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var template = ""
        var arguments: [Argument] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            template.reserveCapacity(literalCapacity + interpolationCount * 2)
        }

        public mutating func appendLiteral(_ literal: String) { template += LocalizedText.escaped(literal) }

        public mutating func appendInterpolation(_ value: some Any) {
            template += "%@"
            arguments.append(.verbatim(String(describing: value)))
        }

        public mutating func appendInterpolation(_ text: LocalizedText) {
            template += "%@"
            arguments.append(.text(text))
        }

        /// A noun that the reader's language has its own word for.
        public mutating func appendInterpolation(word: String) {
            template += "%@"
            arguments.append(.word(word))
        }
    }

    /// Two sentences as one (`"First part. " + "Second part."` in code that wraps long lines).
    public static func + (lhs: LocalizedText, rhs: LocalizedText) -> LocalizedText {
        var joined = lhs
        joined.template += rhs.template
        joined.arguments += rhs.arguments
        return joined
    }

    /// The text in `language`; English when the language has no entry for this template.
    public func rendered(in language: Language) -> String {
        switch language {
        case .english: return Self.fill(template, arguments, in: .english)
        case .chinese:
            guard let translated = ChineseText.sentences[template] else {
                return Self.fill(template, arguments, in: .chinese)
            }
            return Self.fill(translated, arguments, in: .chinese)
        }
    }

    /// The English text.
    public var description: String { rendered(in: .english) }

    static func escaped(_ literal: String) -> String {
        literal.contains("%") ? literal.replacingOccurrences(of: "%", with: "%%") : literal
    }

    /// `format` with each `%@` replaced by the next argument and each `%N$@` by the Nth (so a translation may
    /// reorder or leave out arguments); `%%` is a percent sign.
    static func fill(_ format: String, _ arguments: [Argument], in language: Language) -> String {
        guard format.contains("%") else { return format }
        var out = ""
        var next = 0
        var rest = Substring(format)
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            var after = rest[rest.index(after: percent)...]
            if after.first == "%" {
                out += "%"
                rest = after.dropFirst()
                continue
            }
            var index = next
            let digits = after.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, after.dropFirst(digits.count).first == "$", let position = Int(digits) {
                index = position - 1
                after = after.dropFirst(digits.count + 1)
            } else {
                next += 1
            }
            guard after.first == "@" else {
                out += "%"
                rest = after
                continue
            }
            if arguments.indices.contains(index) { out += arguments[index].rendered(in: language) }
            rest = after.dropFirst()
        }
        return out + rest
    }
}

extension LocalizedText.Argument {
    func rendered(in language: Language) -> String {
        switch self {
        case .verbatim(let text): text
        case .word(let word): language == .chinese ? ChineseText.words[word] ?? word : word
        case .text(let text): text.rendered(in: language)
        }
    }
}
