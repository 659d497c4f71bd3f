import Foundation
import MusicCore
import Storage

/// The accounts' SQL: users, sessions, verification codes, the send log and the outbox.
///
/// Every function runs on the connection of its caller's transaction, so a service composes several in
/// one. A new user's "I like" sheet is made by the sheets schema's trigger on `users` (SQLite-only), in
/// the same statement as the user.
struct AccountStore: Sendable {
    /// A user row, secrets included; never sent as is.
    struct UserRecord: Sendable {
        var id: Int64
        var phone: String?
        var email: String?
        var nickname: String
        var passwordHash: String
        var avatarVersion: Int64?
        var description: String?
        var gender: Int
        var birthday: String?
        var province: String?
        var city: String?
        var area: String?
        var role: String
        var disabled: Bool
        var createdAt: Int64
        var updatedAt: Int64
        var followingsCount = 0
        var followersCount = 0

        var isAdmin: Bool { role == "admin" }

        /// The API model; `private` adds phone, email, role and the disabled flag.
        func model(private: Bool) -> User {
            User(
                id: String(id), nickname: nickname,
                icon: avatarVersion.map { AccountsAPI.avatar.uri(IDPath(row: id)) + "?v=\($0)" },
                description: description, gender: gender, birthday: birthday, province: province, city: city,
                area: area, followingsCount: followingsCount, followersCount: followersCount,
                phone: `private` ? phone : nil, email: `private` ? email : nil, role: `private` ? role : nil,
                disabled: `private` ? disabled : nil, createdAt: APIDate.string(createdAt),
                updatedAt: APIDate.string(updatedAt))
        }
    }

    /// The signed-in session a token belongs to.
    struct SessionRecord: Sendable {
        var id: Int64
        var userID: Int64
        var role: String
        var disabled: Bool
        var lastSeenAt: Int64
        var expiresAt: Int64
    }

    /// One of a user's signed-in devices.
    struct DeviceRecord: Sendable {
        var id: Int64
        var device: String?
        var userAgent: String?
        var address: String?
        var createdAt: Int64
        var lastSeenAt: Int64
        var expiresAt: Int64
    }

    struct CodeRecord: Sendable {
        var id: Int64
        var codeHash: String
        var salt: String
        var tries: Int
        var expiresAt: Int64
    }

    /// Profile fields to change; nil leaves a field as it is, `.some(nil)` clears it.
    struct ProfileChanges: Sendable {
        var nickname: (nickname: String, key: String)?
        var description: String??
        var gender: Int?
        var birthday: String??
        var province: String??
        var city: String??
        var area: String??
    }

    private static let userColumns = """
        id, phone, email, nickname, password_hash, avatar_version, description, gender, birthday, province, city,
        area, role, disabled, created_at, updated_at, followings_count, followers_count
        """

    private static func decodeUser(_ row: Row) throws -> UserRecord {
        UserRecord(
            id: try row.int64("id"), phone: try row.optionalString("phone"),
            email: try row.optionalString("email"),
            nickname: try row.string("nickname"), passwordHash: try row.string("password_hash"),
            avatarVersion: try row.optionalInt64("avatar_version"),
            description: try row.optionalString("description"),
            gender: try row.int("gender"), birthday: try row.optionalString("birthday"),
            province: try row.optionalString("province"), city: try row.optionalString("city"),
            area: try row.optionalString("area"), role: try row.string("role"),
            disabled: try row.bool("disabled"),
            createdAt: try row.int64("created_at"), updatedAt: try row.int64("updated_at"),
            followingsCount: try row.int("followings_count"), followersCount: try row.int("followers_count"))
    }

    private static func column(_ identifier: AccountRules.Identifier) -> String {
        switch identifier {
        case .phone: return "phone"
        case .email: return "email"
        }
    }

    // MARK: Users

    /// Adds a user with `role` and returns its id; the schema's trigger gives them their "I like" sheet.
    func insertUser(
        _ db: Connection, identifier: AccountRules.Identifier, nickname: (nickname: String, key: String),
        passwordHash: String, role: String, now: Int64
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO users(\(Self.column(identifier)), nickname, nickname_key, password_hash, role, created_at,
                updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, identifier.value, nickname.nickname, nickname.key, passwordHash, role, now, now)
        return db.lastInsertRowID
    }

