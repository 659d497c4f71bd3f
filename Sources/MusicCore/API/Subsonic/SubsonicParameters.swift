/// The typed parameters of a Subsonic method, read from a request's query and form (repeated names kept).
///
/// A conforming struct starts from `init()` (its defaults) and lists its fields once, as the v1 `APIParameters`
/// do: that list is how the server reads and checks them before a handler runs (a handler never reads a
/// parameter by name) and how the declarations are documented.
public protocol SubsonicParameterSet: Sendable {
    init()
    static var fields: [SubsonicField<Self>] { get }
}

/// No parameters of its own (the common ones, `u`, `v`, `c`, `f`..., are read by the router).
public struct NoSubsonicParameters: SubsonicParameterSet, Equatable {
    public init() {}
    public static var fields: [SubsonicField<Self>] { [] }
}

/// Why a parameter was refused, in the words the Subsonic error codes need: missing is 10, an id that names
/// nothing is 70, anything else 0.
public enum SubsonicParameterError: Error, Equatable, Sendable {
    case missing(String)
    case invalid(String)
    /// What kind of thing was not found ("song", "item").
    case notFound(String)
}

extension SubsonicParameterSet {
    /// Reads every field: `first` gives a name's first non-empty value, `all` every non-empty one in order.
    public static func read(first: (String) -> String?, all: (String) -> [String]) throws -> Self {
        var value = Self()
        for field in fields {
            let texts = field.description.isRepeated ? all(field.name) : first(field.name).map { [$0] } ?? []
            if texts.isEmpty {
                if field.description.isRequired { throw SubsonicParameterError.missing(field.name) }
                continue
            }
            try field.read(texts, &value)
        }
        return value
    }
}

/// One field of a `SubsonicParameterSet`: how it is documented and how its text is read into the struct.
public struct SubsonicField<Root>: Sendable {
    public let description: SubsonicParameter
    let read: @Sendable ([String], inout Root) throws -> Void

    public var name: String { description.name }

    init(_ description: SubsonicParameter, read: @escaping @Sendable ([String], inout Root) throws -> Void) {
        self.description = description
        self.read = read
    }

    // MARK: Text

    /// Text of at most `maxLength` characters, as sent.
    public static func text(
        _ name: String, _ keyPath: WritableKeyPath<Root, String?>, maxLength: Int = 1_000, _ doc: String = ""
    ) -> Self {
        let path = KeyPathBox(keyPath)
        return Self(.text(name, maxLength: maxLength, doc)) { texts, root in
            root[keyPath: path.path] = try checkedText(texts[0], name, maxLength)
        }
    }

    /// Required text.
    public static func text(
        _ name: String, _ keyPath: WritableKeyPath<Root, String>, maxLength: Int = 1_000, required: Bool,
        _ doc: String = ""
    ) -> Self {
        let path = KeyPathBox(keyPath)
        return Self(.text(name, maxLength: maxLength, required: required, doc)) { texts, root in
            root[keyPath: path.path] = try checkedText(texts[0], name, maxLength)
        }
    }

    /// One of an enumeration's raw values.
    public static func choice<Value: RawRepresentable & CaseIterable & SendableMetatype>(
        _ name: String, _ keyPath: WritableKeyPath<Root, Value>, required: Bool = false, _ doc: String = ""
    ) -> Self where Value.RawValue == String {
        let path = KeyPathBox(keyPath)
        let words = Value.allCases.map(\.rawValue)
        return Self(.choice(name, words, required: required, doc)) { texts, root in
            guard let value = Value(rawValue: texts[0]) else {
                throw SubsonicParameterError.invalid(
                    "'\(name)' must be one of: \(words.joined(separator: ", ")).")
            }
            root[keyPath: path.path] = value
        }
    }

    // MARK: Numbers

    /// A whole number in `range`; outside it is refused (a rating of 9, a year of 20000).
    public static func integer(
        _ name: String, _ keyPath: WritableKeyPath<Root, Int?>, _ range: ClosedRange<Int>, _ doc: String = ""
    ) -> Self {
        let path = KeyPathBox(keyPath)
        return Self(.integer(name, Int64(range.lowerBound)...Int64(range.upperBound), doc)) { texts, root in
            root[keyPath: path.path] = Int(
                try checkedInteger(texts[0], name, Int64(range.lowerBound)...Int64(range.upperBound)))
        }
    }

    /// A required whole number in `range`.
    public static func integer(
        _ name: String, _ keyPath: WritableKeyPath<Root, Int>, _ range: ClosedRange<Int>, required: Bool,
        _ doc: String = ""
    ) -> Self {
        let path = KeyPathBox(keyPath)
        let bounds = Int64(range.lowerBound)...Int64(range.upperBound)
        return Self(.integer(name, bounds, required: required, doc)) { texts, root in
            root[keyPath: path.path] = Int(try checkedInteger(texts[0], name, bounds))
        }
    }

    /// Milliseconds and other large whole numbers in `range`.
    public static func integer64(
        _ name: String, _ keyPath: WritableKeyPath<Root, Int64?>, _ range: ClosedRange<Int64>,
        required: Bool = false, _ doc: String = ""
    ) -> Self {
        let path = KeyPathBox(keyPath)
        return Self(.integer(name, range, required: required, doc)) { texts, root in
            root[keyPath: path.path] = try checkedInteger(texts[0], name, range)
        }
    }

    /// Every value of a repeated whole number, each in `range`.
    public static func integers(
        _ name: String, _ keyPath: WritableKeyPath<Root, [Int64]>, _ range: ClosedRange<Int64>,
        _ doc: String = ""
    ) -> Self {
        let path = KeyPathBox(keyPath)
        return Self(.integer(name, range, repeated: true, doc)) { texts, root in
            root[keyPath: path.path] = try texts.map { try checkedInteger($0, name, range) }
        }
    }

