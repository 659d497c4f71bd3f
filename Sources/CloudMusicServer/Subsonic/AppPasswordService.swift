import Cryptography
import Foundation
import MusicCore
import Storage

/// Who a Subsonic request comes from, once its credentials are checked.
struct SubsonicUser: Sendable {
    var id: Int64
    /// The nickname: what `getUser` and `tokenInfo` call the person.
    var username: String
    var isAdmin: Bool
    var email: String?
    var likesSheetID: Int64

    /// The person as the sheets' rules see them.
    var viewer: Viewer { Viewer(userID: id, sessionID: 0, isAdmin: isAdmin) }
    var listener: SubsonicStore.Listener { SubsonicStore.Listener(userID: id, likesSheetID: likesSheetID) }
}

/// How a Subsonic request says who it is.
enum SubsonicCredentials: Sendable {
    /// `u` and `p` (clear, or `enc:` hex already decoded).
    case password(username: String, password: [UInt8])
    /// `u`, `t` = md5(password + s) and `s`.
    case token(username: String, token: String, salt: String)
    /// `apiKey` alone.
    case apiKey(String)
}

/// App passwords: made (shown once), listed and revoked by their owner, and checked for every Subsonic request
/// in constant time. Secrets are sealed with the server key (`<data>/app-passwords.key`, mode 0600, made
/// once), so the server can compute Subsonic's md5 tokens; a wrong try backs off like a wrong sign-in.
final class AppPasswordService: Sendable {
    let database: Database
    let store = AppPasswordStore()
    let subsonic = SubsonicStore()
    let clock: @Sendable () -> Int64
    private let sealKey: [UInt8]
    private let lookupKey: [UInt8]
    /// A sealed random secret, opened when the username is unknown so that costs what a known one does.
    private let decoy: [UInt8]
    /// Wrong tries per address, and per address and username (or API key prefix): counted in the database,
    /// so every server process sees them.
    let failuresByAddress: BackoffLimiter
    let failuresBySource: BackoffLimiter

    static let maxPerUser = 50
    /// 24 characters of 32 (no 0/o, 1/l): 120 bits, easy to type into a phone.
    static let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
    static let wrongCredentials = SubsonicError(
        .wrongCredentials,
        "Wrong username or password. Subsonic apps sign in with an app password: make one in CloudMusic's settings."
    )

    /// `keyFile` is made on first use; `failures` as sign-in's: 5 per address and username (or API key
    /// prefix) and 20 per address before a 30-second block that doubles up to 15 minutes.
    init(
        database: Database, keyFile: String, failuresPerSource: Int = 5, failuresPerAddress: Int = 20,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) throws {
        self.database = database
        self.clock = clock
        sealKey = try Crypto.serverKey(at: keyFile)
        lookupKey = Crypto.keyedHash("cloudmusic app password lookup", key: sealKey)
        decoy = Crypto.seal(Crypto.randomBytes(24), key: sealKey)
        failuresByAddress = BackoffLimiter("subsonic.address", .init(allowed: failuresPerAddress))
        failuresBySource = BackoffLimiter("subsonic.source", .init(allowed: failuresPerSource))
    }

    // MARK: Making, listing, revoking

    /// A new app password for `userID`, from the API (only for oneself) or the shell (`viewer` nil).
    func create(userID: Int64, name: String, by viewer: Viewer?) throws -> NewAppPassword {
        if let viewer, viewer.userID != userID {
            throw ServiceError.forbidden("You can only make app passwords for yourself.")
        }
        guard let name = try TextPolicy.check(name, field: "The name", limit: 64) else {
            throw ServiceError.invalid("Name the app password after the device or app that will use it.")
        }
        let secret = String((0..<24).map { _ in Self.alphabet[Int(Crypto.randomBytes(1)[0] & 31)] })
        let password = stride(from: 0, to: 24, by: 4).map { offset -> String in
            let start = secret.index(secret.startIndex, offsetBy: offset)
            return String(secret[start..<secret.index(start, offsetBy: 4)])
        }.joined(separator: "-")
        let sealed = Crypto.seal(Array(password.utf8), key: sealKey)
        let now = clock()
        return try database.write { db in
            guard let person = try subsonic.person(db, id: userID) else { throw AccountService.noUser }
            guard try store.count(db, userID: userID) < Self.maxPerUser else {
                throw ServiceError.conflict(
                    "You can have at most \(Self.maxPerUser) app passwords. Revoke one you no longer use.")
            }
            let id = try store.insert(
                db, userID: userID, name: name, secret: sealed, lookup: lookup(password), now: now)
            return NewAppPassword(
                id: String(id), name: name, password: password, username: person.nickname,
                createdAt: APIDate.string(now), updatedAt: APIDate.string(now))
        }
    }