    /// Whether any user exists (the first one becomes an administrator).
    func hasUsers(_ db: Connection) throws -> Bool {
        try db.queryOne("SELECT EXISTS (SELECT 1 FROM users) AS found") { try $0.bool("found") } ?? false
    }

    func identifierTaken(_ db: Connection, _ identifier: AccountRules.Identifier) throws -> Bool {
        try db.queryOne(
            "SELECT 1 AS found FROM users WHERE \(Self.column(identifier)) = ?", identifier.value
        ) { _ in true } ?? false
    }

    /// Whether someone other than `exceptUserID` has a nickname with this key.
    func nicknameTaken(_ db: Connection, key: String, exceptUserID: Int64? = nil) throws -> Bool {
        try db.queryOne(
            "SELECT 1 AS found FROM users WHERE nickname_key = ? AND id IS NOT ?", key, exceptUserID
        ) { _ in true } ?? false
    }

    func user(_ db: Connection, id: Int64) throws -> UserRecord? {
        try db.queryOne("SELECT \(Self.userColumns) FROM users WHERE id = ?", id, decode: Self.decodeUser)
    }

    func user(_ db: Connection, identifier: AccountRules.Identifier) throws -> UserRecord? {
        try db.queryOne(
            "SELECT \(Self.userColumns) FROM users WHERE \(Self.column(identifier)) = ?", identifier.value,
            decode: Self.decodeUser)
    }

    /// The user whose nickname has this key (`AccountRules.nicknameKey`), disabled or not.
    func user(_ db: Connection, nicknameKey key: String) throws -> UserRecord? {
        try db.queryOne(
            "SELECT \(Self.userColumns) FROM users WHERE nickname_key = ?", key, decode: Self.decodeUser)
    }

    func follows(_ db: Connection, followerID: Int64, followeeID: Int64) throws -> Bool {
        try db.queryOne(
            "SELECT 1 AS found FROM follows WHERE follower_id = ? AND followee_id = ?", followerID, followeeID
        ) { _ in true } ?? false
    }

    /// Applies profile changes; the caller has checked that a new nickname is free.
    func updateProfile(_ db: Connection, id: Int64, _ changes: ProfileChanges, now: Int64) throws {
        var sets: [String] = []
        var arguments: [any SQLBindable] = []
        if let nickname = changes.nickname {
            sets += ["nickname = ?", "nickname_key = ?"]
            arguments += [nickname.nickname, nickname.key]
        }
        func set(_ column: String, _ value: String??) {
            guard let value else { return }
            sets.append("\(column) = ?")
            arguments.append(value)
        }
        set("description", changes.description)
        set("birthday", changes.birthday)
        set("province", changes.province)
        set("city", changes.city)
        set("area", changes.area)
        if let gender = changes.gender {
            sets.append("gender = ?")
            arguments.append(gender)
        }
        sets.append("updated_at = ?")
        arguments += [now, id]
        try db.execute("UPDATE users SET \(sets.joined(separator: ", ")) WHERE id = ?", arguments: arguments)
    }

    func setPasswordHash(_ db: Connection, userID: Int64, hash: String, now: Int64) throws {
        try db.execute("UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?", hash, now, userID)
    }

    func setAvatarVersion(_ db: Connection, userID: Int64, version: Int64, now: Int64) throws {
        try db.execute(
            "UPDATE users SET avatar_version = ?, updated_at = ? WHERE id = ?", version, now, userID)
    }

    func setDisabled(_ db: Connection, userID: Int64, disabled: Bool, now: Int64) throws {
        try db.execute("UPDATE users SET disabled = ?, updated_at = ? WHERE id = ?", disabled, now, userID)
    }

    func setRole(_ db: Connection, userID: Int64, role: String, now: Int64) throws {
        try db.execute("UPDATE users SET role = ?, updated_at = ? WHERE id = ?", role, now, userID)
    }

    /// Deletes a user and, by the schema's cascades, everything that is theirs (sessions, sheets,
    /// collections, history, queue); also the codes and messages sent to their phone or email. False when
    /// there is no such user.
    func deleteUser(_ db: Connection, userID: Int64) throws -> Bool {
        guard
            let (phone, email) = try db.queryOne(
                "SELECT phone, email FROM users WHERE id = ?", userID,
                decode: { (try $0.optionalString("phone"), try $0.optionalString("email")) })
        else { return false }
        for target in [phone, email].compactMap({ $0 }) {
            try db.execute("DELETE FROM verification_codes WHERE target = ?", target)
            try db.execute("DELETE FROM code_sends WHERE target = ?", target)
            try db.execute("DELETE FROM outbox WHERE target = ?", target)
        }
        return try db.execute("DELETE FROM users WHERE id = ?", userID) > 0
    }

