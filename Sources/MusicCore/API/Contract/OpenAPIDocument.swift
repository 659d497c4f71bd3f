/// The OpenAPI 3.1 description of the API, generated from the endpoint declarations.
public enum OpenAPIDocument {
    /// The document for `groups`; `serverVersion` goes into `info.version`.
    public static func generate(_ groups: [APIGroup], version: String) throws -> JSONValue {
        let builder = SchemaBuilder()
        var paths: [String: [String: JSONValue]] = [:]
        var tags: [JSONValue] = []
        for group in groups {
            tags.append(["name": .string(group.name), "description": .string(group.summary)])
            for endpoint in group.endpoints {
                let operation = try self.operation(endpoint, group: group.name, builder: builder)
                paths[endpoint.path, default: [:]][endpoint.method.rawValue.lowercased()] = operation
            }
        }
        var schemas = builder.components
        schemas["Refusal"] = [
            "type": "object",
            "required": ["status", "message"],
            "properties": [
                "status": ["type": "integer", "description": "Not 0: the HTTP status of the refusal."],
                "message": [
                    "type": "string",
                    "description":
                        "A sentence a person can act on, in the language the request's Accept-Language picks (en or zh-CN).",
                ],
            ],
        ]
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "CloudMusic API",
                "version": .string(version),
                "description": .string(description),
            ],
            "tags": .array(tags),
            "paths": .object(paths.mapValues { .object($0) }),
            "components": [
                "schemas": .object(schemas),
                "securitySchemes": [
                    "session": [
                        "type": "apiKey", "in": "header", "name": "Authorization",
                        "description":
                            "The `session` token from `POST /v1/sessions`, as `<token>` or `Bearer <token>`.",
                    ],
                    "chatToken": [
                        "type": "apiKey", "in": "header", "name": "Authorization",
                        "description":
                            "The `chatToken` from `POST /v1/sessions` (or `POST /v1/events/token`), as `<token>` or `Bearer <token>`, or the `token` query parameter; it opens the event stream and nothing else.",
                    ],
                ],
            ],
        ]
    }

    static let description = """
        The v1 REST API of a CloudMusic server. A success is `{"status":0,"data":...}` (or `{"status":0}`); \
        lists are pages `{total,pages,size,page,next,data}`; a refusal has a non-2xx HTTP status and \
        `{"status":<code>,"message":<a sentence a person can act on>}`. Media paths (`uri`, `icon`) are \
        relative to the server root. Refusals are written in the reader's language: the server reads the \
        request's `Accept-Language` (q-values honoured; `zh`, `zh-CN`, `zh-Hans`, `zh-TW` and every other \
        Chinese tag get Simplified Chinese, anything else English) and says which in `Content-Language`; the \
        HTTP status and the envelope's `status` code never depend on the language, so clients that branch on a \
        refusal branch on those. (The Subsonic API at /rest stays English: its clients show their own texts.) \
        Generated from the endpoint declarations in MusicCore/API.
        """

    private static func operation(_ endpoint: any DescribedEndpoint, group: String, builder: SchemaBuilder)
        throws -> JSONValue
    {
        var op: [String: JSONValue] = [
            "operationId": .string("\(group).\(endpoint.name)"),
            "summary": .string(endpoint.summary),
            "tags": [.string(group)],
        ]
        switch endpoint.access {
        case .anyone: op["security"] = []
        case .optionalSignIn: op["security"] = [[:], ["session": []]]
        case .signedIn, .admin, .adminOrFirstRun: op["security"] = [["session": []]]
        case .chatToken: op["security"] = [["chatToken": []]]
        }
        op["x-access"] = .string(endpoint.access.rawValue)
        var parameters: [JSONValue] = []
        for p in endpoint.pathParameters { parameters.append(parameter(p, in: "path")) }
        for p in endpoint.queryParameters { parameters.append(parameter(p, in: "query")) }
        if !parameters.isEmpty { op["parameters"] = .array(parameters) }

        switch endpoint.body {
        case .none: break
        case .json(let type, let optional):
            op["requestBody"] = [
                "required": .bool(!optional),
                "content": ["application/json": ["schema": try builder.schema(for: type)]],
            ]
        case .upload:
            op["requestBody"] = [
                "required": true,
                "content": [
                    "multipart/form-data": [
                        "schema": [
                            "type": "object",
                            "properties": [
                                .init(Upload.fieldName): [
                                    "type": "array",
                                    "items": [
                                        "type": "string", "contentMediaType": "application/octet-stream",
                                    ],
                                ]
                            ],
                        ]
                    ]
                ],
            ]
        case .form(let fields):
            var properties: [String: JSONValue] = [
                Upload.fieldName: [
                    "type": "array",
                    "items": ["type": "string", "contentMediaType": "application/octet-stream"],
                ]
            ]
            for field in fields {
                var schema = parameterSchema(field)
                if !field.doc.isEmpty { schema["description"] = .string(field.doc) }
                properties[field.name] = .object(schema)
            }
            let required = fields.filter(\.schema.isRequired).map { JSONValue.string($0.name) }
            var form: [String: JSONValue] = ["type": "object", "properties": .object(properties)]
            if !required.isEmpty { form["required"] = .array(required) }
            op["requestBody"] = [
                "required": true,
                "content": ["multipart/form-data": ["schema": .object(form)]],
            ]
        case .text:
            op["requestBody"] = [
                "required": true,
                "content": [
                    "text/plain": ["schema": ["type": "string"]],
                    "multipart/form-data": [
                        "schema": ["type": "object", "properties": ["file": ["type": "string"]]]
                    ],
                ],
            ]
        }

        var responses: [String: JSONValue] = [:]
        let success: JSONValue
        switch endpoint.answer {
        case .done:
            success = [
                "description": "Done",
                "content": ["application/json": ["schema": envelope(nil)]],
            ]
        case .json(let type):
            success = [
                "description": "Done",
                "content": ["application/json": ["schema": envelope(try builder.schema(for: type))]],
            ]
        case .media(let contentType, let summary):
            // A JSON document that is not in the envelope (this document itself) is an object; files are bytes.
            let schema: JSONValue =
                contentType == "application/json"
                ? ["type": "object"] : ["type": "string", "contentMediaType": .string(contentType)]
            success = [
                "description": .string(summary),
                "content": [.init(contentType): ["schema": schema]],
            ]
        }
        responses[String(endpoint.status)] = success
        for kind in refusals(of: endpoint) {
            responses[String(kind.httpStatus)] = [
                "description": .string(refusalText(kind)),
                "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Refusal"]]],
            ]
        }
        op["responses"] = .object(responses)
        return .object(op)
    }

    /// The refusals an endpoint can answer: those its declaration implies and those it lists.
    public static func refusals(of endpoint: any DescribedEndpoint) -> [ServiceError.Kind] {
        var kinds = Set(endpoint.refusals)
        // A path parameter that is not free text (a number, or text with a length limit) can be refused.
        if !endpoint.queryParameters.isEmpty
            || endpoint.pathParameters.contains(where: {
                $0.schema.kind != .string || $0.schema.maxLength != nil
            })
        {
            kinds.insert(.invalid)
        }
        if !endpoint.pathParameters.isEmpty { kinds.insert(.notFound) }
        switch endpoint.body {
        case .none: break
        case .json, .text:
            kinds.formUnion([.invalid, .tooLarge, .unsupportedFormat])
        case .upload, .form:
            kinds.formUnion([.invalid, .tooLarge, .unsupportedFormat])
        }
        switch endpoint.access {
        case .anyone: break
        case .optionalSignIn, .signedIn, .chatToken: kinds.insert(.unauthenticated)
        case .admin, .adminOrFirstRun: kinds.formUnion([.unauthenticated, .forbidden])
        }
        return ServiceError.Kind.allCases.filter(kinds.contains)
    }

    private static func refusalText(_ kind: ServiceError.Kind) -> String {
        switch kind {
        case .invalid: "Something sent cannot be used; the message says what"
        case .unauthenticated: "Sign in first, or again: the token sent is not valid"
        case .forbidden: "The caller may not do this"
        case .notFound: "It does not exist, or the caller may not see it"
        case .conflict: "It clashes with what exists"
        case .tooLarge: "The body is larger than allowed"
        case .unsupportedFormat: "The body is not in a format this endpoint takes"
        case .outsideRange: "The range asked for lies outside the file"
        case .rateLimited: "Too many tries; Retry-After says when to try again"
        case .unavailable: "The server cannot do it now"
        case .serverFault: "Something failed inside the server"
        }
    }

    private static func envelope(_ data: JSONValue?) -> JSONValue {
        var properties: [String: JSONValue] = ["status": ["const": 0]]
        var required: [JSONValue] = ["status"]
        if let data {
            properties["data"] = data
            required.append("data")
        }
        return ["type": "object", "required": .array(required), "properties": .object(properties)]
    }

    private static func parameter(_ p: ParameterDescription, in location: String) -> JSONValue {
        let schema = parameterSchema(p)
        var out: [String: JSONValue] = [
            "name": .string(p.name),
            "in": .string(location),
            "required": .bool(location == "path" || p.schema.isRequired),
            "schema": .object(schema),
        ]
        var doc = p.doc
        if !p.aliases.isEmpty {
            doc +=
                (doc.isEmpty ? "" : " ") + "Also read as "
                + p.aliases.map { "`\($0)`" }.joined(separator: ", ") + "."
        }
        if !doc.isEmpty { out["description"] = .string(doc) }
        // Machine-readable too, for clients generated from this document.
        if !p.aliases.isEmpty { out["x-aliases"] = .array(p.aliases.map { .string($0) }) }
        return .object(out)
    }

    /// The JSON Schema of a parameter's value.
    private static func parameterSchema(_ p: ParameterDescription) -> [String: JSONValue] {
        var schema: [String: JSONValue] = ["type": .string(p.schema.kind.rawValue)]
        if let v = p.schema.minimum { schema["minimum"] = .number(v) }
        if let v = p.schema.maximum { schema["maximum"] = .number(v) }
        if let v = p.schema.minLength { schema["minLength"] = .number(Double(v)) }
        if let v = p.schema.maxLength { schema["maxLength"] = .number(Double(v)) }
        if let v = p.schema.pattern { schema["pattern"] = .string(v) }
        if let choices = p.schema.choices { schema["enum"] = .array(choices.map { .string($0) }) }
        if let choices = p.schema.integerChoices {
            schema["enum"] = .array(choices.map { .number(Double($0)) })
        }
        if let d = p.defaultValue {
            switch p.schema.kind {
            case .integer, .number: schema["default"] = Double(d).map { .number($0) } ?? .string(d)
            case .boolean: schema["default"] = .bool(d == "true")
            case .string: schema["default"] = .string(d)
            }
        }
        if p.schema.isList { schema["description"] = "Several values separated by commas." }
        return schema
    }
}
