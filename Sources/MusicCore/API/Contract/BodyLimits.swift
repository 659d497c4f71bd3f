/// A request body whose fields have bounds (lengths, counts, ranges), declared once: the OpenAPI document
/// shows them on the body's schema, and the server checks them after decoding, before any handler runs.
public protocol LimitedBody {
    static var limits: [FieldLimit<Self>] { get }
}

extension LimitedBody {
    /// Throws the first bound this body breaks, as a 400 naming the field.
    public func checkLimits() throws {
        for limit in Self.limits { try limit.check(self) }
    }

    /// Each bounded field's schema keywords, for the document.
    static var limitKeywords: [(String, [String: JSONValue])] { limits.map { ($0.field, $0.keywords) } }
}

/// One field's bound: the JSON Schema keywords that describe it and the check that enforces it.
public struct FieldLimit<Root>: Sendable {
    /// The field's name in the JSON.
    public let field: String
    /// What the field's schema gains (`maxLength`, `maxItems`, `minItems`).
    public let keywords: [String: JSONValue]
    private let enforce: @Sendable (Root) throws -> Void

    init(
        _ field: String, keywords: [String: JSONValue], enforce: @escaping @Sendable (Root) throws -> Void
    ) {
        self.field = field
        self.keywords = keywords
        self.enforce = enforce
    }

    func check(_ root: Root) throws { try enforce(root) }

    /// Text people write, as `TextPolicy` takes it: at most `text.limit` characters once trimmed, with the
    /// policy's refusals (control and invisible characters, stacked marks). The document says `maxLength`: text
    /// within it in code points is always within the policy's count of characters.
    public static func text(_ field: String, _ keyPath: KeyPath<Root, String?>, _ text: WrittenText) -> Self {
        let path = ReadPath(keyPath)
        return Self(field, keywords: ["maxLength": .number(Double(text.limit))]) { root in
            _ = try text.check(root[keyPath: path.path])
        }
    }

    /// Required text people write, as above (text that is empty once trimmed is the handler's to refuse).
    public static func text(_ field: String, _ keyPath: KeyPath<Root, String>, _ text: WrittenText) -> Self {
        let path = ReadPath(keyPath)
        return Self(field, keywords: ["maxLength": .number(Double(text.limit))]) { root in
            _ = try text.check(root[keyPath: path.path])
        }
    }

    /// Clearable text (`String??`: absent keeps, null clears), as above when given.
    public static func text(_ field: String, _ keyPath: KeyPath<Root, String??>, _ text: WrittenText) -> Self
    {
        let path = ReadPath(keyPath)
        return Self(field, keywords: ["maxLength": .number(Double(text.limit))]) { root in
            if case .some(let value) = root[keyPath: path.path] { _ = try text.check(value) }
        }
    }

    /// A list of at most `max` items (and at least `min`); `tooMany` and `tooFew` say it in the feature's
    /// words where a general sentence would say less.
    public static func count<Element>(
        _ field: String, _ keyPath: KeyPath<Root, [Element]>, max: Int, min: Int = 0,
        tooMany: ServiceError? = nil,
        tooFew: ServiceError? = nil
    ) -> Self {
        let path = ReadPath(keyPath)
        return Self(field, keywords: countKeywords(min, max)) { root in
            try checkCount(root[keyPath: path.path].count, field, min, max, tooMany: tooMany, tooFew: tooFew)
        }
    }

    /// An optional list: when present, at most `max` items.
    public static func count<Element>(
        _ field: String, _ keyPath: KeyPath<Root, [Element]?>, max: Int, tooMany: ServiceError? = nil
    ) -> Self {
        let path = ReadPath(keyPath)
        return Self(field, keywords: countKeywords(0, max)) { root in
            if let items = root[keyPath: path.path] {
                try checkCount(items.count, field, 0, max, tooMany: tooMany, tooFew: nil)
            }
        }
    }
}

private func countKeywords(_ min: Int, _ max: Int) -> [String: JSONValue] {
    var out: [String: JSONValue] = ["maxItems": .number(Double(max))]
    if min > 0 { out["minItems"] = .number(Double(min)) }
    return out
}

private func checkCount(
    _ count: Int, _ field: String, _ min: Int, _ max: Int, tooMany: ServiceError?, tooFew: ServiceError?
) throws {
    if count < min { throw tooFew ?? ServiceError.invalid("Give '\(field)'.") }
    if count > max { throw tooMany ?? ServiceError.invalid("Send at most \(max) items in '\(field)'.") }
}

/// A key path held by a limit: read-only key paths of value types are safe to share.
private struct ReadPath<Root, Value>: @unchecked Sendable {
    let path: KeyPath<Root, Value>
    init(_ path: KeyPath<Root, Value>) { self.path = path }
}
