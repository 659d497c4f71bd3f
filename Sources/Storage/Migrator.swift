import Foundation

/// One forward-only schema change, identified by its version, with its SQL for each engine side by side.
public struct Migration: Sendable {
    /// A change on any engine (it may ask the connection's `dialect` where the engines differ).
    public typealias Step = @Sendable (any SQLConnection) throws -> Void

    public let version: Int
    public let name: String
    /// The change on SQLite.
    public let apply: @Sendable (Connection) throws -> Void
    /// The same change on PostgreSQL; nil for a migration that has no PostgreSQL form yet.
    public let postgres: Step?
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
        postgres = nil
    }

    /// A migration that is a plain SQL script.
    public init(version: Int, name: String, rebuildsTables: Bool = false, sql: String) {
        self.init(version: version, name: name, rebuildsTables: rebuildsTables) { try $0.executeScript(sql) }
    }

    /// A migration written for each engine: the same change, in each engine's SQL.
    public init(
        version: Int, name: String, rebuildsTables: Bool = false,
        sqlite: @escaping @Sendable (Connection) throws -> Void, postgres: @escaping Step
    ) {
        self.version = version
        self.name = name
        self.rebuildsTables = rebuildsTables
        self.apply = sqlite
        self.postgres = postgres
    }

    /// A migration that is a plain SQL script per engine.
    public init(version: Int, name: String, rebuildsTables: Bool = false, sqlite: String, postgres: String) {
        self.init(
            version: version, name: name, rebuildsTables: rebuildsTables,
            sqlite: { try $0.executeScript(sqlite) }, postgres: { try $0.executeScript(postgres) })
    }
}

/// A database this server's migrations cannot bring to their last version.
public struct MigrationError: Error, CustomStringConvertible, Sendable {
    public let description: String
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

    /// The versions already recorded, on either engine.
    public func appliedVersions<D: SQLDatabase>(in database: D) throws -> [Int] {
        if let sqlite = database as? Database { return try appliedVersions(in: sqlite) }
        return try database.write { db in try recordedVersions(db) }
    }

    /// Applies every migration not yet recorded, on either engine; returns the versions it applied.
    ///
    /// Each migration is one transaction that first takes the dialect's migration lock and looks again, so two
    /// servers starting at once on one PostgreSQL database apply it once.
    @discardableResult
    public func migrate<D: SQLDatabase>(_ database: D) throws -> [Int] {
        if let sqlite = database as? Database { return try migrate(sqlite) }
        let applied = Set(try database.write { db in try recordedVersions(db) })
        if let newest = applied.max(), let known = migrations.last?.version, newest > known {
            throw MigrationError(
                description:
                    "the database is at schema version \(newest), newer than this server knows (\(known)); "
                    + "run a newer cloudmusic-server")
        }
        var done: [Int] = []
        for migration in migrations where !applied.contains(migration.version) {
            guard let step = migration.postgres else {
                throw MigrationError(
                    description:
                        "migration \(migration.version) (\(migration.name)) has no \(database.dialect) form: "
                        + "write its SQL for that engine beside SQLite's")
            }
            let didApply = try database.write { db in
                try lockMigrations(db)
                let recorded = try db.queryOne(
                    "SELECT version FROM schema_migrations WHERE version = ?", migration.version
                ) { try $0.int("version") }
                guard recorded == nil else { return false }
                try step(db)
                try db.execute(
                    "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)",
                    migration.version, migration.name, Int64(Date().timeIntervalSince1970))
                return true
            }
            if didApply { done.append(migration.version) }
        }
        return done
    }

    private func lockMigrations(_ db: some SQLConnection) throws {
        if let lock = db.dialect.migrationLock { _ = try db.query(lock) { _ in () } }
    }

    private func recordedVersions(_ db: some SQLConnection) throws -> [Int] {
        try lockMigrations(db)
        try db.executeScript(db.dialect.migrationsTable)
        return try db.query("SELECT version FROM schema_migrations ORDER BY version") {
            try $0.int("version")
        }
    }

    private func createTable(_ db: Connection) throws {
        try db.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)
            """)
    }
}
