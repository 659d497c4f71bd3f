import Foundation

/// One HTTP request, as a handler sees it.
public struct Request: Sendable {
    public let method: HTTPMethod
    /// The percent-decoded path, without the query.
    public let path: String
    /// The pattern that matched, such as `/v1/sheets/:id`.
    public let route: String
    public let pathParameters: [String: String]
    /// Query parameters; when a name repeats, the last value wins.
    public let query: [String: String]
    public let queryItems: [(name: String, value: String)]
    public let headers: HTTPHeaders
    public let remoteAddress: String
    public let body: RequestBody
    /// Values middleware attached for the handler (who is signing in, for one).
    public var attachments = Attachments()

    public init(
        method: HTTPMethod, path: String, route: String = "", pathParameters: [String: String] = [:],
        queryItems: [(name: String, value: String)] = [], headers: HTTPHeaders = HTTPHeaders(),
        remoteAddress: String = "127.0.0.1", body: RequestBody = .empty
    ) {
        self.method = method
        self.path = path
        self.route = route
        self.pathParameters = pathParameters
        self.queryItems = queryItems
        var q: [String: String] = [:]
        if !queryItems.isEmpty {
            q.reserveCapacity(queryItems.count)
            for item in queryItems { q[item.name] = item.value }
        }
        self.query = q
        self.headers = headers
        self.remoteAddress = remoteAddress
        self.body = body
    }

    /// The path parameter `name`; throws 400 when the route has none of that name.
    public func parameter(_ name: String) throws -> String {
        guard let v = pathParameters[name] else {
            throw HTTPError.badRequest("The address is missing its \(name).")
        }
        return v
    }

    /// Decodes the JSON body as `T`.
    ///
    /// Throws 400 naming the missing or mistyped field, or 415 when the body isn't JSON.
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let data: Data
        switch body {
        case .empty:
            throw HTTPError.badRequest("The request needs a JSON body.")
        case .data(let d, let contentType):
            if let ct = contentType, !isJSONContentType(ct) {
                throw HTTPError.unsupportedMediaType(
                    "Send the body as JSON (Content-Type: application/json).")
            }
            data = d
        case .form, .multipart:
            throw HTTPError.unsupportedMediaType("Send the body as JSON (Content-Type: application/json).")
        }
        do {
            return try sharedJSONDecoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            // Foundation calls a number that does not fit its field "not valid JSON": find the field.
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                let precise = diagnoseDecoding(T.self, data)
            {
                throw HTTPError.badRequest(describe(precise))
            }
            throw HTTPError.badRequest(describe(error))
        } catch let error as HTTPError {
            throw error
        } catch {
            throw HTTPError.badRequest("The request body is not valid JSON.")
        }
    }
}

/// Values attached to a request, one per type.
public struct Attachments: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    public init() {}

    public subscript<T: Sendable>(_ type: T.Type) -> T? {
        get { values[ObjectIdentifier(type)] as? T }
        set { values[ObjectIdentifier(type)] = newValue }
    }
}

func isJSONContentType(_ ct: String) -> Bool {
    let base =
        ct.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
    return base == "application/json" || base.hasSuffix("+json")
}

let sharedJSONDecoder: JSONDecoder = {
    let d = JSONDecoder()
    d.dateDecodingStrategy = .iso8601
    return d
}()

let sharedJSONEncoder: JSONEncoder = {
    let e = JSONEncoder()
    e.dateEncodingStrategy = .iso8601
    // Sorted keys: otherwise the order changes from one run to the next, and so do ETags and caches.
    e.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    return e
}()

func fieldPath(_ path: [CodingKey], plus key: CodingKey? = nil) -> String {
    var parts: [String] = []
    for k in path + (key.map { [$0] } ?? []) {
        if let i = k.intValue {
            parts.append("[\(i)]")
        } else {
            parts.append(parts.isEmpty ? k.stringValue : "." + k.stringValue)
        }
    }
    return parts.joined()
}