    /// A person's app passwords, for themselves or an administrator.
    func list(userID: Int64, by viewer: Viewer) throws -> [AppPassword] {
        try requireSelfOrAdmin(userID: userID, viewer: viewer)
        return try database.read { db in
            guard try subsonic.person(db, id: userID) != nil else { throw AccountService.noUser }
            return try store.list(db, userID: userID).map {
                AppPassword(
                    id: String($0.id), name: $0.name, lastUsedAt: $0.lastUsedAt.map(APIDate.string),
                    createdAt: APIDate.string($0.createdAt), updatedAt: APIDate.string($0.createdAt))
            }
        }
    }

    /// Revokes one: the next request signed with it fails.
    func revoke(userID: Int64, passwordID: Int64, by viewer: Viewer) throws {
        try requireSelfOrAdmin(userID: userID, viewer: viewer)
        try database.write { db in
            guard try store.delete(db, userID: userID, id: passwordID) else {
                throw ServiceError.notFound("That app password does not exist.")
            }
        }
        // Not needed for safety (a remembered match is checked against the database), only to keep it small.
        verified.forget(passwordID: passwordID)
    }

    private func requireSelfOrAdmin(userID: Int64, viewer: Viewer) throws {
        guard viewer.userID == userID || viewer.isAdmin else {
            throw ServiceError.forbidden(
                "Only the account's owner (or an administrator) can see its app passwords.")
        }
    }

    private func lookup(_ password: String) -> String {
        Crypto.hex(Crypto.keyedHash(password, key: lookupKey))
    }

    // MARK: Checking a request

    /// The person the credentials belong to. Every app password of the username is tried in constant time;
    /// an unknown username costs the same and answers the same (40); an apiKey that is no app password is 44.
    ///
    /// A correct credential always passes, whatever failed before it from the same address or for the same
    /// username: app passwords are 120-bit random, so nobody guesses one, and refusing unchecked would let a
    /// stale app password on an old phone lock out the new one on the same network. Wrong tries are counted
    /// per address and per address and username (or API key prefix) in the database; once a source is over
    /// its allowance its further wrong tries are not written until its block ends, so a device that keeps
    /// polling with a revoked password costs a write every 30 s to 15 minutes, not one a request. A success
    /// writes nothing of this.
    ///
    /// One read and one query: the person, their "I like" sheet and their sealed app passwords together.
    /// Credentials that matched in the last minute (`verified`) skip the unsealing and hashing, but not the
    /// database: the app password they matched must still exist and the person is read again, so revoking,
    /// deleting or disabling works at the next request, from whichever process did it.
    func authenticate(_ credentials: SubsonicCredentials, address: String) throws -> SubsonicUser {
        let now = clock()
        var usernameKey = ""
        let source: String
        switch credentials {
        case .password(let username, _), .token(let username, _, _):
            let trimmed = trimmedOfSpaces(username)
            usernameKey = Self.nicknameKey(trimmed)
            source = address + "|u:" + (trimmed == username ? usernameKey : Self.nicknameKey(username))
        case .apiKey(let key):
            source = address + "|k:" + Self.keyPrefix(key)
        }
        let digest = verified.digest(credentials, usernameKey: usernameKey)
        let remembered = verified.passwordID(digest, now: now)
        let (found, rememberable) = try database.read { db in
            if let remembered {
                if let match = try rememberedMatch(db, passwordID: remembered, usernameKey: usernameKey) {
                    return (Optional(match), false)
                }
                verified.forget(digest)
            }
            return try match(db, credentials, usernameKey: usernameKey)
        }
        guard let found else {
            try recordFailure(source: source, address: address, now: now)
            if case .apiKey = credentials {
                throw SubsonicError(
                    .invalidAPIKey,
                    "This API key is not (or no longer) an app password. Make a new one in CloudMusic's settings."
                )
            }
            throw Self.wrongCredentials
        }
        guard !found.person.disabled else {
            throw SubsonicError(
                .wrongCredentials, "This account has been disabled. Contact the server's administrator.")
        }
        if rememberable { verified.remember(digest, passwordID: found.passwordID, now: now) }
        if found.lastUsed.map({ now - $0 >= 60 }) ?? true {
            try database.write { db in try store.touch(db, id: found.passwordID, now: now) }
        }
        return SubsonicUser(
            id: found.person.id, username: found.person.nickname, isAdmin: found.person.isAdmin,
            email: found.person.email, likesSheetID: found.likes)
    }

