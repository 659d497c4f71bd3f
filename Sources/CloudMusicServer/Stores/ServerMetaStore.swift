import Storage

/// The SQL of `server_meta` (made in `App/Schema.swift`): facts about the install, by key, written by
/// several features (the demo's discovery marker, the search text's version).
struct ServerMetaStore: Sendable {
    func value(_ db: Connection, key: String) throws -> String? {
        try db.queryOne("SELECT value FROM server_meta WHERE key = ?", key) { try $0.string("value") }
    }

    func set(_ db: Connection, key: String, value: String) throws {
        try db.execute(
            "INSERT INTO server_meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            key, value)
    }
}