/// The kind of JSON value `t` decodes from, as a phrase ("a whole number").
func typeName(_ t: Any.Type) -> HTTPErrorText {
    switch t {
    case is String.Type, is Substring.Type: return HTTPErrorText("a string")
    case is Bool.Type: return HTTPErrorText("true or false")
    case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type, is Int16.Type,
        is UInt32.Type:
        return HTTPErrorText("a whole number")
    case is Double.Type, is Float.Type: return HTTPErrorText("a number")
    case is Date.Type: return HTTPErrorText("a date")
    default:
        let n = String(describing: t)
        if n.hasPrefix("Array") || n.hasPrefix("[") { return HTTPErrorText("a list") }
        return HTTPErrorText("an object")
    }
}

/// What is wrong with a JSON body, naming the field.
func describe(_ error: DecodingError) -> HTTPErrorText {
    switch error {
    case .keyNotFound(let key, let ctx):
        return HTTPErrorText("The field '\(fieldPath(ctx.codingPath, plus: key))' is missing.")
    case .typeMismatch(let type, let ctx):
        let p = fieldPath(ctx.codingPath)
        if p.isEmpty { return HTTPErrorText("The request body should be \(typeName(type)).") }
        return HTTPErrorText("The field '\(p)' should be \(typeName(type)).")
    case .valueNotFound(let type, let ctx):
        let p = fieldPath(ctx.codingPath)
        if p.isEmpty { return HTTPErrorText("The request body is empty.") }
        return HTTPErrorText("The field '\(p)' should be \(typeName(type)), not null.")
    case .dataCorrupted(let ctx):
        let p = fieldPath(ctx.codingPath)
        if p.isEmpty { return HTTPErrorText("The request body is not valid JSON.") }
        // Types that check their values say what is allowed ("must be one of: a, b.").
        let said = ctx.debugDescription
        if said.hasPrefix("must be one of: ") && said.hasSuffix(".") {
            let values = said.dropFirst("must be one of: ".count).dropLast()
            return HTTPErrorText("The field '\(p)' must be one of: \(values).")
        }
        if said.hasPrefix("must be ") { return HTTPErrorText("The field '\(p)' \(said)") }
        return HTTPErrorText("The field '\(p)' has a value that is not allowed.")
    @unknown default:
        return HTTPErrorText("The request body could not be read.")
    }
}

// MARK: - Percent decoding and query parsing

/// Decodes %XX escapes; nil when an escape is malformed or the result isn't UTF-8.
func percentDecode<S: StringProtocol>(_ s: S, plusAsSpace: Bool = false) -> String? {
    var needs = false
    for b in s.utf8 where b == 0x25 || (plusAsSpace && b == 0x2B) {
        needs = true
        break
    }
    if !needs { return String(s) }
    var out: [UInt8] = []
    out.reserveCapacity(s.utf8.count)
    var it = s.utf8.makeIterator()
    while let b = it.next() {
        if b == 0x25 {
            guard let h = it.next(), let l = it.next(), let hv = hexValue(h), let lv = hexValue(l) else {
                return nil
            }
            out.append(hv << 4 | lv)
        } else if plusAsSpace && b == 0x2B {
            out.append(0x20)
        } else {
            out.append(b)
        }
    }
    return String(validating: out, as: UTF8.self)
}

@inline(__always) func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case 0x30...0x39: return c - 0x30
    case 0x41...0x46: return c - 0x41 + 10
    case 0x61...0x66: return c - 0x61 + 10
    default: return nil
    }
}

/// Parses `a=1&b=2` (application/x-www-form-urlencoded); nil on bad escapes.
func parseURLEncoded(_ s: Substring) -> [(name: String, value: String)]? {
    var items: [(name: String, value: String)] = []
    for pair in s.split(separator: "&", omittingEmptySubsequences: true) {
        let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let k = percentDecode(kv[0], plusAsSpace: true) else { return nil }
        let v = kv.count > 1 ? percentDecode(kv[1], plusAsSpace: true) : ""
        guard let v else { return nil }
        items.append((name: k, value: v))
    }
    return items
}
