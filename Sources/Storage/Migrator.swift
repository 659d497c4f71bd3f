import Foundation

/// One forward-only schema change, identified by its version.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    public let apply: @Sendable (Connection) throws -> Void
    /// Runs with foreign keys off, as SQLite's procedure for rebuilding a table asks: dropping the old
    /// table must not cascade to the rows that point at it. The keys are checked before it commits.
    public let rebuildsTables: Bool

    public init(
        version: Int, name: String, rebuildsTables: Bool = false,
        apply: @escaping @Sendable (Connection) throws -> Void
    ) {
        self.version = version
        self.name = name
        self.rebuildsTables = rebuildsTables
        self.apply = apply
    }

    /// A migration that is a plain SQL script.
    public init(version: Int, name: String, rebuildsTables: Bool = false, sql: String) {
        self.init(version: version, name: name, rebuildsTables: rebuildsTables) { try $0.executeScript(sql) }
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
            return try db.query("SELECT version FROM schema_migrations ORDER BY version") {
                try $0.int("version")
            }
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
            // The pragma is a no-op inside a transaction, so it is set around it.
            if migration.rebuildsTables {
                try database.withWriter { try $0.executeScript("PRAGMA foreign_keys=OFF") }
            }
            defer {
                if migration.rebuildsTables {
                    _ = try? database.withWriter { try $0.executeScript("PRAGMA foreign_keys=ON") }
                }
            }
            try database.write { db in
                try migration.apply(db)
                if migration.rebuildsTables,
                    let broken = try db.queryOne(
                        "PRAGMA foreign_key_check", decode: { try $0.string("table") })
                {
                    throw DatabaseError(
                        code: 19,
                        message: "migration \(migration.version) left rows in \(broken) pointing at nothing")
                }
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
