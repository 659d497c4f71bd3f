import Foundation
import MusicCore
import Storage

/// The accounts' SQL: users, sessions, verification codes, the send log and the outbox.
struct AccountStore: Sendable {
    let database: Database

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
                icon: avatarVersion.map { "v1/users/\(id)/avatar?v=\($0)" }, description: description,
                gender: gender, birthday: birthday, province: province, city: city, area: area,
                followingsCount: followingsCount, followersCount: followersCount,
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

    enum InsertOutcome: Sendable {
        case created(UserRecord)
        case accountTaken
        case nicknameTaken
    }

    private static let userColumns = """
        id, phone, email, nickname, password_hash, avatar_version, description, gender, birthday, province, city,
        area, role, disabled, created_at, updated_at, followings_count, followers_count
        """

    private static func decodeUser(_ row: Row) throws -> UserRecord {
        UserRecord(
            id: try row.int64(0), phone: try row.optionalString(1), email: try row.optionalString(2),
            nickname: try row.string(3), passwordHash: try row.string(4),
            avatarVersion: try row.optionalInt64(5),
            description: try row.optionalString(6), gender: try row.int(7),
            birthday: try row.optionalString(8),
            province: try row.optionalString(9), city: try row.optionalString(10),
            area: try row.optionalString(11),
            role: try row.string(12), disabled: try row.bool(13), createdAt: try row.int64(14),
            updatedAt: try row.int64(15), followingsCount: try row.int(16), followersCount: try row.int(17))
    }

    // MARK: Users