    /// How many or how far: a whole number clamped into `range` (apps send negative offsets and counts past the
    /// most a method lists; they get the nearest the method gives). Text that is no number is still refused.
    public static func clamped(
        _ name: String, _ keyPath: WritableKeyPath<Root, Int>, _ range: ClosedRange<Int>, _ doc: String = ""
    ) -> Self {
        let path = KeyPathBox(keyPath)
        return Self(.clamped(name, Int64(range.lowerBound)...Int64(range.upperBound), doc)) { texts, root in
            root[keyPath: path.path] = try clampedInteger(texts[0], name, range)
        }
    }

    /// An optional number clamped into `range`.
    public static func clamped(
        _ name: String, _ keyPath: WritableKeyPath<Root, Int?>, _ range: ClosedRange<Int>, _ doc: String = ""
    ) -> Self {
        let path = KeyPathBox(keyPath)
        return Self(.clamped(name, Int64(range.lowerBound)...Int64(range.upperBound), doc)) { texts, root in
            root[keyPath: path.path] = try clampedInteger(texts[0], name, range)
        }
    }

    /// `true` or `false` (any letter case; also `1`/`0`, `on`/`off`, `yes`/`no`).
    public static func flag(_ name: String, _ keyPath: WritableKeyPath<Root, Bool?>, _ doc: String = "")
        -> Self
    {
        let path = KeyPathBox(keyPath)
        return Self(.flag(name, doc)) { texts, root in
            switch texts[0].lowercased() {
            case "true", "1", "on", "yes": root[keyPath: path.path] = true
            case "false", "0", "off", "no": root[keyPath: path.path] = false
            default: throw SubsonicParameterError.invalid("'\(name)' must be true or false.")
            }
        }
    }

    // MARK: Ids

    /// An id of one of `kinds`; an id that does not parse, or of another kind, names nothing (70).
    public static func id(
        _ name: String, _ keyPath: WritableKeyPath<Root, SubsonicID?>, _ kinds: [SubsonicIDKind],
        _ doc: String = ""
    ) -> Self {
        let path = KeyPathBox(keyPath)
        return Self(.id(name, kinds, doc)) { texts, root in
            root[keyPath: path.path] = try checkedID(texts[0], kinds)
        }
    }

    /// A required id.
    public static func id(
        _ name: String, _ keyPath: WritableKeyPath<Root, SubsonicID>, _ kinds: [SubsonicIDKind],
        required: Bool, _ doc: String = ""
    ) -> Self {
        let path = KeyPathBox(keyPath)
        return Self(.id(name, kinds, required: required, doc)) { texts, root in
            root[keyPath: path.path] = try checkedID(texts[0], kinds)
        }
    }

    /// Every value of a repeated id (`id=tr-1&id=tr-2`).
    public static func ids(
        _ name: String, _ keyPath: WritableKeyPath<Root, [SubsonicID]>, _ kinds: [SubsonicIDKind],
        required: Bool = false, _ doc: String = ""
    ) -> Self {
        let path = KeyPathBox(keyPath)
        return Self(.id(name, kinds, required: required, repeated: true, doc)) { texts, root in
            root[keyPath: path.path] = try texts.map { try checkedID($0, kinds) }
        }
    }
}

private func checkedText(_ text: String, _ name: String, _ maxLength: Int) throws -> String {
    guard text.count <= maxLength else {
        throw SubsonicParameterError.invalid("'\(name)' can be at most \(maxLength) characters.")
    }
    return text
}

/// Digits with an optional sign, between spaces (apps send " 5"): the number's sign and whether it overflowed.
private func parseWholeNumber(_ text: String) -> (value: Int64, overflowed: Bool)? {
    var utf8 = Substring(text).utf8[...]
    while utf8.first == 0x20 || utf8.first == 0x09 { utf8 = utf8.dropFirst() }
    while utf8.last == 0x20 || utf8.last == 0x09 { utf8 = utf8.dropLast() }
    var negative = false
    if utf8.first == UInt8(ascii: "-") || utf8.first == UInt8(ascii: "+") {
        negative = utf8.first == UInt8(ascii: "-")
        utf8 = utf8.dropFirst()
    }
    guard !utf8.isEmpty, utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    var value: Int64 = 0
    for digit in utf8 {
        let (times, over1) = value.multipliedReportingOverflow(by: 10)
        let (plus, over2) = times.addingReportingOverflow(Int64(digit - 0x30))
        if over1 || over2 { return (negative ? .min : .max, true) }
        value = plus
    }
    return (negative ? -value : value, false)
}

private func checkedInteger(_ text: String, _ name: String, _ range: ClosedRange<Int64>) throws -> Int64 {
    guard let (value, overflowed) = parseWholeNumber(text), !overflowed, range.contains(value) else {
        throw SubsonicParameterError.invalid(
            "'\(name)' must be a whole number from \(range.lowerBound) to \(range.upperBound).")
    }
    return value
}

private func clampedInteger(_ text: String, _ name: String, _ range: ClosedRange<Int>) throws -> Int {
    guard let (value, _) = parseWholeNumber(text) else {
        throw SubsonicParameterError.invalid("'\(name)' must be a whole number.")
    }
    return Int(min(max(value, Int64(range.lowerBound)), Int64(range.upperBound)))
}

private func checkedID(_ text: String, _ kinds: [SubsonicIDKind]) throws -> SubsonicID {
    guard let id = SubsonicID(text), kinds.contains(id.kind) else {
        throw SubsonicParameterError.notFound(kinds.count == 1 ? kinds[0].noun : "item")
    }
    return id
}
