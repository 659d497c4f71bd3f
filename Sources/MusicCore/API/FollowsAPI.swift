/// Follows ("friends" are people who follow each other), the lists of them, finding people, and blocks.
public enum FollowsAPI {
    public static let follow = Endpoint<NoPath, NoQuery, UserReference, User, SignedIn>(
        "follow", .POST, "/v1/friends", "Follow someone; their profile comes back", status: 201,
        refusals: [.notFound, .forbidden])
    public static let unfollow = Endpoint<IDPath<User>, NoQuery, NoBody, Done, SignedIn>(
        "unfollow", .DELETE, "/v1/friends/{id}", "Stop following someone", resource: "user")
    public static let following = Endpoint<IDPath<User>, PageQuery, NoBody, Page<User>, OptionalSignIn>(
        "following", .GET, "/v1/users/{id}/following", "The people a person follows, newest first",
        resource: "user")
    public static let followers = Endpoint<IDPath<User>, PageQuery, NoBody, Page<User>, OptionalSignIn>(
        "followers", .GET, "/v1/users/{id}/followers", "The people who follow a person, newest first",
        resource: "user")
    public static let friends = Endpoint<IDPath<User>, PageQuery, NoBody, Page<User>, OptionalSignIn>(
        "friends", .GET, "/v1/users/{id}/friends", "The people a person follows who follow them back",
        resource: "user")
    public static let searchUsers = Endpoint<NoPath, UserSearchQuery, NoBody, [User], OptionalSignIn>(
        "searchUsers", .GET, "/v1/searches/users",
        "People whose nickname starts with what was typed, the ones one follows first")
    public static let blocks = Endpoint<NoPath, PageQuery, NoBody, Page<User>, SignedIn>(
        "blocks", .GET, "/v1/blocks", "The people one blocked")
    public static let block = Endpoint<NoPath, NoQuery, UserReference, Done, SignedIn>(
        "block", .POST, "/v1/blocks", "Block someone: they cannot follow, mention or message one",
        refusals: [.notFound])
    public static let unblock = Endpoint<IDPath<User>, NoQuery, NoBody, Done, SignedIn>(
        "unblock", .DELETE, "/v1/blocks/{id}", "Unblock someone", resource: "user")

    public static let group = APIGroup(
        "follows", "Follows, followers, friends, finding people, and blocks",
        [follow, unfollow, following, followers, friends, searchUsers, blocks, block, unblock])
}

/// A person named in a body: `userId`, or `id` (the apps send either); clients write `userId`.
public struct UserReference: Codable, Sendable, Equatable, SchemaDescribed {
    public var userId: ID<User>
    public init(userId: ID<User>) { self.userId = userId }

    private enum CodingKeys: String, CodingKey {
        case userId, id
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Both are read, so that either one of another type is refused, as the document says.
        // (null is not a string either.)
        let byUserID =
            try container.contains(.userId) ? container.decode(ID<User>.self, forKey: .userId) : nil
        let byID = try container.contains(.id) ? container.decode(ID<User>.self, forKey: .id) : nil
        guard let id = byUserID ?? byID else {
            throw DecodingError.keyNotFound(
                CodingKeys.userId, .init(codingPath: [], debugDescription: "Give 'userId' (or 'id')."))
        }
        userId = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userId, forKey: .userId)
    }

    public static func schema(in builder: SchemaBuilder) throws -> JSONValue {
        [
            "type": "object", "description": "A person: `userId`, or `id` (read when `userId` is left out).",
            "properties": [
                "userId": try ID<User>.schema(in: builder), "id": try ID<User>.schema(in: builder),
            ],
            "anyOf": [["required": ["userId"]], ["required": ["id"]]],
        ]
    }

    public static func probeValue(in builder: SchemaBuilder) throws -> UserReference {
        UserReference(userId: try ID<User>.probeValue(in: builder))
    }
}

public struct UserSearchQuery: APIParameters, Equatable {
    public var query = ""
    public var size = 20
    public init() {}
    public init(_ text: String, size: Int = 20) {
        query = text
        self.size = size
    }
    public static let fields: [ParameterField<Self>] = [
        .text(
            "query", \.query, maxLength: 32, aliases: ["q"], required: true,
            doc: "The start of a nickname (at most 32 characters)."),
        .integer("size", \.size, in: 1...50, doc: "At most this many people."),
    ]
}
