/// Account models as the v1 API sends them (camelCase, ids as strings, dates as ISO 8601 text).

/// A person with an account. `phone`, `email`, `role` and `disabled` are sent only to the person
/// themselves and to administrators; everyone else sees the public fields.
public struct User: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var nickname: String
    /// The avatar's path relative to the server root, or nil when none was uploaded.
    public var icon: String?
    public var description: String?
    /// 0 unknown, 10 male, 20 female.
    public var gender: Int
    /// `yyyy-MM-dd`.
    public var birthday: String?
    public var province: String?
    public var city: String?
    public var area: String?
    public var followingsCount: Int
    public var followersCount: Int
    /// Whether the signed-in viewer follows this user; nil when nobody is signed in or it is oneself.
    public var following: Bool?
    public var phone: String?
    public var email: String?
    /// `user` or `admin`.
    public var role: String?
    public var disabled: Bool?
    /// Whether the person has accepted the current privacy policy and user agreement (`GET v1/terms`); sent
    /// only to the person themselves.
    public var termsAccepted: Bool?
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, nickname: String, icon: String? = nil, description: String? = nil, gender: Int = 0,
        birthday: String? = nil, province: String? = nil, city: String? = nil, area: String? = nil,
        followingsCount: Int = 0, followersCount: Int = 0, following: Bool? = nil, phone: String? = nil,
        email: String? = nil, role: String? = nil, disabled: Bool? = nil, createdAt: String, updatedAt: String
    ) {
        self.following = following
        self.id = id
        self.nickname = nickname
        self.icon = icon
        self.description = description
        self.gender = gender
        self.birthday = birthday
        self.province = province
        self.city = city
        self.area = area
        self.followingsCount = followingsCount
        self.followersCount = followersCount
        self.phone = phone
        self.email = email
        self.role = role
        self.disabled = disabled
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// What a successful login answers: `session` is the token to send as `Authorization`.
public struct LoginResult: Codable, Sendable, Equatable {
    public var userId: String
    public var session: String
    public var chatToken: String

    public init(userId: String, session: String, chatToken: String) {
        self.userId = userId
        self.session = session
        self.chatToken = chatToken
    }
}

/// One signed-in device of the current user.
public struct DeviceSession: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var device: String?
    public var userAgent: String?
    public var address: String?
    /// True for the session that made the request.
    public var current: Bool
    public var lastSeenAt: String
    public var expiresAt: String
    public var createdAt: String
    /// The same as `lastSeenAt`.
    public var updatedAt: String

    public init(
        id: String, device: String?, userAgent: String?, address: String?, current: Bool, lastSeenAt: String,
        expiresAt: String, createdAt: String, updatedAt: String
    ) {
        self.id = id
        self.device = device
        self.userAgent = userAgent
        self.address = address
        self.current = current
        self.lastSeenAt = lastSeenAt
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A message the built-in sender delivered to the outbox instead of by SMS or mail.
public struct OutboxMessage: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    /// `sms` or `email`.
    public var channel: String
    public var target: String
    /// `login` or `reset`.
    public var purpose: String
    public var text: String
    public var createdAt: String
    public var updatedAt: String

    public init(
        id: String, channel: String, target: String, purpose: String, text: String, createdAt: String,
        updatedAt: String
    ) {
        self.id = id
        self.channel = channel
        self.target = target
        self.purpose = purpose
        self.text = text
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