    /// Adds a user; the first user of the server, or one asked for as `admin`, is an administrator.
    func insertUser(
        identifier: AccountRules.Identifier, nickname: (nickname: String, key: String), passwordHash: String,
        admin: Bool, now: Int64
    ) throws -> InsertOutcome {
        try database.write { db in
            let column = Self.column(identifier)
            if try db.queryOne(
                "SELECT 1 FROM users WHERE \(column) = ?", identifier.value, decode: { _ in true }) != nil
            {
                return .accountTaken
            }
            if try db.queryOne(
                "SELECT 1 FROM users WHERE nickname_key = ?", nickname.key, decode: { _ in true }) != nil
            {
                return .nicknameTaken
            }
            let first = try db.queryOne("SELECT count(*) FROM users") { try $0.int(0) } == 0
            try db.execute(
                """
                INSERT INTO users(\(column), nickname, nickname_key, password_hash, role, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, identifier.value, nickname.nickname, nickname.key, passwordHash,
                admin || first ? "admin" : "user", now, now)
            let id = db.lastInsertRowID
            return .created(
                try db.queryOne(
                    "SELECT \(Self.userColumns) FROM users WHERE id = ?", id, decode: Self.decodeUser)!)
        }
    }

    private static func column(_ identifier: AccountRules.Identifier) -> String {
        switch identifier {
        case .phone: return "phone"
        case .email: return "email"
        }
    }

    func follows(followerID: Int64, followeeID: Int64) throws -> Bool {
        try database.read { db in
            try db.queryOne(
                "SELECT 1 FROM follows WHERE follower_id = ? AND followee_id = ?", followerID, followeeID
            ) { _ in true } ?? false
        }
    }

    func user(id: Int64) throws -> UserRecord? {
        try database.read { db in try user(db, id: id) }
    }

    func user(_ db: Connection, id: Int64) throws -> UserRecord? {
        try db.queryOne("SELECT \(Self.userColumns) FROM users WHERE id = ?", id, decode: Self.decodeUser)
    }

    func user(identifier: AccountRules.Identifier) throws -> UserRecord? {
        try database.read { db in
            try db.queryOne(
                "SELECT \(Self.userColumns) FROM users WHERE \(Self.column(identifier)) = ?",
                identifier.value,
                decode: Self.decodeUser)
        }
    }

    /// Applies profile changes; false when the new nickname belongs to someone else.
    func updateProfile(id: Int64, _ changes: ProfileChanges, now: Int64) throws -> Bool {
        try database.write { db in
            var sets: [String] = []
            var arguments: [any SQLBindable] = []
            if let nickname = changes.nickname {
                if try db.queryOne(
                    "SELECT 1 FROM users WHERE nickname_key = ? AND id != ?", nickname.key, id,
                    decode: { _ in true }
                ) != nil {
                    return false
                }
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
            try db.execute(
                "UPDATE users SET \(sets.joined(separator: ", ")) WHERE id = ?", arguments: arguments)
            return true
        }
    }

    /// Sets a new password hash and signs the user out everywhere.
    /// Sets a new password hash and ends every session of the user but `keepingSession`.
    func setPassword(userID: Int64, hash: String, now: Int64, keepingSession: Int64? = nil) throws {
        try database.write { db in
            try db.execute(
                "UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?", hash, now, userID)
            try db.execute("DELETE FROM sessions WHERE user_id = ? AND id IS NOT ?", userID, keepingSession)
        }
    }

    func setAvatarVersion(userID: Int64, version: Int64, now: Int64) throws {
        try database.write { db in
            try db.execute(
                "UPDATE users SET avatar_version = ?, updated_at = ? WHERE id = ?", version, now, userID)
        }
    }

    /// Disables or enables a user; disabling signs them out everywhere.
    func setDisabled(userID: Int64, disabled: Bool, now: Int64) throws {
        try database.write { db in
            try db.execute(
                "UPDATE users SET disabled = ?, updated_at = ? WHERE id = ?", disabled, now, userID)
            if disabled { try db.execute("DELETE FROM sessions WHERE user_id = ?", userID) }
        }
    }

    /// Deletes a user and, by the schema's cascades, everything that is theirs (sessions, sheets,
    /// collections, history, queue); also the codes and messages sent to their phone or email.
    func deleteUser(userID: Int64) throws -> Bool {
        try database.write { db in
            guard
                let (phone, email) = try db.queryOne(
                    "SELECT phone, email FROM users WHERE id = ?", userID,
                    decode: { (try $0.optionalString(0), try $0.optionalString(1)) })
            else { return false }
            for target in [phone, email].compactMap({ $0 }) {
                try db.execute("DELETE FROM verification_codes WHERE target = ?", target)
                try db.execute("DELETE FROM code_sends WHERE target = ?", target)
                try db.execute("DELETE FROM outbox WHERE target = ?", target)
            }
            return try db.execute("DELETE FROM users WHERE id = ?", userID) > 0
        }
    }

    func setRole(userID: Int64, role: String, now: Int64) throws {
        try database.write { db in
            try db.execute("UPDATE users SET role = ?, updated_at = ? WHERE id = ?", role, now, userID)
        }
    }

    func users(page: Int, size: Int) throws -> Page<User> {
        try database.read { db in
            let total = try db.queryOne("SELECT count(*) FROM users") { try $0.int(0) } ?? 0
            let rows = try db.query(
                "SELECT \(Self.userColumns) FROM users ORDER BY id LIMIT ? OFFSET ?", size, (page - 1) * size,
                decode: Self.decodeUser)
            return Page(items: rows.map { $0.model(private: true) }, total: total, page: page, size: size)
        }
    }

    func adminExists() throws -> Bool {
        try database.read { db in
            try db.queryOne("SELECT 1 FROM users WHERE role = 'admin' AND disabled = 0 LIMIT 1") { _ in true }
                ?? false
        }
    }

    // MARK: Sessions

    func insertSession(
        userID: Int64, tokenHash: String, chatTokenHash: String, device: String?, userAgent: String?,
        address: String, now: Int64, expiresAt: Int64
    ) throws -> Int64 {
        try database.write { db in
            try db.execute("DELETE FROM sessions WHERE expires_at <= ?", now)
            try db.execute(
                """
                INSERT INTO sessions(token_hash, chat_token_hash, user_id, device, user_agent, address, created_at,
                    last_seen_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, tokenHash, chatTokenHash, userID, device, userAgent, address, now, now, expiresAt)
            return db.lastInsertRowID
        }
    }

    func session(tokenHash: String) throws -> SessionRecord? {
        try database.read { db in
            try db.queryOne(
                """
                SELECT s.id, s.user_id, u.role, u.disabled, s.last_seen_at, s.expires_at
                FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?
                """, tokenHash
            ) {
                SessionRecord(
                    id: try $0.int64(0), userID: try $0.int64(1), role: try $0.string(2),
                    disabled: try $0.bool(3),
                    lastSeenAt: try $0.int64(4), expiresAt: try $0.int64(5))
            }
        }
    }

    /// Marks a session as seen and extends its life.
    func touchSession(id: Int64, now: Int64, expiresAt: Int64, address: String) throws {
        try database.write { db in
            try db.execute(
                "UPDATE sessions SET last_seen_at = ?, expires_at = ?, address = ? WHERE id = ?", now,
                expiresAt,
                address, id)
        }
    }

    func sessions(userID: Int64, now: Int64) throws -> [(
        id: Int64, device: String?, userAgent: String?, address: String?, createdAt: Int64, lastSeenAt: Int64,
        expiresAt: Int64
    )] {
        try database.read { db in
            try db.query(
                """
                SELECT id, device, user_agent, address, created_at, last_seen_at, expires_at FROM sessions
                WHERE user_id = ? AND expires_at > ? ORDER BY last_seen_at DESC, id DESC
                """, userID, now
            ) {
                (
                    id: try $0.int64(0), device: try $0.optionalString(1),
                    userAgent: try $0.optionalString(2),
                    address: try $0.optionalString(3), createdAt: try $0.int64(4),
                    lastSeenAt: try $0.int64(5),
                    expiresAt: try $0.int64(6)
                )
            }
        }
    }

    /// Deletes one of `userID`'s sessions; false when there is no such session of theirs.
    func deleteSession(id: Int64, userID: Int64) throws -> Bool {
        try database.write { db in
            try db.execute("DELETE FROM sessions WHERE id = ? AND user_id = ?", id, userID) > 0
        }
    }

    // MARK: Verification codes

    /// Stores a new code for a target and purpose, replacing older ones, and logs the send.
    func insertCode(
        target: String, purpose: String, codeHash: String, salt: String, address: String, now: Int64,
        expiresAt: Int64
    ) throws {
        try database.write { db in
            try db.execute(
                "DELETE FROM verification_codes WHERE (target = ? AND purpose = ?) OR expires_at <= ?",
                target, purpose, now)
            try db.execute(
                """
                INSERT INTO verification_codes(target, purpose, code_hash, salt, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """, target, purpose, codeHash, salt, now, expiresAt)
            try db.execute("DELETE FROM code_sends WHERE sent_at <= ?", now - 86_400)
            try db.execute(
                "INSERT INTO code_sends(target, address, sent_at) VALUES (?, ?, ?)", target, address, now)
        }
    }

    /// Sends to `target` since `since`: how many, the oldest and the newest.
    func sends(target: String, since: Int64) throws -> (count: Int, oldest: Int64?, newest: Int64?) {
        try database.read { db in
            try db.queryOne(
                "SELECT count(*), min(sent_at), max(sent_at) FROM code_sends WHERE target = ? AND sent_at > ?",
                target, since
            ) { (try $0.int(0), try $0.optionalInt64(1), try $0.optionalInt64(2)) } ?? (0, nil, nil)
        }
    }

    /// The outcome of checking a code, decided and recorded in one transaction.
    enum CodeCheck: Sendable {
        case accepted
        case wrong
        case exhausted
    }

    /// Checks a code against the newest one for the target and purpose, counting the try; `consume`
    /// deletes it when it matches. `matches` compares in constant time.
    func checkCode(
        target: String, purpose: String, now: Int64, maxTries: Int, consume: Bool,
        matches: (CodeRecord) -> Bool
    ) throws -> CodeCheck {
        try database.write { db in
            guard
                let code = try db.queryOne(
                    """
                    SELECT id, code_hash, salt, tries, expires_at FROM verification_codes
                    WHERE target = ? AND purpose = ? ORDER BY id DESC LIMIT 1
                    """, target, purpose,
                    decode: {
                        CodeRecord(
                            id: try $0.int64(0), codeHash: try $0.string(1), salt: try $0.string(2),
                            tries: try $0.int(3), expiresAt: try $0.int64(4))
                    }),
                code.expiresAt > now
            else { return .wrong }
            guard code.tries < maxTries else { return .exhausted }
            if matches(code) {
                if consume { try db.execute("DELETE FROM verification_codes WHERE id = ?", code.id) }
                return .accepted
            }
            try db.execute("UPDATE verification_codes SET tries = tries + 1 WHERE id = ?", code.id)
            return .wrong
        }
    }

    // MARK: Outbox

    /// Stores a message; messages older than a week are dropped (they hold codes in clear).
    func insertOutbox(channel: String, target: String, purpose: String, text: String, now: Int64) throws {
        try database.write { db in
            try db.execute("DELETE FROM outbox WHERE created_at <= ?", now - 7 * 86_400)
            try db.execute(
                "INSERT INTO outbox(channel, target, purpose, body, created_at) VALUES (?, ?, ?, ?, ?)",
                channel,
                target, purpose, text, now)
        }
    }

    func outbox(page: Int, size: Int) throws -> Page<OutboxMessage> {
        try database.read { db in
            let total = try db.queryOne("SELECT count(*) FROM outbox") { try $0.int(0) } ?? 0
            let rows = try db.query(
                "SELECT id, channel, target, purpose, body, created_at FROM outbox ORDER BY id DESC LIMIT ? OFFSET ?",
                size, (page - 1) * size
            ) {
                OutboxMessage(
                    id: String(try $0.int64(0)), channel: try $0.string(1), target: try $0.string(2),
                    purpose: try $0.string(3), text: try $0.string(4),
                    createdAt: APIDate.string(try $0.int64(5)),
                    updatedAt: APIDate.string(try $0.int64(5)))
            }
            return Page(items: rows, total: total, page: page, size: size)
        }
    }
}
