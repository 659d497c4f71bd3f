import Cryptography
import Foundation
import MusicCore
import Storage
import Synchronization

/// The accounts' rules: sign-up, sign-in by password or code, sessions, codes, profiles and roles.
///
/// Each use case is one transaction over the stores it needs: a sign-up writes the user (and, by the
/// schema's trigger, their "I like" sheet) and uses up its code together; a sign-in by code uses the code
/// and opens the session together; a code and its outbox message are committed together. A wrong code's
/// try is committed even though the request is refused. argon2id runs outside transactions, so no writer
/// waits for it.
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
        /// Failed sign-ins per address and account before back-off starts (30 s, doubling to 15 min): the
        /// account's other devices and addresses are never slowed down by them.
        var loginFailuresPerAccountAndAddress = 5
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

    let database: Database
    let store = AccountStore()
    let sheets = SheetReads()
    let sender: any CodeSender
    let settings: Settings
    let avatarFolder: String
    /// Where a sheet's own cover is stored (`SheetService.coverPath`), to remove a deleted user's covers.
    let sheetCoverPath: @Sendable (Int64) -> String
    let clock: @Sendable () -> Int64
    /// Whether a person has accepted the current terms (the Terms feature answers), for their own profile.
    let termsAccepted: @Sendable (Int64) throws -> Bool?
    /// Called after a transaction that ended sessions has committed, so their event streams close at once
    /// (`SessionEnds.check`; the database wrote which ones).
    let sessionsEnded: @Sendable () -> Void
    /// Failure counts, kept in the database so that every server process sees the same.
    private let loginByAccountAndAddress: BackoffLimiter
    private let loginByAddress: BackoffLimiter
    private let codesByAddress: BackoffLimiter
    private let registrationsByAddress: BackoffLimiter
    /// Wrong current passwords when changing one's password, per account (the caller holds its session).
    private let passwordChecksByAccount: BackoffLimiter
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
    static let disabledAccount = ServiceError.forbidden(
        "This account has been disabled. Contact the server's administrator.")
    static let nicknameTaken = ServiceError.conflict("Someone already uses that nickname. Choose another.")
    static let purposes = ["login", "reset", "register"]

    /// `sender` defaults to the outbox in `database`.
    init(
        database: Database, sender: (any CodeSender)? = nil, avatarFolder: String,
        sheetCoverPath: @escaping @Sendable (Int64) -> String, settings: Settings = Settings(),
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) },
        termsAccepted: @escaping @Sendable (Int64) throws -> Bool? = { _ in nil },
        sessionsEnded: @escaping @Sendable () -> Void = {}
    ) {
        self.termsAccepted = termsAccepted
        self.sessionsEnded = sessionsEnded
        self.database = database
        self.sender = sender ?? OutboxSender(database: database, clock: clock)
        self.avatarFolder = avatarFolder
        self.sheetCoverPath = sheetCoverPath
        self.settings = settings
        self.clock = clock
        loginByAccountAndAddress = BackoffLimiter(
            "signin.account+address", .init(allowed: settings.loginFailuresPerAccountAndAddress))
        loginByAddress = BackoffLimiter("signin.address", .init(allowed: settings.loginFailuresPerAddress))
        codesByAddress = BackoffLimiter("codes.address", .init(allowed: settings.codeSendsPerAddress))
        registrationsByAddress = BackoffLimiter(
            "signup.address", .init(allowed: settings.registrationsPerAddress))
        passwordChecksByAccount = BackoffLimiter(
            "password.account", .init(allowed: settings.loginFailuresPerAccountAndAddress))
    }

    /// How a use case that checks a code ended. Its transaction commits in every case, so that a wrong try
    /// stays counted and a used code stays used; the refusal is thrown after the commit.
    private enum Checked<Value> {
        case done(Value)
        /// The code was wrong, expired or used up: counts against the address (and the account).
        case wrongCode(ServiceError)
        /// The code was right but the request is refused all the same.
        case refused(ServiceError)
    }

    /// The value of a committed use case, or its refusal (calling `onWrongCode` first for a wrong code).
    private func outcome<Value>(_ checked: Checked<Value>, onWrongCode: () throws -> Void) throws -> Value {
        switch checked {
        case .done(let value): return value
        case .wrongCode(let error):
            try onWrongCode()
            throw error
        case .refused(let error): throw error
        }
    }

    private func throwIfBlocked(
        _ limiter: BackoffLimiter, _ key: String, now: Int64, _ message: LocalizedText
    )
        throws
    {
        if let wait = try database.read({ db in try limiter.retryAfter(db, key, now: now) }) {
            throw ServiceError.rateLimited(
                "\(message) Try again in \(Self.duration(wait)).", retryAfter: wait)
        }
    }

    // MARK: Sign-up

    /// Registers someone from the API: rate-limited per address, and (with `signupCodes`) only with a
    /// `register` code, which the owner of an address already in use never receives. The user, their
    /// "I like" sheet and the use of the code are one transaction: a sign-up that fails leaves none of
    /// them, and its code can be used again.
    func register(
        phone: String?, email: String?, password: String, nickname: String, code: String?, address: String
    ) throws -> User {
        let identifier = try AccountRules.identifier(phone: phone, email: email)
        let password = try AccountRules.password(password)
        let nickname = try AccountRules.nickname(nickname)
        let now = clock()
        try throwIfBlocked(
            registrationsByAddress, address, now: now, "Too many accounts were made from your network.")
        if settings.signupCodes || code != nil {
            guard code != nil else {
                throw ServiceError.invalid(
                    "Ask for a sign-up code first (POST /v1/codes with purpose 'register'), then send it as 'code'."
                )
            }
            try throwIfBlocked(loginByAddress, address, now: now, LocalizedText("Too many wrong codes."))
        }
        let hash = Crypto.hashPassword(password, cost: settings.passwordCost)
        let checked: Checked<AccountStore.UserRecord>
        do {
            checked = try database.write { db in
                var codeID: Int64?
                if let code {
                    switch try checkCode(db, target: identifier.value, purpose: "register", code: code) {
                    case .wrongCode(let error): return .wrongCode(error)
                    case .refused(let error): return .refused(error)
                    case .done(let id): codeID = id
                    }
                }
                let user = try insertUser(
                    db, identifier: identifier, nickname: nickname, passwordHash: hash, admin: false,
                    now: clock())
                if let codeID { try store.deleteCode(db, id: codeID) }
                try registrationsByAddress.record(db, address, now: now)
                return .done(user)
            }
        } catch {
            try record(registrationsByAddress, address, now: now)
            throw error
        }
        let user = try outcome(checked) { try record(loginByAddress, address, now: now) }
        return user.model(private: true)
    }

    /// Adds a user from the shell (no code); the first user is an administrator.
    func createUser(
        identifier: AccountRules.Identifier, password: String, nickname: (nickname: String, key: String),
        admin: Bool
    ) throws -> AccountStore.UserRecord {
        let hash = Crypto.hashPassword(password, cost: settings.passwordCost)
        return try database.write { db in
            try insertUser(
                db, identifier: identifier, nickname: nickname, passwordHash: hash, admin: admin, now: clock()
            )
        }
    }

    /// Adds a user in the caller's transaction, unless the phone, email or nickname is taken; the first
    /// user of the server, or one asked for as `admin`, is an administrator.
    private func insertUser(
        _ db: Connection, identifier: AccountRules.Identifier, nickname: (nickname: String, key: String),
        passwordHash: String, admin: Bool, now: Int64
    ) throws -> AccountStore.UserRecord {
        if try store.identifierTaken(db, identifier) {
            throw ServiceError.conflict(
                "That \(word: identifier.channel == "sms" ? "phone number" : "email address") cannot be used to sign up. "
                    + "If it is yours, sign in or reset the password.")
        }
        if try store.nicknameTaken(db, key: nickname.key) { throw Self.nicknameTaken }
        let first = try !store.hasUsers(db)
        let id = try store.insertUser(
            db, identifier: identifier, nickname: nickname, passwordHash: passwordHash,
            role: admin || first ? "admin" : "user", now: now)
        guard let user = try store.user(db, id: id) else { throw Self.noUser }
        return user
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
    /// A code is used and the session opened in one transaction.
    func login(_ input: LoginInput, address: String, userAgent: String?) throws -> LoginResult {
        let identifier = try AccountRules.identifier(phone: input.phone, email: input.email)
        let device = try TextPolicy.check(input.device, field: "The device name", limit: 64)
        let now = clock()
        let pairKey = address + "|" + identifier.value
        if let wait = try database.read({ db in
            [
                try loginByAccountAndAddress.retryAfter(db, pairKey, now: now),
                try loginByAddress.retryAfter(db, address, now: now),
            ]
            .compactMap({ $0 }).max()
        }) {
            throw ServiceError.rateLimited(
                "Too many failed sign-ins. Try again in \(Self.duration(wait)).", retryAfter: wait)
        }
        let token = Crypto.randomToken()
        let chatToken = Crypto.randomToken()
        /// Opens the session in `db` for the user, unless they are disabled.
        func openSession(_ db: Connection, _ user: AccountStore.UserRecord) throws -> Checked<LoginResult> {
            guard !user.disabled else { return .refused(Self.disabledAccount) }
            try store.deleteExpiredSessions(db, now: now)
            try loginByAccountAndAddress.reset(db, pairKey)
            _ = try store.insertSession(
                db, userID: user.id, tokenHash: Crypto.tokenHash(token),
                chatTokenHash: Crypto.tokenHash(chatToken),
                device: device, userAgent: userAgent.map { String($0.prefix(256)) }, address: address,
                now: now,
                expiresAt: now + settings.sessionLifetime)
            return .done(LoginResult(userId: String(user.id), session: token, chatToken: chatToken))
        }
        let checked: Checked<LoginResult>
        switch (input.password, input.code) {
        case (let password?, nil):
            let decoyHash = decoy()
            let found = try database.read { db in try store.user(db, identifier: identifier) }
            guard Crypto.verifyPassword(password, hash: found?.passwordHash ?? decoyHash), let found else {
                try recordFailure(pairKey: pairKey, address: address, now: clock())
                throw Self.badCredentials
            }
            checked = try database.write { db in
                guard let user = try store.user(db, id: found.id) else {
                    return .refused(Self.badCredentials)
                }
                return try openSession(db, user)
            }
        case (nil, let code?):
            checked = try database.write { db in
                switch try checkCode(db, target: identifier.value, purpose: "login", code: code) {
                case .wrongCode(let error): return .wrongCode(error)
                case .refused(let error): return .refused(error)
                case .done(let codeID):
                    try store.deleteCode(db, id: codeID)
                    guard let user = try store.user(db, identifier: identifier) else {
                        return .refused(Self.badCode)
                    }
                    return try openSession(db, user)
                }
            }
        case (nil, nil):
            throw ServiceError.invalid("Enter your password, or a code sent to you.")
        default:
            throw ServiceError.invalid("Sign in with a password or with a code, not both.")
        }
        return try outcome(checked) {
            try recordFailure(pairKey: pairKey, address: address, now: clock())
        }
    }

    /// Takes the time the failure became known: a slow hash must not shorten the block that follows.
    private func recordFailure(pairKey: String, address: String, now: Int64) throws {
        try database.write { db in
            try loginByAccountAndAddress.record(db, pairKey, now: now)
            try loginByAddress.record(db, address, now: now)
        }
    }

    /// One failure of `key`, in a transaction of its own (the use case's was rolled back or refused).
    private func record(_ limiter: BackoffLimiter, _ key: String, now: Int64) throws {
        try database.write { db in try limiter.record(db, key, now: now) }
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
        guard token.utf8.count == 64, Crypto.unhex(token) != nil else { throw Self.signInAgain }
        let tokenHash = Crypto.tokenHash(token.lowercased())
        guard let session = try database.read({ db in try store.session(db, tokenHash: tokenHash) }) else {
            throw Self.signInAgain
        }
        let now = clock()
        guard session.expiresAt > now, !session.disabled else { throw Self.signInAgain }
        if now - session.lastSeenAt >= 60 {
            try database.write { db in
                try store.touchSession(
                    db, id: session.id, now: now, expiresAt: now + settings.sessionLifetime, address: address)
            }
        }
        return Viewer(userID: session.userID, sessionID: session.id, isAdmin: session.role == "admin")
    }

    /// The viewer a chat token belongs to: it opens the event stream and nothing else. Throws 401 as
    /// `authenticate` does.
    func authenticate(chatToken token: String) throws -> Viewer {
        let refused = ServiceError.unauthenticated(
            "That chat token is not valid any more: sign in again, or get a new one with POST /v1/events/token."
        )
        guard token.utf8.count == 64, Crypto.unhex(token) != nil else { throw refused }
        let hash = Crypto.tokenHash(token.lowercased())
        guard let session = try database.read({ db in try store.session(db, chatTokenHash: hash) }),
            session.expiresAt > clock(), !session.disabled
        else { throw refused }
        return Viewer(userID: session.userID, sessionID: session.id, isAdmin: session.role == "admin")
    }

    /// A new chat token for the viewer's session; the one from signing in stops working.
    func newChatToken(for viewer: Viewer) throws -> ChatToken {
        let token = Crypto.randomToken()
        try database.write { db in
            try store.setChatToken(db, sessionID: viewer.sessionID, hash: Crypto.tokenHash(token))
        }
        return ChatToken(chatToken: token)
    }

    func sessions(of viewer: Viewer) throws -> [DeviceSession] {
        try database.read { db in try store.sessions(db, userID: viewer.userID, now: clock()) }.map {
            DeviceSession(
                id: String($0.id), device: $0.device, userAgent: $0.userAgent, address: $0.address,
                current: $0.id == viewer.sessionID, lastSeenAt: APIDate.string($0.lastSeenAt),
                expiresAt: APIDate.string($0.expiresAt), createdAt: APIDate.string($0.createdAt),
                updatedAt: APIDate.string($0.lastSeenAt))
        }
    }

    /// Ends one of the viewer's sessions; another user's session is the same 404 as a missing one.
    func revokeSession(id: Int64, by viewer: Viewer) throws {
        guard
            try database.write({ db in
                endingSessions(db)
                return try store.deleteSession(db, id: id, userID: viewer.userID)
            })
        else {
            throw ServiceError.notFound("That session does not exist.")
        }
    }

    /// Signs this device out.
    func logout(_ viewer: Viewer) throws { try revokeSession(id: viewer.sessionID, by: viewer) }

    /// Closes the event streams of the sessions `db`'s transaction ends, once it commits.
    private func endingSessions(_ db: Connection) { db.afterCommit { [sessionsEnded] in sessionsEnded() } }

    // MARK: Codes

    /// Makes a code and its message in one transaction (the send limits checked inside it); a message that
    /// leaves the server (email) goes once that transaction committed.
    func sendCode(phone: String?, email: String?, purpose: String?, address: String) throws -> CodeSent {
        let identifier = try AccountRules.identifier(phone: phone, email: email)
        let purpose = try Self.purpose(purpose)
        let now = clock()
        try throwIfBlocked(
            codesByAddress, address, now: now,
            LocalizedText("Too many codes were asked for from your network."))
        let code = Crypto.randomDigits(6)
        let salt = Crypto.randomBytes(16)
        let delivery = try database.write { db in
            let sends = try store.sends(db, target: identifier.value, since: now - 86_400)
            if let newest = sends.newest, now - newest < settings.codeResendInterval {
                let wait = Int(settings.codeResendInterval - (now - newest))
                throw ServiceError.rateLimited(
                    "A code was just sent. You can ask for another in \(Self.duration(wait)).",
                    retryAfter: wait)
            }
            if sends.count >= settings.codeDailyLimit, let oldest = sends.oldest {
                let wait = Int(max(1, oldest + 86_400 - now))
                throw ServiceError.rateLimited(
                    "That is the most codes for one day. Try again in \(Self.duration(wait)).",
                    retryAfter: wait)
            }
            try codesByAddress.record(db, address, now: now)
            try store.insertCode(
                db, target: identifier.value, purpose: purpose,
                codeHash: Self.codeHash(code, target: identifier.value, purpose: purpose, salt: salt),
                salt: Crypto.hex(salt), now: now, expiresAt: now + settings.codeLifetime)
            try store.logSend(db, target: identifier.value, address: address, now: now)
            let exists = try store.user(db, identifier: identifier) != nil
            return try sender.send(
                db, channel: identifier.channel, target: identifier.value, purpose: purpose,
                text: codeMessage(code, purpose: purpose, accountExists: exists))
        }
        try delivery?()
        return CodeSent(expiresIn: Int(settings.codeLifetime), resendAfter: Int(settings.codeResendInterval))
    }

    /// What a code's message says: the code only when it can be used (no sign-up code for an address
    /// already in use, no sign-in or reset code for one that is not).
    private func codeMessage(_ code: String, purpose: String, accountExists: Bool) -> String {
        let minutes = settings.codeLifetime / 60
        switch (accountExists, purpose) {
        case (false, "register"):
            return "Your CloudMusic sign-up code is \(code). It expires in \(minutes) minutes."
        case (true, "register"):
            return "Someone tried to sign up for CloudMusic with this address, which already has an account. "
                + "If it was you, sign in or reset your password. If not, ignore this message."
        case (true, "reset"):
            return "Your CloudMusic code to reset the password is \(code). It expires in \(minutes) minutes."
        case (true, _):
            return "Your CloudMusic sign-in code is \(code). It expires in \(minutes) minutes."
        default:
            return "Someone asked for a CloudMusic code for this address, but no account uses it. "
                + "If it was you, sign up first. If not, ignore this message."
        }
    }

    /// Checks a code without using it up (the apps check it before showing the next step).
    func checkCode(phone: String?, email: String?, purpose: String?, code: String, address: String) throws {
        let identifier = try AccountRules.identifier(phone: phone, email: email)
        let purpose = try Self.purpose(purpose)
        let now = clock()
        try throwIfBlocked(loginByAddress, address, now: now, LocalizedText("Too many wrong codes."))
        let checked = try database.write { db in
            try checkCode(db, target: identifier.value, purpose: purpose, code: code)
        }
        _ = try outcome(checked) { try record(loginByAddress, address, now: now) }
    }

    /// Sets a new password with a `reset` code and signs the account out everywhere, in one transaction.
    func resetPassword(phone: String?, email: String?, code: String, password: String, address: String) throws
    {
        let identifier = try AccountRules.identifier(phone: phone, email: email)
        let password = try AccountRules.password(password)
        let now = clock()
        try throwIfBlocked(loginByAddress, address, now: now, LocalizedText("Too many wrong codes."))
        let hash = Crypto.hashPassword(password, cost: settings.passwordCost)
        let checked: Checked<Void> = try database.write { db in
            switch try checkCode(db, target: identifier.value, purpose: "reset", code: code) {
            case .wrongCode(let error): return .wrongCode(error)
            case .refused(let error): return .refused(error)
            case .done(let codeID):
                try store.deleteCode(db, id: codeID)
                guard let user = try store.user(db, identifier: identifier) else {
                    return .refused(Self.badCode)
                }
                try store.setPasswordHash(db, userID: user.id, hash: hash, now: clock())
                try store.deleteSessions(db, userID: user.id)
                endingSessions(db)
                try loginByAccountAndAddress.reset(db, address + "|" + identifier.value)
                return .done(())
            }
        }
        try outcome(checked) { try record(loginByAddress, address, now: now) }
    }

    /// Checks `code` against the newest one for the target and purpose in the caller's transaction, counting
    /// a wrong try; answers the matching code's id, which the caller deletes when it uses the code up.
    private func checkCode(_ db: Connection, target: String, purpose: String, code: String) throws -> Checked<
        Int64
    > {
        let code = code.trimmingCharacters(in: .whitespaces)
        guard code.count == 6, code.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return .wrongCode(Self.badCode)
        }
        guard let record = try store.latestCode(db, target: target, purpose: purpose),
            record.expiresAt > clock()
        else { return .wrongCode(Self.badCode) }
        guard record.tries < settings.codeMaxTries else { return .wrongCode(Self.codeExhausted) }
        if let salt = Crypto.unhex(record.salt), let stored = Crypto.unhex(record.codeHash),
            Crypto.constantTimeEqual(
                Crypto.unhex(Self.codeHash(code, target: target, purpose: purpose, salt: salt)) ?? [], stored)
        {
            return .done(record.id)
        }
        try store.countTry(db, codeID: record.id)
        return .wrongCode(Self.badCode)
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
        try database.read { db in try user(db, id: id, viewer: viewer) }
    }

    /// `user(id:viewer:)` in the caller's transaction (for other features' use cases).
    func user(_ db: Connection, id: Int64, viewer: Viewer?) throws -> User {
        guard let user = try store.user(db, id: id) else { throw Self.noUser }
        let isSelf = viewer?.userID == id
        if user.disabled && !isSelf && viewer?.isAdmin != true { throw Self.noUser }
        return user.model(private: isSelf)
    }

    /// A user's page as the viewer sees it: `user(id:viewer:)` plus whether the viewer follows them. The
    /// other callers only check that someone exists and need not pay for the follow lookup.
    func profile(id: Int64, viewer: Viewer?) throws -> User {
        var model = try database.read { db in
            var model = try user(db, id: id, viewer: viewer)
            if let viewer, viewer.userID != id {
                model.following = try store.follows(db, followerID: viewer.userID, followeeID: id)
            }
            return model
        }
        if viewer?.userID == id { model.termsAccepted = try termsAccepted(id) }
        return model
    }

    /// The person with this nickname (a tapped @mention passes its text, with or without the `@`), compared
    /// by the key sign-up keeps unique; a page of at most one, as the viewer would see their profile.
    /// Disabled accounts are never found.
    func findByNickname(_ text: String, paging: Paging, viewer: Viewer?) throws -> Page<User> {
        let nickname = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var keys = [AccountRules.nicknameKey(nickname)]
        if nickname.hasPrefix("@") { keys.append(AccountRules.nicknameKey(String(nickname.dropFirst()))) }
        return try database.read { db in
            var found: AccountStore.UserRecord?
            for key in keys where found == nil {
                found = try store.user(db, nicknameKey: key).flatMap { $0.disabled ? nil : $0 }
            }
            guard let found else { return Page(items: [], total: 0, page: paging.page, size: paging.size) }
            var model = found.model(private: viewer?.userID == found.id)
            if let viewer, viewer.userID != found.id {
                model.following = try store.follows(db, followerID: viewer.userID, followeeID: found.id)
            }
            return Page(
                items: paging.page == 1 ? [model] : [], total: 1, page: paging.page, size: paging.size)
        }
    }

    /// The fields a PATCH may carry; absent fields stay, null or empty text clears.
    func updateProfile(id: Int64, patch: ProfileChange, viewer: Viewer) throws -> User {
        let now = clock()
        func text(_ value: String??, _ written: WrittenText) throws -> String?? {
            guard let value else { return nil }
            return .some(try written.check(value))
        }
        try requireSelf(id: id, viewer: viewer)
        let changes = AccountStore.ProfileChanges(
            nickname: try patch.nickname.map(AccountRules.nickname),
            description: try text(patch.description, ProfileChange.descriptionText),
            gender: try patch.gender.map(AccountRules.gender),
            birthday: try patch.birthday.map { try AccountRules.birthday($0, today: now) },
            province: try text(patch.province, ProfileChange.provinceText),
            city: try text(patch.city, ProfileChange.cityText),
            area: try text(patch.area, ProfileChange.areaText))
        return try database.write { db in
            if let nickname = changes.nickname,
                try store.nicknameTaken(db, key: nickname.key, exceptUserID: id)
            {
                throw Self.nicknameTaken
            }
            try store.updateProfile(db, id: id, changes, now: now)
            return try user(db, id: id, viewer: viewer)
        }
    }

    /// Throws 404 for an unknown user and 403 for someone else's account.
    func requireSelf(id: Int64, viewer: Viewer) throws {
        guard id == viewer.userID else {
            guard try database.read({ db in try store.user(db, id: id) }) != nil else { throw Self.noUser }
            throw ServiceError.forbidden("You can only change your own account.")
        }
    }

    /// Replaces one's avatar with a checked, resized copy of an uploaded JPEG, PNG or WebP image.
    func setAvatar(id: Int64, upload: Upload, viewer: Viewer) throws -> User {
        try requireSelf(id: id, viewer: viewer)
        let file = try upload.storedFile()
        guard file.size <= AvatarImages.maxUploadBytes else {
            throw ServiceError.tooLarge("An avatar can be at most 10 MB. Choose a smaller picture.")
        }
        guard let kind = AvatarImages.kind(ofFileAt: file.path) else {
            throw ServiceError.unsupportedFormat("An avatar must be a JPEG, PNG or WebP picture.")
        }
        try AvatarImages.resize(file.path, kind: kind, to: avatarPath(userID: id))
        let now = clock()
        return try database.write { db in
            try store.setAvatarVersion(db, userID: id, version: now, now: now)
            return try user(db, id: id, viewer: viewer)
        }
    }

    /// The avatar file of a user the viewer may see, when they have one.
    func avatar(userID: Int64, viewer: Viewer?) throws -> String {
        let user = try user(id: userID, viewer: viewer)
        let path = avatarPath(userID: userID)
        guard user.icon != nil, FileManager.default.fileExists(atPath: path) else {
            throw ServiceError.notFound("This user has no avatar.")
        }
        return path
    }

    func avatarPath(userID: Int64) -> String { avatarFolder + "/\(userID).jpg" }

    /// Changes one's own password, given the current one; every other device is signed out.
    func changePassword(id: Int64, current: String, new: String, viewer: Viewer) throws {
        try requireSelf(id: id, viewer: viewer)
        let now = clock()
        try throwIfBlocked(
            passwordChecksByAccount, String(id), now: now, LocalizedText("Too many wrong passwords."))
        let password = try AccountRules.password(new)
        guard let user = try database.read({ db in try store.user(db, id: id) }) else { throw Self.noUser }
        guard Crypto.verifyPassword(current, hash: user.passwordHash) else {
            try record(passwordChecksByAccount, String(id), now: clock())
            throw ServiceError.forbidden("Your current password is not right.")
        }
        let hash = Crypto.hashPassword(password, cost: settings.passwordCost)
        try database.write { db in
            try store.setPasswordHash(db, userID: id, hash: hash, now: clock())
            try store.deleteSessions(db, userID: id, keeping: viewer.sessionID)
            endingSessions(db)
        }
    }

    /// Deletes an account: one's own (the password confirms it), or anyone's by an administrator.
    func deleteUser(id: Int64, password: String?, viewer: Viewer) throws {
        guard let user = try database.read({ db in try store.user(db, id: id) }) else { throw Self.noUser }
        if id == viewer.userID {
            guard let password, Crypto.verifyPassword(password, hash: user.passwordHash) else {
                throw ServiceError.forbidden("Enter your password to delete your account.")
            }
        } else if !viewer.isAdmin {
            throw ServiceError.forbidden("You can only delete your own account.")
        }
        try removeUser(id: id)
    }

    /// Deletes the user and everything of theirs in one transaction, then their avatar and sheet covers.
    private func removeUser(id: Int64) throws {
        let covers = try database.write { db in
            let covers = try sheets.sheetIDsWithCovers(db, userID: id)
            guard try store.deleteUser(db, userID: id) else { throw Self.noUser }
            endingSessions(db)
            return covers
        }
        unlink(avatarPath(userID: id))
        for sheetID in covers { unlink(sheetCoverPath(sheetID)) }
    }

    // MARK: Administration

    /// Throws unless the viewer is an administrator; before any administrator exists, a request from this
    /// machine (loopback) counts as one, so a fresh server can be set up.
    func requireAdmin(_ viewer: Viewer?, remoteAddress: String, action: String) throws {
        if let viewer, viewer.isAdmin { return }
        let local =
            remoteAddress == "127.0.0.1" || remoteAddress == "::1" || remoteAddress.hasPrefix("::ffff:127.")
        if viewer == nil, local, try !database.read({ db in try store.adminExists(db) }) { return }
        if viewer == nil { throw ServiceError.unauthenticated("Sign in as an administrator to \(action).") }
        throw ServiceError.forbidden("Only an administrator can \(action).")
    }

    /// Every user, oldest first, with their private fields.
    func users(paging: Paging) throws -> Page<User> {
        try database.read { db in try store.users(db, paging: paging) }
    }

    /// The messages the built-in sender wrote, newest first.
    func outbox(paging: Paging) throws -> Page<OutboxMessage> {
        try database.read { db in try store.outbox(db, paging: paging) }
    }

    /// Disables or enables someone else's account; disabling signs them out everywhere.
    func setDisabled(id: Int64, disabled: Bool, by viewer: Viewer) throws -> User {
        if id == viewer.userID && disabled {
            guard try database.read({ db in try store.user(db, id: id) }) != nil else { throw Self.noUser }
            throw ServiceError.invalid("You cannot disable your own account.")
        }
        return try setDisabled(id: id, disabled: disabled).model(private: true)
    }

    // MARK: The shell

    /// Disables or enables an account (from the shell: any account); disabling signs it out everywhere.
    @discardableResult
    func setDisabled(id: Int64, disabled: Bool) throws -> AccountStore.UserRecord {
        try database.write { db in
            guard try store.user(db, id: id) != nil else { throw Self.noUser }
            try store.setDisabled(db, userID: id, disabled: disabled, now: clock())
            if disabled {
                try store.deleteSessions(db, userID: id)
                endingSessions(db)
            }
            guard let user = try store.user(db, id: id) else { throw Self.noUser }
            return user
        }
    }

    /// Sets a new password (from the shell) and signs the account out everywhere.
    func setPassword(id: Int64, password: String) throws {
        let hash = Crypto.hashPassword(password, cost: settings.passwordCost)
        try database.write { db in
            guard try store.user(db, id: id) != nil else { throw Self.noUser }
            try store.setPasswordHash(db, userID: id, hash: hash, now: clock())
            try store.deleteSessions(db, userID: id)
            endingSessions(db)
        }
    }

    /// Deletes an account (from the shell) with everything of it.
    func deleteUser(id: Int64) throws { try removeUser(id: id) }

    /// An account by its id, phone or email, secrets included (for the shell).
    func userRecord(id: Int64) throws -> AccountStore.UserRecord? {
        try database.read { db in try store.user(db, id: id) }
    }

    func userRecord(identifier: AccountRules.Identifier) throws -> AccountStore.UserRecord? {
        try database.read { db in try store.user(db, identifier: identifier) }
    }

    static func duration(_ seconds: Int) -> LocalizedText {
        if seconds < 90 {
            return seconds == 1 ? LocalizedText("1 second") : LocalizedText("\(seconds) seconds")
        }
        if seconds < 5_400 { return LocalizedText("\((seconds + 59) / 60) minutes") }
        return LocalizedText("\((seconds + 3_599) / 3_600) hours")
    }
}
