import Foundation

/// One forward-only schema change, identified by its version.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let apply: @Sendable (Connection) throws -> Void

    public init(version: Int, name: String, apply: @escaping @Sendable (Connection) throws -> Void) {
        self.version = version
        self.name = name
        self.apply = apply
    }

    /// A migration that is a plain SQL script.
    public init(version: Int, name: String, sql: String) {
        self.init(version: version, name: name) { try $0.executeScript(sql) }
    }
}

/// Applies migrations in version order, each in its own transaction, recording each one.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    public init(_ migrations: [Migration]) {
        precondition(
            Set(migrations.map(\.version)).count == migrations.count, "migration versions must be unique")
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// The versions already recorded in the database.
    public func appliedVersions(in database: Database) throws -> [Int] {
        try database.write { db in
            try createTable(db)
            return try db.query("SELECT version FROM schema_migrations ORDER BY version") { try $0.int(0) }
        }
    }

    /// Applies every migration not yet recorded; returns the versions it applied.
    @discardableResult
    public func migrate(_ database: Database) throws -> [Int] {
        let applied = Set(try appliedVersions(in: database))
        if let newest = applied.max(), let known = migrations.last?.version, newest > known {
            throw DatabaseError(
                code: 1,
                message:
                    "the database is at schema version \(newest), newer than this server knows (\(known)); "
                    + "run a newer cloudmusic-server")
        }
        var done: [Int] = []
        for migration in migrations where !applied.contains(migration.version) {
            try database.write { db in
                try migration.apply(db)
                try db.execute(
                    "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)",
                    migration.version, migration.name, Int64(Date().timeIntervalSince1970))
            }
            done.append(migration.version)
        }
        return done
    }

    private func createTable(_ db: Connection) throws {
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)
            """)
    }
}
