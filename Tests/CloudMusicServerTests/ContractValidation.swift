import CloudMusicServer
import Foundation
import MusicCore
import Testing

/// Checks every successful JSON answer the server tests receive against the schema the OpenAPI document
/// (generated from the endpoint declarations) gives it, so the document cannot drift from what is sent.
///
/// Stricter than the document: an object may carry no property the schema does not list.
enum ContractCheck {
    /// The generated document (null when it cannot be generated, which `ContractTests` reports).
    static let document: JSONValue = {
        guard let text = try? GeneratedFiles.openAPI() else { return .null }
        return (try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) ?? .null
    }()

    /// Records an issue when `body`, answered with `status` to `method path`, is not what the document says.
    static func check(method: String, path: String, status: Int, body: Data, contentType: String?) {
        guard (200..<300).contains(status), contentType?.hasPrefix("application/json") == true,
            let route = route(method: method, path: path)
        else { return }
        guard
            let schema = route.operation["responses"]?[String(status)]?["content"]?["application/json"]?[
                "schema"]
        else {
            Issue.record("\(method) \(route.template) answered \(status), which the document does not list")
            return
        }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: body)
        } catch {
            Issue.record("\(method) \(path) answered \(status) with a body that is not JSON")
            return
        }
        var problems: [String] = []
        validate(value, against: schema, at: "$", problems: &problems)
        for problem in problems.prefix(5) {
            Issue.record("\(method) \(route.template) \(status): \(problem)")
        }
    }

    /// The documented operation a request path matches; literal segments beat parameters, as in the router.
    static func route(method: String, path: String) -> (template: String, operation: JSONValue)? {
        let wanted = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        let segments = wanted.split(separator: "/").map(String.init)
        var best: (template: String, operation: JSONValue, literals: Int)?
        for (template, item) in document["paths"]?.objectValue ?? [:] {
            guard let operation = item[method.lowercased()] else { continue }
            let parts = template.split(separator: "/").map(String.init)
            guard parts.count == segments.count else { continue }
            var literals = 0
            var matches = true
            for (part, segment) in zip(parts, segments) {
                if part.hasPrefix("{") { continue }
                if part == segment.removingPercentEncoding ?? segment {
                    literals += 1
                } else {
                    matches = false
                }
            }
            if matches, literals > (best?.literals ?? -1) { best = (template, operation, literals) }
        }
        return best.map { ($0.template, $0.operation) }
    }

    static func resolve(_ schema: JSONValue) -> JSONValue {
        guard let ref = schema["$ref"]?.stringValue else { return schema }
        let name = String(ref.dropFirst("#/components/schemas/".count))
        return document["components"]?["schemas"]?[name] ?? [:]
    }

    static func validate(
        _ value: JSONValue, against raw: JSONValue, at path: String, problems: inout [String]
    ) {
        let schema = resolve(raw)
        if let options = schema["anyOf"]?.arrayValue ?? schema["oneOf"]?.arrayValue {
            let matching = options.filter { option in
                var inner: [String] = []
                validate(value, against: option, at: path, problems: &inner)
                return inner.isEmpty
            }
            let exactlyOne = schema["oneOf"] != nil
            if matching.isEmpty || (exactlyOne && matching.count > 1) {
                problems.append("\(path) matches \(matching.count) of the schemas allowed there")
            }
            return
        }
        if let constant = schema["const"], constant != value {
            problems.append("\(path) must be \(constant)")
        }
        if let choices = schema["enum"]?.arrayValue, !choices.contains(value) {
            problems.append("\(path) is \(value), not one of \(choices)")
        }
        let types: [String]
        switch schema["type"] {
        case .string(let t)?: types = [t]
        case .array(let list)?: types = list.compactMap(\.stringValue)
        default: types = []
        }
        if !types.isEmpty, !types.contains(where: { matches(value, type: $0) }) {
            problems.append(
                "\(path) is \(kind(of: value)), the document says \(types.joined(separator: " or "))")
            return
        }
        switch value {
        case .object(let members):
            let properties = schema["properties"]?.objectValue ?? [:]
            for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? []
            where members[name] == nil {
                problems.append("\(path).\(name) is missing")
            }
            let additional = schema["additionalProperties"]
            for (name, member) in members {
                if let property = properties[name] {
                    validate(member, against: property, at: "\(path).\(name)", problems: &problems)
                } else if let additional {
                    validate(member, against: additional, at: "\(path).\(name)", problems: &problems)
                } else if schema["properties"] != nil || schema["type"]?.stringValue == "object" {
                    problems.append("\(path).\(name) is sent but not documented")
                }
            }
        case .array(let items):
            if let itemSchema = schema["items"] {
                for (i, item) in items.enumerated().prefix(50) {
                    validate(item, against: itemSchema, at: "\(path)[\(i)]", problems: &problems)
                }
            }
        default:
            break
        }
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("object", .object), ("array", .array):
            return true
        case ("number", .number): return true
        case ("integer", .number(let n)): return n == n.rounded()
        default: return false
        }
    }

    static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}
