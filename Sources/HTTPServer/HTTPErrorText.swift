/// The sentence of an `HTTPError`, kept as its English template and its values so that the application's
/// `ErrorRenderer` can write it in the reader's language: `"At most \(n) are allowed."` is the template
/// `At most %@ are allowed.` with one value. String literals and interpolations make one, so where the HTTP
/// layer refuses, the sentence reads as plain English. A `%` of the text is kept as `%%`.
public struct HTTPErrorText: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public enum Argument: Sendable {
        /// Copied as it is (a number, a size, a field's name).
        case verbatim(String)
        /// A phrase of its own, written in the same language ("a whole number").
        case phrase(HTTPErrorText)
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

    /// A phrase written where the type is not known from the context (`HTTPErrorText("a string")`).
    public init(_ text: HTTPErrorText) { self = text }

    /// Text shown as it is in every language (a message from elsewhere that has no template).
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

        public mutating func appendLiteral(_ literal: String) { template += HTTPErrorText.escaped(literal) }

        public mutating func appendInterpolation(_ value: some Any) {
            template += "%@"
            arguments.append(.verbatim(String(describing: value)))
        }

        public mutating func appendInterpolation(_ text: HTTPErrorText) {
            template += "%@"
            arguments.append(.phrase(text))
        }
    }

    /// The English text.
    public var description: String {
        var values = arguments.makeIterator()
        var out = ""
        var rest = Substring(template)
        while let percent = rest.firstIndex(of: "%") {
            out += rest[..<percent]
            let after = rest[rest.index(after: percent)...]
            if after.first == "@" {
                switch values.next() {
                case .verbatim(let text)?: out += text
                case .phrase(let phrase)?: out += phrase.description
                case nil: break
                }
            } else {
                out += "%"
            }
            rest = after.dropFirst()
        }
        return out + rest
    }

    static func escaped(_ literal: String) -> String {
        literal.contains("%") ? literal.replacingOccurrences(of: "%", with: "%%") : literal
    }
}
