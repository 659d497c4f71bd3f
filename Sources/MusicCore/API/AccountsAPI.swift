/// Accounts: signing up and in, codes, sessions (devices), profiles and avatars, and their administration.
public enum AccountsAPI {
    public static let register = Endpoint<NoPath, NoQuery, Registration, User, Anyone>(
        "register", .POST, "/v1/users",
        "Sign up with a phone or email, a code sent to it, a password and a nickname", status: 201,
        refusals: [.conflict, .rateLimited])
    public static let profile = Endpoint<IDPath<User>, NoQuery, NoBody, User, OptionalSignIn>(
        "profile", .GET, "/v1/users/{id}",
        "A person's profile; phone, email and role only to the person themselves", resource: "user")
    public static let findByNickname = Endpoint<NoPath, NicknameQuery, NoBody, Page<User>, OptionalSignIn>(
        "findByNickname", .GET, "/v1/users",
        "Find a person by nickname, as a tapped @mention passes it: a page of at most one, never a disabled account"
    )
    public static let updateProfile = Endpoint<IDPath<User>, NoQuery, ProfileChange, User, SignedIn>(
        "updateProfile", .PATCH, "/v1/users/{id}",
        "Change one's profile; fields left out stay, null or empty text clears", resource: "user",
        refusals: [.forbidden, .conflict])
    public static let deleteAccount = Endpoint<IDPath<User>, NoQuery, AccountDeletion?, Done, SignedIn>(
        "deleteAccount", .DELETE, "/v1/users/{id}",
        "Delete one's account (with its password) and everything of it; administrators may delete others",
        resource: "user", refusals: [.forbidden])
    public static let changePassword = Endpoint<IDPath<User>, NoQuery, PasswordChange, Done, SignedIn>(
        "changePassword", .PUT, "/v1/users/{id}/password",
        "Change one's password; every other device is signed out", resource: "user",
        refusals: [.forbidden, .rateLimited])
    public static let uploadAvatar = Endpoint<IDPath<User>, NoQuery, Upload, User, SignedIn>(
        "uploadAvatar", .POST, "/v1/users/{id}/avatar",
        "Set one's avatar from a JPEG, PNG or WebP picture (at most 10 MB)", resource: "user",
        refusals: [.forbidden, .unavailable])
    public static let avatar = Endpoint<IDPath<User>, NoQuery, NoBody, Picture, OptionalSignIn>(
        "avatar", .GET, "/v1/users/{id}/avatar", "A person's avatar (256x256 JPEG)", resource: "user")
    public static let resetPassword = Endpoint<NoPath, NoQuery, PasswordReset, Done, Anyone>(
        "resetPassword", .POST, "/v1/users/reset_password",
        "Set a new password with a `reset` code; every device is signed out", refusals: [.rateLimited])
    public static let login = Endpoint<NoPath, NoQuery, Credentials, LoginResult, Anyone>(
        "login", .POST, "/v1/sessions", "Sign in with a password or a `login` code", status: 201,
        refusals: [.unauthenticated, .forbidden, .rateLimited])
    public static let sessions = Endpoint<NoPath, NoQuery, NoBody, [DeviceSession], SignedIn>(
        "sessions", .GET, "/v1/sessions", "One's signed-in devices")
    public static let logout = Endpoint<NoPath, NoQuery, NoBody, Done, SignedIn>(
        "logout", .DELETE, "/v1/sessions/current", "Sign this device out", idempotent: false)
    public static let revokeSession = Endpoint<IDPath<DeviceSession>, NoQuery, NoBody, Done, SignedIn>(
        "revokeSession", .DELETE, "/v1/sessions/{id}", "Sign another of one's devices out",
        resource: "session")
    public static let sendCode = Endpoint<NoPath, NoQuery, CodeRequest, CodeSent, Anyone>(
        "sendCode", .POST, "/v1/codes",
        "Send a six-digit code to a phone or email, to sign up, sign in or reset a password",
        refusals: [.rateLimited, .unavailable])
    public static let checkCode = Endpoint<NoPath, NoQuery, CodeCheck, Done, Anyone>(
        "checkCode", .POST, "/v1/codes/check", "Check a code without using it up", refusals: [.rateLimited])
    public static let adminUsers = Endpoint<NoPath, PageQuery, NoBody, Page<User>, Admin>(
        "adminUsers", .GET, "/v1/admin/users", "list users")
    public static let adminUpdateUser = Endpoint<IDPath<User>, NoQuery, UserStatusChange, User, Admin>(
        "adminUpdateUser", .PATCH, "/v1/admin/users/{id}", "disable or enable users", resource: "user")
    public static let outbox = Endpoint<NoPath, PageQuery, NoBody, Page<OutboxMessage>, AdminOrFirstRun>(
        "outbox", .GET, "/v1/admin/outbox", "read the code outbox")

    public static let group = APIGroup(
        "accounts", "Signing up and in, codes, devices, profiles, avatars and their administration",
        [
            register, profile, findByNickname, updateProfile, deleteAccount, changePassword, uploadAvatar,
            avatar,
            resetPassword, login, sessions, logout, revokeSession, sendCode, checkCode, adminUsers,
            adminUpdateUser,
            outbox,
        ])
}

/// How to sign up: a phone or an email, the `register` code sent to it, a password of 8-128 characters and
/// a nickname of 1-32.
public struct Registration: Codable, Sendable, Equatable {
    public var phone: String?
    public var email: String?
    public var password: String
    public var nickname: String
    public var code: String?

    public init(phone: String? = nil, email: String? = nil, password: String, nickname: String, code: String?)
    {
        self.phone = phone
        self.email = email
        self.password = password
        self.nickname = nickname
        self.code = code
    }
}

