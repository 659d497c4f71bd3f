import Foundation
import Synchronization
import MusicCore

/// The accounts' rules: sign-up, sign-in by password or code, sessions, codes, profiles and roles.
///
/// Answers never tell whether an account exists: an unknown account and a wrong password get the same
/// status and message (and cost the same argon2id work); a code request answers the same either way.
final class AccountService: Sendable {
    /// Who made a request, from their session token.
    struct Viewer: Sendable {
        var userID: Int64
        var sessionID: Int64
        var isAdmin: Bool
    }

    /// Limits and lifetimes; the defaults are what the server runs with.
    struct Settings: Sendable {
        var passwordCost = Crypto.PasswordCost.standard
        var sessionLifetime: Int64 = 30 * 86_400
        var codeLifetime: Int64 = 600
        var codeMaxTries = 5
        var codeResendInterval: Int64 = 60
        var codeDailyLimit = 10
        /// Failed sign-ins per account before back-off starts (30 s, doubling to 15 min).
        var loginFailuresPerAccount = 5
        /// Failed sign-ins and code checks per address before back-off starts.
        var loginFailuresPerAddress = 20
        /// Codes asked for per address before back-off starts.
        var codeSendsPerAddress = 20
        /// Accounts made per address before back-off starts.
        var registrationsPerAddress = 20
        /// Sign-up needs a `register` code sent to the phone or email, so that only the address's owner
        /// can learn whether an account uses it.
        var signupCodes = true
    }

    let store: AccountStore
    let sender: any CodeSender
    let settings: Settings
    let avatarFolder: String
    let clock: @Sendable () -> Int64
    /// Whether a person has accepted the current terms (the Terms feature answers), for their own profile.
    let termsAccepted: @Sendable (Int64) throws -> Bool?
    private let loginByAccount: BackoffLimiter
    private let loginByAddress: BackoffLimiter
    private let codesByAddress: BackoffLimiter
    private let registrationsByAddress: BackoffLimiter
    /// A hash of a random password, verified against when the account is unknown so that it costs the same.
    private let decoyHash = Mutex<String?>(nil)

    static let badCredentials = ServiceError.unauthenticated(
        "The phone number or email, or the password, is wrong.")
    static let badCode = ServiceError.invalid(
        "That code is wrong or has expired. Check it or ask for a new one.")
    static let codeExhausted = ServiceError.invalid(
        "That code was entered wrongly too many times. Ask for a new one.")
    static let signInAgain = ServiceError.unauthenticated("Your session has ended. Please sign in again.")
    static let signInFirst = ServiceError.unauthenticated("Please sign in first.")
    static let noUser = ServiceError.notFound("That user does not exist.")
    static let purposes = ["login", "reset", "register"]