    /// Every user, oldest first, as administrators see them.
    func users(_ db: Connection, paging: Paging) throws -> Page<User> {
        let total = try db.queryOne("SELECT count(*) AS n FROM users") { try $0.int("n") } ?? 0
        let rows = try db.query(
            "SELECT \(Self.userColumns) FROM users ORDER BY id LIMIT ? OFFSET ?", paging.size, paging.offset,
            decode: Self.decodeUser)
        return Page(
            items: rows.map { $0.model(private: true) }, total: total, page: paging.page, size: paging.size)
    }

    func adminExists(_ db: Connection) throws -> Bool {
        try db.queryOne("SELECT 1 AS found FROM users WHERE role = 'admin' AND disabled = 0 LIMIT 1") { _ in
            true
        }
            ?? false
    }

    // MARK: Sessions

    /// Adds a session and returns its id.
    func insertSession(
        _ db: Connection, userID: Int64, tokenHash: String, chatTokenHash: String, device: String?,
        userAgent: String?, address: String, now: Int64, expiresAt: Int64
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO sessions(token_hash, chat_token_hash, user_id, device, user_agent, address, created_at,
                last_seen_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, tokenHash, chatTokenHash, userID, device, userAgent, address, now, now, expiresAt)
        return db.lastInsertRowID
    }

    func deleteExpiredSessions(_ db: Connection, now: Int64) throws {
        try db.execute("DELETE FROM sessions WHERE expires_at <= ?", now)
    }

    func session(_ db: Connection, tokenHash: String) throws -> SessionRecord? {
        try session(db, column: "token_hash", hash: tokenHash)
    }

    /// The session whose chat token (the event stream's credential) has this hash.
    func session(_ db: Connection, chatTokenHash: String) throws -> SessionRecord? {
        try session(db, column: "chat_token_hash", hash: chatTokenHash)
    }

    /// Gives a session a new chat token; the old one stops working.
    func setChatToken(_ db: Connection, sessionID: Int64, hash: String) throws {
        try db.execute("UPDATE sessions SET chat_token_hash = ? WHERE id = ?", hash, sessionID)
    }

    private func session(_ db: Connection, column: String, hash: String) throws -> SessionRecord? {
        try db.queryOne(
            """
            SELECT s.id, s.user_id, u.role, u.disabled, s.last_seen_at, s.expires_at
            FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.\(column) = ?
            """, hash
        ) {
            SessionRecord(
                id: try $0.int64("id"), userID: try $0.int64("user_id"), role: try $0.string("role"),
                disabled: try $0.bool("disabled"), lastSeenAt: try $0.int64("last_seen_at"),
                expiresAt: try $0.int64("expires_at"))
        }
    }

    /// Marks a session as seen and extends its life.
    func touchSession(_ db: Connection, id: Int64, now: Int64, expiresAt: Int64, address: String) throws {
        try db.execute(
            "UPDATE sessions SET last_seen_at = ?, expires_at = ?, address = ? WHERE id = ?", now, expiresAt,
            address, id)
    }

    /// A user's sessions that have not expired, the most recently seen first.
    func sessions(_ db: Connection, userID: Int64, now: Int64) throws -> [DeviceRecord] {
        try db.query(
            """
            SELECT id, device, user_agent, address, created_at, last_seen_at, expires_at FROM sessions
            WHERE user_id = ? AND expires_at > ? ORDER BY last_seen_at DESC, id DESC
            """, userID, now
        ) {
            DeviceRecord(
                id: try $0.int64("id"), device: try $0.optionalString("device"),
                userAgent: try $0.optionalString("user_agent"), address: try $0.optionalString("address"),
                createdAt: try $0.int64("created_at"), lastSeenAt: try $0.int64("last_seen_at"),
                expiresAt: try $0.int64("expires_at"))
        }
    }

    /// Deletes one of `userID`'s sessions; false when there is no such session of theirs.
    func deleteSession(_ db: Connection, id: Int64, userID: Int64) throws -> Bool {
        try db.execute("DELETE FROM sessions WHERE id = ? AND user_id = ?", id, userID) > 0
    }

