import Foundation
import Storage
import Synchronization
import Testing

func temporaryDatabasePath() -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storage-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("test.sqlite").path
}

let schema = Migrator([
    Migration(
        version: 1, name: "notes",
        sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL UNIQUE)"),
    Migration(
        version: 2, name: "notes.stars", sql: "ALTER TABLE notes ADD COLUMN stars INTEGER NOT NULL DEFAULT 0"),
])

@Suite struct DatabaseTests {
    @Test func actionsAfterCommitRunOnceCommittedInOrderAndNeverOnRollback() throws {
        let db = try Database(path: temporaryDatabasePath())
        try db.write { try $0.executeScript("CREATE TABLE t (x INTEGER)") }
        let seen = Mutex<[String]>([])
        try db.write { c in
            try c.execute("INSERT INTO t VALUES (1)")
            c.afterCommit {
                // Committed: a reader sees the row when the action runs.
                let count =
                    (try? db.read { r in try r.queryOne("SELECT count(*) AS n FROM t") { try $0.int("n") } })
                    ?? nil
                seen.withLock { $0.append("first \(count ?? -1)") }
            }
            c.afterCommit { seen.withLock { $0.append("second") } }
            #expect(seen.withLock { $0.isEmpty })
        }
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try db.write { c in
                try c.execute("INSERT INTO t VALUES (2)")
                c.afterCommit { seen.withLock { $0.append("rolled back") } }
                throw Refused()
            }
        }
        try db.write { c in c.afterCommit { seen.withLock { $0.append("third") } } }
        #expect(seen.withLock { $0 } == ["first 1", "second", "third"])
    }

    @Test func migrationsApplyOnceAndAreRecorded() throws {
        let db = try Database(path: temporaryDatabasePath())
        #expect(try schema.migrate(db) == [1, 2])
        #expect(try schema.migrate(db) == [])
        #expect(try schema.appliedVersions(in: db) == [1, 2])
        try db.write { try $0.execute("INSERT INTO notes(body, stars) VALUES (?, ?)", "a", 3) }
        #expect(try db.read { try $0.queryOne("SELECT stars FROM notes") { try $0.int(0) } } == 3)
    }

    @Test func aFailingMigrationLeavesNoTrace() throws {
        let db = try Database(path: temporaryDatabasePath())
        let broken = Migrator([
            Migration(version: 1, name: "ok", sql: "CREATE TABLE a (x INTEGER)"),
            Migration(
                version: 2, name: "half", sql: "CREATE TABLE b (x INTEGER); CREATE TABLE a (x INTEGER)"),
        ])
        #expect(throws: DatabaseError.self) { try broken.migrate(db) }
        #expect(try broken.appliedVersions(in: db) == [1])
        let tables = try db.read {
            try $0.query("SELECT name FROM sqlite_master WHERE type='table' AND name='b'") {
                try $0.string(0)
            }
        }
        #expect(tables.isEmpty)
    }

    /// Rebuilding a parent table (to change a constraint) keeps the rows that point at it, and the keys
    /// are back on afterwards; a rebuild that orphans rows is refused whole.
    @Test func aTableRebuildKeepsItsChildren() throws {
        let db = try Database(path: temporaryDatabasePath())
        let base = Migration(
            version: 1, name: "parents",
            sql: """
                CREATE TABLE parent (id INTEGER PRIMARY KEY, kind INTEGER CHECK (kind IN (1, 2)));
                CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parent(id) ON DELETE CASCADE);
                INSERT INTO parent VALUES (1, 1); INSERT INTO child VALUES (10, 1);
                """)
        let rebuild = Migration(
            version: 2, name: "wider kinds", rebuildsTables: true,
            sql: """
                CREATE TABLE parent_new (id INTEGER PRIMARY KEY, kind INTEGER CHECK (kind BETWEEN 1 AND 9));
                INSERT INTO parent_new SELECT * FROM parent;
                DROP TABLE parent;
                ALTER TABLE parent_new RENAME TO parent;
                """)
        try Migrator([base, rebuild]).migrate(db)
        try db.write { try $0.execute("INSERT INTO parent VALUES (2, 3)") }
        #expect(try db.read { try $0.queryOne("SELECT count(*) FROM child") { try $0.int(0) } } == 1)
        try db.write { try $0.execute("DELETE FROM parent WHERE id = 1") }
        #expect(try db.read { try $0.queryOne("SELECT count(*) FROM child") { try $0.int(0) } } == 0)

        let other = try Database(path: temporaryDatabasePath())
        let orphaning = Migration(
            version: 2, name: "loses a parent", rebuildsTables: true,
            sql: """
                CREATE TABLE parent_new (id INTEGER PRIMARY KEY, kind INTEGER);
                DROP TABLE parent;
                ALTER TABLE parent_new RENAME TO parent;
                """)
        #expect(throws: DatabaseError.self) { try Migrator([base, orphaning]).migrate(other) }
        #expect(try other.read { try $0.queryOne("SELECT count(*) FROM parent") { try $0.int(0) } } == 1)
        #expect(throws: DatabaseError.self) {
            try other.write { try $0.execute("INSERT INTO child VALUES (11, 99)") }
        }
    }

    @Test func aNewerDatabaseIsRefused() throws {
        let path = temporaryDatabasePath()
        let db = try Database(path: path)
        try schema.migrate(db)
        let older = Migrator([schema.migrations[0]])
        #expect(throws: DatabaseError.self) { try older.migrate(db) }
    }

    @Test func aThrowingWriteRollsBack() throws {
        let db = try Database(path: temporaryDatabasePath())
        try schema.migrate(db)
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.write { db in
                try db.execute("INSERT INTO notes(body) VALUES (?)", "kept?")
                throw Stop()
            }
        }
        #expect(try db.read { try $0.queryOne("SELECT count(*) FROM notes") { try $0.int(0) } } == 0)
    }

    @Test func errorsNameTheSQLButNeverTheValues() throws {
        let db = try Database(path: temporaryDatabasePath())
        try schema.migrate(db)
        try db.write { try $0.execute("INSERT INTO notes(body) VALUES (?)", "hunter2-secret") }
        do {
            try db.write { try $0.execute("INSERT INTO notes(body) VALUES (?)", "hunter2-secret") }
            Issue.record("a duplicate was accepted")
        } catch let error as DatabaseError {
            #expect(error.isConstraintViolation)
            #expect(error.description.contains("INSERT INTO notes"))
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test func decodingTheWrongTypeThrows() throws {
        let db = try Database(path: temporaryDatabasePath())
        try schema.migrate(db)
        try db.write { try $0.execute("INSERT INTO notes(body) VALUES (?)", "text") }
        #expect(throws: DatabaseError.self) {
            _ = try db.read { try $0.query("SELECT body FROM notes") { try $0.int(0) } }
        }
    }

    @Test func valuesRoundTripExactly() throws {
        let db = try Database(path: temporaryDatabasePath())
        try db.write { try $0.execute("CREATE TABLE v (t TEXT, i INTEGER, r REAL, b BLOB, n TEXT)") }
        let text = "一时失志不免怨叹 🎵 '; DROP TABLE v; --"
        let blob = Data([0, 1, 2, 255])
        try db.write {
            try $0.execute(
                "INSERT INTO v VALUES (?, ?, ?, ?, ?)", text, Int64.max, 0.5, blob, String?.none)
        }
        let row = try db.read {
            try $0.queryOne("SELECT t, i, r, b, n FROM v") {
                (
                    try $0.string(0), try $0.int64(1), try $0.double(2), try $0.data(3),
                    try $0.optionalString(4)
                )
            }
        }
        #expect(row?.0 == text)
        #expect(row?.1 == Int64.max)
        #expect(row?.2 == 0.5)
        #expect(row?.3 == blob)
        #expect(row?.4 == nil)
    }

    @Test func wrongParameterCountIsAnError() throws {
        let db = try Database(path: temporaryDatabasePath())
        try schema.migrate(db)
        #expect(throws: DatabaseError.self) {
            try db.write { try $0.execute("INSERT INTO notes(body) VALUES (?)") }
        }
    }

    @Test func readersSeeACommittedSnapshotWhileAWriteIsOpen() async throws {
        let db = try Database(path: temporaryDatabasePath())
        try schema.migrate(db)
        try db.write { try $0.execute("INSERT INTO notes(body) VALUES ('before')") }
        let writeStarted = DispatchSemaphore(value: 0)
        let readsDone = DispatchSemaphore(value: 0)
        let writer = Thread {
            try? db.write { db in
                try db.execute("INSERT INTO notes(body) VALUES ('during')")
                writeStarted.signal()
                readsDone.wait()
            }
        }
        writer.start()
        writeStarted.wait()
        // Several readers at once, none blocked by the open write, none seeing it.
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try db.read { try $0.queryOne("SELECT count(*) FROM notes") { try $0.int(0) } ?? -1 }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        readsDone.signal()
        #expect(counts == Array(repeating: 1, count: 8))
        while writer.isExecuting || !writer.isFinished { usleep(1000) }
        #expect(try db.read { try $0.queryOne("SELECT count(*) FROM notes") { try $0.int(0) } } == 2)
    }

    @Test func onlineBackupIsAConsistentCopy() throws {
        let path = temporaryDatabasePath()
        let db = try Database(path: path)
        try schema.migrate(db)
        try db.write { db in
            for i in 0..<2_000 { try db.execute("INSERT INTO notes(body) VALUES (?)", "note \(i)") }
        }
        let copy = path + ".backup"
        try db.backup(to: copy)
        let restored = try Database(path: copy)
        #expect(
            try restored.read { try $0.queryOne("SELECT count(*) FROM notes") { try $0.int(0) } } == 2_000)
        #expect(try schema.appliedVersions(in: restored) == [1, 2])
    }
}