    init(
        store: AccountStore, sender: (any CodeSender)? = nil, avatarFolder: String,
        settings: Settings = Settings(),
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) },
        termsAccepted: @escaping @Sendable (Int64) throws -> Bool? = { _ in nil }
    ) {
        self.termsAccepted = termsAccepted
        self.store = store
        self.sender = sender ?? OutboxSender(store: store, clock: clock)
        self.avatarFolder = avatarFolder
        self.settings = settings
        self.clock = clock
        func policy(_ allowed: Int) -> BackoffLimiter.Policy {
            .init(allowed: allowed, baseDelay: 30, maxDelay: 900, forgetAfter: 3_600)
        }
        loginByAccount = BackoffLimiter(policy(settings.loginFailuresPerAccount))
        loginByAddress = BackoffLimiter(policy(settings.loginFailuresPerAddress))
        codesByAddress = BackoffLimiter(policy(settings.codeSendsPerAddress))
        registrationsByAddress = BackoffLimiter(policy(settings.registrationsPerAddress))
    }

    // MARK: Sign-up

    /// Registers someone from the API: rate-limited per address, and (with `signupCodes`) only with a
    /// `register` code, which the owner of an address already in use never receives.
    func register(
        phone: String?, email: String?, password: String, nickname: String, code: String?, address: String
    ) throws -> User {
        let identifier = try AccountRules.identifier(phone: phone, email: email)
        let password = try AccountRules.password(password)
        let nickname = try AccountRules.nickname(nickname)
        let now = clock()
        if let wait = registrationsByAddress.retryAfter(address, now: now) {
            throw ServiceError.rateLimited(
                "Too many accounts were made from your network. Try again in \(Self.duration(wait)).",
                retryAfter: wait)
        }
        if settings.signupCodes || code != nil {
            guard let code else {
                throw ServiceError.invalid(
                    "Ask for a sign-up code first (POST /v1/codes with purpose 'register'), then send it as 'code'.")
            }
            if let wait = loginByAddress.retryAfter(address, now: now) {
                throw ServiceError.rateLimited(
                    "Too many wrong codes. Try again in \(Self.duration(wait)).", retryAfter: wait)
            }
            do {
                try verifyCode(target: identifier.value, purpose: "register", code: code, consume: true)
            } catch {
                loginByAddress.record(address, now: now)
                throw error
            }
        }
        registrationsByAddress.record(address, now: now)
        return try createUser(identifier: identifier, password: password, nickname: nickname, admin: false)
            .model(private: true)
    }

    /// Adds a user (from the API or the shell); the first user is an administrator.
    func createUser(
        identifier: AccountRules.Identifier, password: String, nickname: (nickname: String, key: String),
        admin: Bool
    ) throws -> AccountStore.UserRecord {
        let hash = Crypto.hashPassword(password, cost: settings.passwordCost)
        switch try store.insertUser(
            identifier: identifier, nickname: nickname, passwordHash: hash, admin: admin, now: clock())
        {
        case .created(let user): return user
        case .accountTaken:
            throw ServiceError.conflict(
                "That \(identifier.channel == "sms" ? "phone number" : "email address") cannot be used to sign up. "
                    + "If it is yours, sign in or reset the password.")
        case .nicknameTaken:
            throw ServiceError.conflict("Someone already uses that nickname. Choose another.")
        }
    }

    // MARK: Sign-in

    struct LoginInput: Sendable {
        var phone: String?
        var email: String?
        var password: String?
        var code: String?
        var device: String?
    }

    /// Signs in by password or by a `login` code; answers the same for unknown accounts and wrong secrets.
    func login(_ input: LoginInput, address: String, userAgent: String?) throws -> LoginResult {
        let identifier = try AccountRules.identifier(phone: input.phone, email: input.email)
        let device = try AccountRules.text(input.device, field: "The device name", limit: 64)
        let now = clock()
        let accountKey = identifier.value
        if let wait = [
            loginByAccount.retryAfter(accountKey, now: now), loginByAddress.retryAfter(address, now: now),
        ]
        .compactMap({ $0 }).max() {
            throw ServiceError.rateLimited(
                "Too many failed sign-ins. Try again in \(Self.duration(wait)).", retryAfter: wait)
        }
        let user: AccountStore.UserRecord?
        switch (input.password, input.code) {
        case (let password?, nil):
            let decoyHash = decoy()
            let found = try store.user(identifier: identifier)
            let matches = Crypto.verifyPassword(password, hash: found?.passwordHash ?? decoyHash)
            user = matches ? found : nil
            if user == nil {
                recordFailure(accountKey: accountKey, address: address, now: clock())
                throw Self.badCredentials
            }
        case (nil, let code?):
            do {
                try verifyCode(target: identifier.value, purpose: "login", code: code, consume: true)
            } catch {
                recordFailure(accountKey: accountKey, address: address, now: clock())
                throw error
            }
            user = try store.user(identifier: identifier)
            if user == nil { throw Self.badCode }
        case (nil, nil):
            throw ServiceError.invalid("Enter your password, or a code sent to you.")
        default:
            throw ServiceError.invalid("Sign in with a password or with a code, not both.")
        }
        guard let user, !user.disabled else {
            throw ServiceError.forbidden("This account has been disabled. Contact the server's administrator.")
        }
        loginByAccount.reset(accountKey)
        let token = Crypto.randomToken()
        let chatToken = Crypto.randomToken()
        _ = try store.insertSession(
            userID: user.id, tokenHash: Crypto.tokenHash(token), chatTokenHash: Crypto.tokenHash(chatToken),
            device: device, userAgent: userAgent.map { String($0.prefix(256)) }, address: address, now: now,
            expiresAt: now + settings.sessionLifetime)
        return LoginResult(userId: String(user.id), session: token, chatToken: chatToken)
    }

    /// Takes the time the failure became known: a slow hash must not shorten the block that follows.
    private func recordFailure(accountKey: String, address: String, now: Int64) {
        loginByAccount.record(accountKey, now: now)
        loginByAddress.record(address, now: now)
    }

    /// Makes the decoy hash ahead of the first sign-in, so that one costs no more than the others.
    func prepare() {
        let thread = Thread { [self] in _ = decoy() }
        thread.name = "decoy-hash"
        thread.start()
    }

    private func decoy() -> String {
        if let hash = decoyHash.withLock({ $0 }) { return hash }
        let hash = Crypto.hashPassword(Crypto.randomToken(), cost: settings.passwordCost)
        decoyHash.withLock { $0 = hash }
        return hash
    }

    /// The viewer a token belongs to; throws 401 when it is unknown, expired or its user is disabled.
    func authenticate(token: String, address: String) throws -> Viewer {
        guard token.utf8.count == 64, Crypto.unhex(token) != nil,
            let session = try store.session(tokenHash: Crypto.tokenHash(token.lowercased()))
        else { throw Self.signInAgain }
        let now = clock()
        guard session.expiresAt > now, !session.disabled else { throw Self.signInAgain }
        if now - session.lastSeenAt >= 60 {
            try store.touchSession(
                id: session.id, now: now, expiresAt: now + settings.sessionLifetime, address: address)
        }
        return Viewer(userID: session.userID, sessionID: session.id, isAdmin: session.role == "admin")
    }

    func sessions(of viewer: Viewer) throws -> [DeviceSession] {
        try store.sessions(userID: viewer.userID, now: clock()).map {
            DeviceSession(
                id: String($0.id), device: $0.device, userAgent: $0.userAgent, address: $0.address,
                current: $0.id == viewer.sessionID, lastSeenAt: APIDate.string($0.lastSeenAt),
                expiresAt: APIDate.string($0.expiresAt), createdAt: APIDate.string($0.createdAt),
                updatedAt: APIDate.string($0.lastSeenAt))
        }
    }

    /// Ends one of the viewer's sessions; another user's session is the same 404 as a missing one.
    func revokeSession(id: Int64, by viewer: Viewer) throws {
        guard try store.deleteSession(id: id, userID: viewer.userID) else {
            throw ServiceError.notFound("That session does not exist.")
        }
    }

    // MARK: Codes

    func sendCode(phone: String?, email: String?, purpose: String?, address: String) throws -> CodeSent {
        let identifier = try AccountRules.identifier(phone: phone, email: email)
        let purpose = try Self.purpose(purpose)
        let now = clock()
        if let wait = codesByAddress.retryAfter(address, now: now) {
            throw ServiceError.rateLimited(
                "Too many codes were asked for from your network. Try again in \(Self.duration(wait)).",
                retryAfter: wait)
        }
        let sends = try store.sends(target: identifier.value, since: now - 86_400)
        if let newest = sends.newest, now - newest < settings.codeResendInterval {
            let wait = Int(settings.codeResendInterval - (now - newest))
            throw ServiceError.rateLimited(
                "A code was just sent. You can ask for another in \(Self.duration(wait)).", retryAfter: wait)
        }
        if sends.count >= settings.codeDailyLimit, let oldest = sends.oldest {
            let wait = Int(max(1, oldest + 86_400 - now))
            throw ServiceError.rateLimited(
                "That is the most codes for one day. Try again in \(Self.duration(wait)).", retryAfter: wait)
        }
        codesByAddress.record(address, now: now)
        let code = Crypto.randomDigits(6)
        let salt = Crypto.randomBytes(16)
        try store.insertCode(
            target: identifier.value, purpose: purpose,
            codeHash: Self.codeHash(code, target: identifier.value, purpose: purpose, salt: salt),
            salt: Crypto.hex(salt), address: address, now: now, expiresAt: now + settings.codeLifetime)
        let exists = try store.user(identifier: identifier) != nil
        let minutes = settings.codeLifetime / 60
        let text: String
        switch (exists, purpose) {
        case (false, "register"):
            text = "Your CloudMusic sign-up code is \(code). It expires in \(minutes) minutes."
        case (true, "register"):
            text =
                "Someone tried to sign up for CloudMusic with this address, which already has an account. "
                + "If it was you, sign in or reset your password. If not, ignore this message."
        case (true, "reset"):
            text = "Your CloudMusic code to reset the password is \(code). It expires in \(minutes) minutes."
        case (true, _):
            text = "Your CloudMusic sign-in code is \(code). It expires in \(minutes) minutes."
        default:
            text =
                "Someone asked for a CloudMusic code for this address, but no account uses it. "
                + "If it was you, sign up first. If not, ignore this message."
        }
        try sender.send(channel: identifier.channel, target: identifier.value, purpose: purpose, text: text)
        return CodeSent(expiresIn: Int(settings.codeLifetime), resendAfter: Int(settings.codeResendInterval))
    }

    /// Checks a code without using it up (the apps check it before showing the next step).
    func checkCode(phone: String?, email: String?, purpose: String?, code: String, address: String) throws {
        let identifier = try AccountRules.identifier(phone: phone, email: email)
        let purpose = try Self.purpose(purpose)
        let now = clock()
        if let wait = loginByAddress.retryAfter(address, now: now) {
            throw ServiceError.rateLimited(
                "Too many wrong codes. Try again in \(Self.duration(wait)).", retryAfter: wait)
        }
        do {
            try verifyCode(target: identifier.value, purpose: purpose, code: code, consume: false)
        } catch {
            loginByAddress.record(address, now: now)
            throw error
        }
    }

    /// Sets a new password with a `reset` code and signs the account out everywhere.
    func resetPassword(phone: String?, email: String?, code: String, password: String, address: String) throws
    {
        let identifier = try AccountRules.identifier(phone: phone, email: email)
        let password = try AccountRules.password(password)
        let now = clock()
        if let wait = loginByAddress.retryAfter(address, now: now) {
            throw ServiceError.rateLimited(
                "Too many wrong codes. Try again in \(Self.duration(wait)).", retryAfter: wait)
        }
        do {
            try verifyCode(target: identifier.value, purpose: "reset", code: code, consume: true)
        } catch {
            loginByAddress.record(address, now: now)
            throw error
        }
        guard let user = try store.user(identifier: identifier) else { throw Self.badCode }
        try store.setPassword(
            userID: user.id, hash: Crypto.hashPassword(password, cost: settings.passwordCost), now: clock())
        loginByAccount.reset(identifier.value)
    }

    private func verifyCode(target: String, purpose: String, code: String, consume: Bool) throws {
        let code = code.trimmingCharacters(in: .whitespaces)
        guard code.count == 6, code.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw Self.badCode }
        let outcome = try store.checkCode(
            target: target, purpose: purpose, now: clock(), maxTries: settings.codeMaxTries, consume: consume
        ) { record in
            guard let salt = Crypto.unhex(record.salt), let stored = Crypto.unhex(record.codeHash) else {
                return false
            }
            let given = Crypto.unhex(Self.codeHash(code, target: target, purpose: purpose, salt: salt)) ?? []
            return Crypto.constantTimeEqual(given, stored)
        }
        switch outcome {
        case .accepted: return
        case .wrong: throw Self.badCode
        case .exhausted: throw Self.codeExhausted
        }
    }

    static func codeHash(_ code: String, target: String, purpose: String, salt: [UInt8]) -> String {
        Crypto.hex(Crypto.keyedHash("\(purpose)\n\(target)\n\(code)", key: salt))
    }

    static func purpose(_ text: String?) throws -> String {
        let purpose = text ?? "login"
        guard purposes.contains(purpose) else {
            throw ServiceError.invalid("'purpose' must be login, reset or register.")
        }
        return purpose
    }

    // MARK: Profiles

    /// A user as `viewer` may see them: private fields (phone, email, role) only for themselves; a disabled
    /// user is a 404 except to themselves and administrators.
    func user(id: Int64, viewer: Viewer?) throws -> User {
        guard let user = try store.user(id: id) else { throw Self.noUser }
        let isSelf = viewer?.userID == id
        if user.disabled && !isSelf && viewer?.isAdmin != true { throw Self.noUser }
        return user.model(private: isSelf)
    }

    /// A user's page as the viewer sees it: `user(id:viewer:)` plus whether the viewer follows them. The
    /// other callers only check that someone exists and need not pay for the follow lookup.
    func profile(id: Int64, viewer: Viewer?) throws -> User {
        var model = try user(id: id, viewer: viewer)
        if let viewer, viewer.userID != id {
            model.following = try store.follows(followerID: viewer.userID, followeeID: id)
        }
        if viewer?.userID == id { model.termsAccepted = try termsAccepted(id) }
        return model
    }

    /// The fields a PATCH may carry; absent fields stay, null or empty text clears.
    func updateProfile(id: Int64, patch: ProfileChange, viewer: Viewer) throws -> User {
        try requireSelf(id: id, viewer: viewer)
        let now = clock()
        func text(_ value: String??, _ field: String, _ limit: Int, newlines: Bool = false) throws -> String??
        {
            guard let value else { return nil }
            return .some(try AccountRules.text(value, field: field, limit: limit, allowNewlines: newlines))
        }
        let changes = AccountStore.ProfileChanges(
            nickname: try patch.nickname.map(AccountRules.nickname),
            description: try text(patch.description, "The description", 300, newlines: true),
            gender: try patch.gender.map(AccountRules.gender),
            birthday: try patch.birthday.map { try AccountRules.birthday($0, today: now) },
            province: try text(patch.province, "The province", 32),
            city: try text(patch.city, "The city", 32), area: try text(patch.area, "The area", 32))
        guard try store.updateProfile(id: id, changes, now: now) else {
            throw ServiceError.conflict("Someone already uses that nickname. Choose another.")
        }
        return try user(id: id, viewer: viewer)
    }

    /// Throws 404 for an unknown user and 403 for someone else's account.
    func requireSelf(id: Int64, viewer: Viewer) throws {
        guard id == viewer.userID else {
            guard try store.user(id: id) != nil else { throw Self.noUser }
            throw ServiceError.forbidden("You can only change your own account.")
        }
    }

    /// Replaces one's avatar with a checked, resized copy of an uploaded JPEG, PNG or WebP image.
    func setAvatar(id: Int64, uploadPath: String, size: Int, viewer: Viewer) throws -> User {
        try requireSelf(id: id, viewer: viewer)
        guard size <= AvatarImages.maxUploadBytes else {
            throw ServiceError.tooLarge("An avatar can be at most 10 MB. Choose a smaller picture.")
        }
        guard let kind = AvatarImages.kind(ofFileAt: uploadPath) else {
            throw ServiceError.unsupportedFormat("An avatar must be a JPEG, PNG or WebP picture.")
        }
        try AvatarImages.resize(uploadPath, kind: kind, to: avatarPath(userID: id))
        let now = clock()
        try store.setAvatarVersion(userID: id, version: now, now: now)
        return try user(id: id, viewer: viewer)
    }

    func avatarPath(userID: Int64) -> String { avatarFolder + "/\(userID).jpg" }

    // MARK: Administration

    /// Throws unless the viewer is an administrator; before any administrator exists, a request from this
    /// machine (loopback) counts as one, so a fresh server can be set up.
    func requireAdmin(_ viewer: Viewer?, remoteAddress: String, action: String) throws {
        if let viewer, viewer.isAdmin { return }
        let local =
            remoteAddress == "127.0.0.1" || remoteAddress == "::1" || remoteAddress.hasPrefix("::ffff:127.")
        if viewer == nil, local, try !store.adminExists() { return }
        if viewer == nil { throw ServiceError.unauthenticated("Sign in as an administrator to \(action).") }
        throw ServiceError.forbidden("Only an administrator can \(action).")
    }

    func setDisabled(id: Int64, disabled: Bool, by viewer: Viewer) throws -> User {
        guard try store.user(id: id) != nil else { throw Self.noUser }
        if id == viewer.userID && disabled {
            throw ServiceError.invalid("You cannot disable your own account.")
        }
        try store.setDisabled(userID: id, disabled: disabled, now: clock())
        guard let user = try store.user(id: id) else { throw Self.noUser }
        return user.model(private: true)
    }

    /// Changes one's own password, given the current one; every other device is signed out.
    func changePassword(id: Int64, current: String, new: String, viewer: Viewer) throws {
        try requireSelf(id: id, viewer: viewer)
        let now = clock()
        if let wait = loginByAccount.retryAfter(String(id), now: now) {
            throw ServiceError.rateLimited(
                "Too many wrong passwords. Try again in \(Self.duration(wait)).", retryAfter: wait)
        }
        let password = try AccountRules.password(new)
        guard let user = try store.user(id: id) else { throw Self.noUser }
        guard Crypto.verifyPassword(current, hash: user.passwordHash) else {
            loginByAccount.record(String(id), now: clock())
            throw ServiceError.forbidden("Your current password is not right.")
        }
        try store.setPassword(
            userID: id, hash: Crypto.hashPassword(password, cost: settings.passwordCost), now: clock(),
            keepingSession: viewer.sessionID)
    }

    /// Deletes an account: one's own (the password confirms it), or anyone's by an administrator.
    func deleteUser(id: Int64, password: String?, viewer: Viewer) throws {
        guard let user = try store.user(id: id) else { throw Self.noUser }
        if id == viewer.userID {
            guard let password, Crypto.verifyPassword(password, hash: user.passwordHash) else {
                throw ServiceError.forbidden("Enter your password to delete your account.")
            }
        } else if !viewer.isAdmin {
            throw ServiceError.forbidden("You can only delete your own account.")
        }
        guard try store.deleteUser(userID: id) else { throw Self.noUser }
        unlink(avatarPath(userID: id))
    }

    static func duration(_ seconds: Int) -> String {
        if seconds < 90 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        if seconds < 5_400 { return "\((seconds + 59) / 60) minutes" }
        return "\((seconds + 3_599) / 3_600) hours"
    }
}