/// A nickname to find (`GET /v1/users?nickname=`), with the paging of the answer's page.
public struct NicknameQuery: APIParameters, Equatable {
    public var nickname = ""
    public var paging = Paging()
    public init() {}
    public init(_ nickname: String) { self.nickname = nickname }
    public static let fields: [ParameterField<Self>] =
        [
            .text(
                "nickname", \.nickname, maxLength: 64, required: true,
                doc:
                    "The nickname, with or without a leading @; letter case and full-width forms are ignored."
            )
        ] + Paging.fields(\.paging)
}

/// How to sign in: a phone or an email, and a password or a `login` code; `device` names the device.
public struct Credentials: Codable, Sendable, Equatable {
    public var phone: String?
    public var email: String?
    public var password: String?
    public var code: String?
    public var device: String?

    public init(
        phone: String? = nil, email: String? = nil, password: String? = nil, code: String? = nil,
        device: String? = nil
    ) {
        self.phone = phone
        self.email = email
        self.password = password
        self.code = code
        self.device = device
    }
}

/// Why a code is sent.
public enum CodePurpose: String, Codable, Sendable, CaseIterable, SchemaEnum {
    case login, reset, register
}

/// A code to send to a phone or an email (`purpose` defaults to `login`).
public struct CodeRequest: Codable, Sendable, Equatable {
    public var phone: String?
    public var email: String?
    public var purpose: CodePurpose?

    public init(phone: String? = nil, email: String? = nil, purpose: CodePurpose? = nil) {
        self.phone = phone
        self.email = email
        self.purpose = purpose
    }
}

/// A code to check without using it.
public struct CodeCheck: Codable, Sendable, Equatable {
    public var phone: String?
    public var email: String?
    public var purpose: CodePurpose?
    public var code: String

    public init(phone: String? = nil, email: String? = nil, purpose: CodePurpose? = nil, code: String) {
        self.phone = phone
        self.email = email
        self.purpose = purpose
        self.code = code
    }
}

/// A new password set with a `reset` code.
public struct PasswordReset: Codable, Sendable, Equatable {
    public var phone: String?
    public var email: String?
    public var code: String
    public var password: String

    public init(phone: String? = nil, email: String? = nil, code: String, password: String) {
        self.phone = phone
        self.email = email
        self.code = code
        self.password = password
    }
}

/// One's current password and the new one.
public struct PasswordChange: Codable, Sendable, Equatable {
    public var password: String
    public var newPassword: String

    public init(password: String, newPassword: String) {
        self.password = password
        self.newPassword = newPassword
    }
}

/// The password that confirms deleting one's own account (administrators deleting others send none).
public struct AccountDeletion: Codable, Sendable, Equatable {
    public var password: String?
    public init(password: String?) { self.password = password }
}

/// An administrator's change to a user.
public struct UserStatusChange: Codable, Sendable, Equatable {
    public var disabled: Bool
    public init(disabled: Bool) { self.disabled = disabled }
}

/// Profile fields to change: a field left out (nil) stays as it is; `.some(nil)` (JSON null) or empty
/// text clears it.
public struct ProfileChange: Codable, Sendable, Equatable {
    public var nickname: String?
    public var description: String??
    /// 0 unknown, 10 male, 20 female.
    public var gender: Int?
    /// `yyyy-MM-dd`.
    public var birthday: String??
    public var province: String??
    public var city: String??
    public var area: String??

    public init(
        nickname: String? = nil, description: String?? = nil, gender: Int? = nil, birthday: String?? = nil,
        province: String?? = nil, city: String?? = nil, area: String?? = nil
    ) {
        self.nickname = nickname
        self.description = description
        self.gender = gender
        self.birthday = birthday
        self.province = province
        self.city = city
        self.area = area
    }

    enum CodingKeys: String, CodingKey {
        case nickname, description, gender, birthday, province, city, area
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        nickname = try container.decodeIfPresent(String.self, forKey: .nickname)
        gender = try container.decodeIfPresent(Int.self, forKey: .gender)
        description = try container.decodeClearable(.description)
        birthday = try container.decodeClearable(.birthday)
        province = try container.decodeClearable(.province)
        city = try container.decodeClearable(.city)
        area = try container.decodeClearable(.area)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(nickname, forKey: .nickname)
        try container.encodeIfPresent(gender, forKey: .gender)
        try container.encodeClearable(description, forKey: .description)
        try container.encodeClearable(birthday, forKey: .birthday)
        try container.encodeClearable(province, forKey: .province)
        try container.encodeClearable(city, forKey: .city)
        try container.encodeClearable(area, forKey: .area)
    }
}

extension ProfileChange: LimitedBody {
    /// 1 to 32 characters once trimmed; CJK and emoji welcome.
    public static let nicknameText = WrittenText(field: "A nickname", limit: 32)
    public static let descriptionText = WrittenText(field: "The description", limit: 300, lines: .many)
    public static let provinceText = WrittenText(field: "The province", limit: 32)
    public static let cityText = WrittenText(field: "The city", limit: 32)
    public static let areaText = WrittenText(field: "The area", limit: 32)
    public static let limits: [FieldLimit<Self>] = [
        .text("nickname", \.nickname, nicknameText), .text("description", \.description, descriptionText),
        .text("province", \.province, provinceText), .text("city", \.city, cityText),
        .text("area", \.area, areaText),
    ]
}

extension Registration: LimitedBody {
    public static let limits: [FieldLimit<Self>] = [.text("nickname", \.nickname, ProfileChange.nicknameText)]
}