    /// Ends every session of the user but `keeping`.
    func deleteSessions(_ db: Connection, userID: Int64, keeping: Int64? = nil) throws {
        try db.execute("DELETE FROM sessions WHERE user_id = ? AND id IS NOT ?", userID, keeping)
    }

    // MARK: Verification codes

    /// Stores a new code for a target and purpose, replacing older ones and dropping expired ones.
    func insertCode(
        _ db: Connection, target: String, purpose: String, codeHash: String, salt: String, now: Int64,
        expiresAt: Int64
    ) throws {
        try db.execute(
            "DELETE FROM verification_codes WHERE (target = ? AND purpose = ?) OR expires_at <= ?", target,
            purpose, now)
        try db.execute(
            """
            INSERT INTO verification_codes(target, purpose, code_hash, salt, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """, target, purpose, codeHash, salt, now, expiresAt)
    }

    /// The newest code for the target and purpose, expired or not.
    func latestCode(_ db: Connection, target: String, purpose: String) throws -> CodeRecord? {
        try db.queryOne(
            """
            SELECT id, code_hash, salt, tries, expires_at FROM verification_codes
            WHERE target = ? AND purpose = ? ORDER BY id DESC LIMIT 1
            """, target, purpose
        ) {
            CodeRecord(
                id: try $0.int64("id"), codeHash: try $0.string("code_hash"), salt: try $0.string("salt"),
                tries: try $0.int("tries"), expiresAt: try $0.int64("expires_at"))
        }
    }

    func countTry(_ db: Connection, codeID: Int64) throws {
        try db.execute("UPDATE verification_codes SET tries = tries + 1 WHERE id = ?", codeID)
    }

    func deleteCode(_ db: Connection, id: Int64) throws {
        try db.execute("DELETE FROM verification_codes WHERE id = ?", id)
    }

    /// Logs a code sent to `target` from `address`; entries older than a day are dropped.
    func logSend(_ db: Connection, target: String, address: String, now: Int64) throws {
        try db.execute("DELETE FROM code_sends WHERE sent_at <= ?", now - 86_400)
        try db.execute(
            "INSERT INTO code_sends(target, address, sent_at) VALUES (?, ?, ?)", target, address, now)
    }

    /// Sends to `target` since `since`: how many, the oldest and the newest.
    func sends(_ db: Connection, target: String, since: Int64) throws -> (
        count: Int, oldest: Int64?, newest: Int64?
    ) {
        try db.queryOne(
            """
            SELECT count(*) AS n, min(sent_at) AS oldest, max(sent_at) AS newest FROM code_sends
            WHERE target = ? AND sent_at > ?
            """, target, since
        ) { (try $0.int("n"), try $0.optionalInt64("oldest"), try $0.optionalInt64("newest")) } ?? (
            0, nil, nil
        )
    }

    // MARK: Outbox

    /// Stores a message; messages older than a week are dropped (they hold codes in clear).
    func insertOutbox(
        _ db: Connection, channel: String, target: String, purpose: String, text: String, now: Int64
    ) throws {
        try db.execute("DELETE FROM outbox WHERE created_at <= ?", now - 7 * 86_400)
        try db.execute(
            "INSERT INTO outbox(channel, target, purpose, body, created_at) VALUES (?, ?, ?, ?, ?)", channel,
            target, purpose, text, now)
    }

    /// The outbox, newest first.
    func outbox(_ db: Connection, paging: Paging) throws -> Page<OutboxMessage> {
        let total = try db.queryOne("SELECT count(*) AS n FROM outbox") { try $0.int("n") } ?? 0
        let rows = try db.query(
            "SELECT id, channel, target, purpose, body, created_at FROM outbox ORDER BY id DESC LIMIT ? OFFSET ?",
            paging.size, paging.offset
        ) {
            OutboxMessage(
                id: String(try $0.int64("id")), channel: try $0.string("channel"),
                target: try $0.string("target"),
                purpose: try $0.string("purpose"), text: try $0.string("body"),
                createdAt: APIDate.string(try $0.int64("created_at")),
                updatedAt: APIDate.string(try $0.int64("created_at")))
        }
        return Page(items: rows, total: total, page: paging.page, size: paging.size)
    }
}
