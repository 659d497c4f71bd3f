import Foundation
import Storage

/// The SQL of app passwords. Secrets are stored sealed (`secret`) and as a keyed digest (`lookup`, for
/// finding an API key); never in the clear.
struct AppPasswordStore: Sendable {
    struct Record: Sendable {
        var id: Int64
        var userID: Int64
        var name: String
        var createdAt: Int64
        var lastUsedAt: Int64?
    }

    /// A sealed secret and what it opens to.
    struct Sealed: Sendable {
        var id: Int64
        var userID: Int64
        var secret: [UInt8]
        var lastUsedAt: Int64?
    }

    func insert(_ db: Connection, userID: Int64, name: String, secret: [UInt8], lookup: String, now: Int64)
        throws
        -> Int64
    {
        try db.execute(
            "INSERT INTO app_passwords(user_id, name, secret, lookup, created_at) VALUES (?, ?, ?, ?, ?)",
            userID, name,
            Data(secret), lookup, now)
        return db.lastInsertRowID
    }

    func count(_ db: Connection, userID: Int64) throws -> Int {
        try db.queryOne("SELECT count(*) AS n FROM app_passwords WHERE user_id = ?", userID) {
            try $0.int("n")
        } ?? 0
    }

    func list(_ db: Connection, userID: Int64) throws -> [Record] {
        try db.query(
            "SELECT id, user_id, name, created_at, last_used_at FROM app_passwords WHERE user_id = ? ORDER BY id",
            userID
        ) {
            Record(
                id: try $0.int64("id"), userID: try $0.int64("user_id"), name: try $0.string("name"),
                createdAt: try $0.int64("created_at"), lastUsedAt: try $0.optionalInt64("last_used_at"))
        }
    }

    /// Deletes one of a person's app passwords; false when they have no such one.
    func delete(_ db: Connection, userID: Int64, id: Int64) throws -> Bool {
        try db.execute("DELETE FROM app_passwords WHERE user_id = ? AND id = ?", userID, id) > 0
    }

    /// Every sealed app password of a person.
    func sealed(_ db: Connection, userID: Int64) throws -> [Sealed] {
        try db.query(
            "SELECT id, user_id, secret, last_used_at FROM app_passwords WHERE user_id = ? ORDER BY id",
            userID
        ) {
            Sealed(
                id: try $0.int64("id"), userID: try $0.int64("user_id"),
                secret: [UInt8](try $0.data("secret")),
                lastUsedAt: try $0.optionalInt64("last_used_at"))
        }
    }

    /// The app password whose keyed digest is `lookup`.
    func sealed(_ db: Connection, lookup: String) throws -> Sealed? {
        try db.queryOne(
            "SELECT id, user_id, secret, last_used_at FROM app_passwords WHERE lookup = ?", lookup
        ) {
            Sealed(
                id: try $0.int64("id"), userID: try $0.int64("user_id"),
                secret: [UInt8](try $0.data("secret")),
                lastUsedAt: try $0.optionalInt64("last_used_at"))
        }
    }

    /// A person who may sign in with app passwords, with their "I like" sheet and their sealed app passwords.
    struct Holder: Sendable {
        var person: SubsonicStore.PersonRecord
        var nicknameKey: String
        /// 0 when they have none (which matches no row).
        var likesSheetID: Int64
        var passwords: [Sealed]
    }

    /// How a holder is found.
    enum Find: Sendable {
        /// By the key of their nickname, their email or their phone: the person with every app password.
        case nicknameKey(String)
        case email(String)
        case phone(String)
        /// By an app password's keyed digest (an API key) or its id: the person with that app password only.
        case lookup(String)
        case passwordID(Int64)
    }

    private static let holderColumns = """
        SELECT u.id, u.nickname, u.nickname_key, u.email, u.role, u.disabled, u.avatar_version,
            coalesce((SELECT sh.id FROM sheets sh WHERE sh.user_id = u.id AND sh.kind = 1), 0) AS likes_sheet_id,
            ap.id AS password_id, ap.secret, ap.last_used_at
        """

    /// One query for everything checking a request's credentials needs.
    func holder(_ db: Connection, _ find: Find) throws -> Holder? {
        let people = "\(Self.holderColumns) FROM users u LEFT JOIN app_passwords ap ON ap.user_id = u.id"
        let passwords = "\(Self.holderColumns) FROM app_passwords ap JOIN users u ON u.id = ap.user_id"
        let sql: String
        let value: any SQLBindable
        switch find {
        case .nicknameKey(let key): (sql, value) = ("\(people) WHERE u.nickname_key = ? ORDER BY ap.id", key)
        case .email(let email): (sql, value) = ("\(people) WHERE u.email = ? ORDER BY ap.id", email)
        case .phone(let phone): (sql, value) = ("\(people) WHERE u.phone = ? ORDER BY ap.id", phone)
        case .lookup(let lookup): (sql, value) = ("\(passwords) WHERE ap.lookup = ?", lookup)
        case .passwordID(let id): (sql, value) = ("\(passwords) WHERE ap.id = ?", id)
        }
        var holder: Holder?
        for (person, key, likes, password) in try db.query(
            sql, arguments: [value], decode: Self.decodeHolderRow)
        {
            if holder == nil {
                holder = Holder(person: person, nicknameKey: key, likesSheetID: likes, passwords: [])
            }
            if let password { holder?.passwords.append(password) }
        }
        return holder
    }

    private static func decodeHolderRow(_ row: Row) throws
        -> (SubsonicStore.PersonRecord, String, Int64, Sealed?)
    {
        let userID = try row.int64("id")
        let person = SubsonicStore.PersonRecord(
            id: userID, nickname: try row.string("nickname"), email: try row.optionalString("email"),
            isAdmin: try row.string("role") == "admin", disabled: try row.bool("disabled"),
            hasAvatar: try row.optionalInt64("avatar_version") != nil)
        let password = try row.optionalInt64("password_id").map { id in
            Sealed(
                id: id, userID: userID, secret: [UInt8](try row.data("secret")),
                lastUsedAt: try row.optionalInt64("last_used_at"))
        }
        return (person, try row.string("nickname_key"), try row.int64("likes_sheet_id"), password)
    }

    func touch(_ db: Connection, id: Int64, now: Int64) throws {
        try db.execute("UPDATE app_passwords SET last_used_at = ? WHERE id = ?", now, id)
    }
}
