/// The endpoints of one feature, as its API file declares them.
public struct APIGroup: Sendable {
    /// The group's name in generated clients and the document's tags (`sheets`).
    public let name: String
    public let summary: String
    public let endpoints: [any DescribedEndpoint]

    public init(_ name: String, _ summary: String, _ endpoints: [any DescribedEndpoint]) {
        self.name = name
        self.summary = summary
        self.endpoints = endpoints
    }
}

/// What the documentation and generated clients need of an endpoint, whatever its types.
public protocol DescribedEndpoint: Sendable {
    var name: String { get }
    var method: HTTPVerb { get }
    var path: String { get }
    var routePattern: String { get }
    var summary: String { get }
    var status: Int { get }
    var resource: String { get }
    var isIdempotent: Bool { get }
    var refusals: [ServiceError.Kind] { get }
    var access: Access { get }
    var pathParameters: [ParameterDescription] { get }
    var queryParameters: [ParameterDescription] { get }
    var body: BodyDescription { get }
    var answer: AnswerDescription { get }
    /// Reads and checks a query as the server does (from the values by name), throwing its refusal.
    func checkQuery(_ lookup: (String) -> String?) throws
}

/// A path or query parameter as documented.
public struct ParameterDescription: Sendable, Equatable {
    public var name: String
    public var aliases: [String]
    public var schema: ParameterSchema
    public var doc: String
    /// The default as text, when the parameter has one.
    public var defaultValue: String?
}

public enum BodyDescription: @unchecked Sendable {
    case none
    /// A JSON value; `optional` when the request may leave the body out.
    case json(any Decodable.Type, optional: Bool)
    case upload
    /// Files with typed text fields (`Form`).
    case form([ParameterDescription])
    case text
}

public enum AnswerDescription: @unchecked Sendable {
    /// `{"status":0}`.
    case done
    /// `{"status":0,"data":...}`.
    case json(any Decodable.Type)
    /// A file or stream.
    case media(contentType: String, summary: String)
}

extension Endpoint: DescribedEndpoint {
    public var access: Access { Caller.access }

    public func checkQuery(_ lookup: (String) -> String?) throws { _ = try Query.read(lookup) }

    public var pathParameters: [ParameterDescription] { Self.describe(Path.self, defaults: false) }

    public var queryParameters: [ParameterDescription] { Self.describe(Query.self, defaults: true) }

    public var body: BodyDescription {
        switch Body.self {
        case is NoBody.Type: .none
        case is Upload.Type: .upload
        case let form as any FormBody.Type: .form(form.fieldDescriptions)
        case is TextBody.Type: .text
        case let type as any Decodable.Type: .json(type, optional: Body.self is any OptionalMarker.Type)
        default: .none
        }
    }

    public var answer: AnswerDescription {
        switch Answer.self {
        case is Done.Type: .done
        case let media as any MediaAnswer.Type: .media(contentType: media.contentType, summary: media.summary)
        case let type as any Decodable.Type: .json(type)
        default: .done
        }
    }

    private static func describe<P: APIParameters>(_ type: P.Type, defaults: Bool) -> [ParameterDescription] {
        let initial = P()
        return P.fields.map { field in
            ParameterDescription(
                name: field.name, aliases: field.aliases, schema: field.schema, doc: field.doc,
                defaultValue: defaults && !field.schema.isRequired ? field.text(initial) : nil)
        }
    }
}

/// Lets generic code see that a type is an `Optional` (a body that may be left out).
public protocol OptionalMarker {}

extension Optional: OptionalMarker {}