    /// Counts a wrong try of `source` and of `address`, unless both are blocked already (then nothing is
    /// written: the block is what a count would make).
    private func recordFailure(source: String, address: String, now: Int64) throws {
        let limiters = [(failuresBySource, source), (failuresByAddress, address)]
        let open = try database.read { db in
            try limiters.filter { limiter, key in try limiter.retryAfter(db, key, now: now) == nil }
        }
        guard !open.isEmpty else { return }
        try database.write { db in
            for (limiter, key) in open { try limiter.record(db, key, now: now) }
        }
    }

    /// The first four characters of an API key as typed (separators and case aside): one revoked key polling
    /// is counted apart from the other keys used from the same address.
    static func keyPrefix(_ key: String) -> String {
        String(key.lowercased().filter { $0.isLetter || $0.isNumber }.prefix(4))
    }

    /// Credentials that matched a moment ago verified by what can have changed since.
    let verified = VerifiedCredentials()

    /// What `AccountRules.nicknameKey` makes, without Unicode normalization for ASCII names (which it leaves
    /// as they are).
    static func nicknameKey(_ username: String) -> String {
        username.utf8.allSatisfy { $0 < 0x80 } ? username.lowercased() : AccountRules.nicknameKey(username)
    }

    typealias Match = (person: SubsonicStore.PersonRecord, likes: Int64, passwordID: Int64, lastUsed: Int64?)

    /// The app password remembered for these credentials, if it still exists and (for a username) the username
    /// still names its owner by nickname.
    private func rememberedMatch(_ db: Connection, passwordID: Int64, usernameKey: String) throws -> Match? {
        guard let holder = try store.holder(db, .passwordID(passwordID)),
            let password = holder.passwords.first,
            usernameKey.isEmpty || holder.nicknameKey == usernameKey
        else { return nil }
        return (holder.person, holder.likesSheetID, password.id, password.lastUsedAt)
    }

    /// Opens and compares every app password the credentials could be; `rememberable` when a match may be
    /// remembered (an API key, or a username that is a nickname: an email or phone could later become
    /// someone's nickname, which takes precedence).
    private func match(_ db: Connection, _ credentials: SubsonicCredentials, usernameKey: String) throws
        -> (Match?, rememberable: Bool)
    {
        var holder: AppPasswordStore.Holder?
        var rememberable = false
        switch credentials {
        case .apiKey(let key):
            holder = try store.holder(db, .lookup(lookup(key)))
            rememberable = true
        case .password(let username, _), .token(let username, _, _):
            if let byNickname = try store.holder(db, .nicknameKey(usernameKey)) {
                holder = byNickname
                rememberable = true
            } else if username.contains("@"), let email = try? AccountRules.email(username) {
                holder = try store.holder(db, .email(email))
            } else if let phone = try? AccountRules.phone(username) {
                holder = try store.holder(db, .phone(phone))
            }
        }
        let candidates = holder?.passwords ?? []
        var matched: AppPasswordStore.Sealed?
        // Every candidate is opened and compared, whichever matches: the time does not say which one did.
        for candidate in candidates.isEmpty ? [nil] : candidates.map(Optional.some) {
            let secret = Crypto.unseal(candidate?.secret ?? decoy, key: sealKey) ?? []
            let ok: Bool
            switch credentials {
            case .apiKey(let key): ok = Crypto.constantTimeEqual(secret, Array(key.utf8))
            case .password(_, let password): ok = Crypto.constantTimeEqual(secret, password)
            case .token(_, let token, let salt):
                // The client hashed what the person typed: any form of the app password (issue 26).
                let wanted = Array(token.lowercased().utf8)
                ok = AppPasswordForms.typedForms(of: secret).reduce(false) { found, form in
                    Crypto.constantTimeEqual(MD5.hex(form + Array(salt.utf8)), wanted) || found
                }
            }
            if ok, let candidate, matched == nil { matched = candidate }
        }
        guard let matched, let holder else { return (nil, false) }
        return ((holder.person, holder.likesSheetID, matched.id, matched.lastUsedAt), rememberable)
    }
}
