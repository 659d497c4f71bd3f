import Foundation
import PostgresStorage
import PostgresTestSupport
import ServerTestSupport
import Storage
import Testing

struct Refused: Error {}

/// Ends another session and waits until it is gone (PostgreSQL waits for it, up to the timeout).
func terminate(_ pid: Int32, in database: PostgresDatabase) throws {
    let gone = try database.withConnection { admin in
        try admin.queryOne("SELECT pg_terminate_backend(?, 60000) AS gone", Int(pid)) { try $0.bool("gone") }
    }
    #expect(gone == true)
}

func count(_ table: String, in database: PostgresDatabase) throws -> Int {
    try database.read { try $0.queryOne("SELECT count(*) AS n FROM \(table)") { try $0.int("n") } } ?? -1
}

/// How many times each writer's closure has run.
final class Attempts: Sendable {
    private let byWriter = Locked<[String: Int]>([:])

    /// Counts one more run of `writer`'s closure and returns its number (from 1).
    func next(_ writer: String) -> Int {
        byWriter.withLock { counts -> Int in
            counts[writer, default: 0] += 1
            return counts[writer]!
        }
    }

    var counts: [String: Int] { byWriter.withLock { $0 } }
}

@Suite struct PostgresDatabaseTests {
    @Test func manyThreadsShareAFewConnectionsAndReadsNeverSeeHalfATransaction() throws {
        let database = try TestCluster.freshPool { $0.maximumConnections = 3 }
        try database.write {
            try $0.executeScript(
                "CREATE TABLE pairs (id BIGSERIAL PRIMARY KEY, thread INT NOT NULL, n INT NOT NULL)")
        }
        let threads = 12
        let rounds = 20
        try onThreads(threads) { thread in
            for n in 0..<rounds {
                try database.write { db in
                    try db.execute("INSERT INTO pairs(thread, n) VALUES (?, ?)", thread, n)
                    try db.execute("INSERT INTO pairs(thread, n) VALUES (?, ?)", thread, n)
                }
                let seen = try database.read { db in
                    try db.queryOne("SELECT count(*) AS n FROM pairs") { try $0.int("n") }
                }
                #expect(seen.map { $0 % 2 == 0 } == true, "a read saw one row of a pair")
            }
        }
        #expect(try count("pairs", in: database) == threads * rounds * 2)
        #expect(database.openConnections <= 3)
        let sessions = try database.read { db in
            try db.queryOne(
                "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()"
            ) { try $0.int("n") }
        }
        #expect((sessions ?? 99) <= 3)
    }

    @Test func aWriteCommitsWholeOrNotAtAll() throws {
        let database = try TestCluster.freshPool()
        try database.write { try $0.executeScript("CREATE TABLE t (x INT NOT NULL)") }
        try database.write { db in
            try db.execute("INSERT INTO t VALUES (1)")
            try db.execute("INSERT INTO t VALUES (2)")
        }
        #expect(throws: Refused.self) {
            try database.write { db in
                try db.execute("INSERT INTO t VALUES (3)")
                throw Refused()
            }
        }
        // A failure the closure caught still voids the transaction: PostgreSQL refuses to commit it.
        #expect(throws: PostgresError.self) {
            try database.write { db in
                try db.execute("INSERT INTO t VALUES (4)")
                _ = try? db.execute("INSERT INTO t VALUES (NULL)")
            }
        }
        let kept = try database.read { try $0.query("SELECT x FROM t ORDER BY x") { try $0.int("x") } }
        #expect(kept == [1, 2])
        #expect(throws: PostgresError.self) {
            try database.read { try $0.execute("INSERT INTO t VALUES (5)") }
        }
    }

    @Test func actionsAfterCommitRunInCommitOrderAndNeverOnRollback() throws {
        // READ COMMITTED: the writers queue on one row's lock, so each sees the number the one before committed.
        let database = try TestCluster.freshPool {
            $0.maximumConnections = 4
            $0.writeIsolation = .readCommitted
        }
        try database.write {
            try $0.executeScript("CREATE TABLE counter (n INT NOT NULL); INSERT INTO counter VALUES (0)")
        }
        // Actions hold the commit order, and the transactions queued behind one may hold every pooled
        // connection: an action that reads goes through a pool of its own.
        let observer = try PostgresDatabase(address: database.address)
        let seen = Locked<[Int]>([])
        try onThreads(6) { thread in
            for round in 0..<15 {
                do {
                    try database.write { db in
                        let n = try db.queryOne("UPDATE counter SET n = n + 1 RETURNING n") {
                            try $0.int("n")
                        }!
                        db.afterCommit {
                            // Committed: another session sees the number when the action runs.
                            let committed = try? observer.read { db in
                                try db.queryOne("SELECT n FROM counter") { try $0.int("n") }
                            }
                            if committed.flatMap({ $0 }).map({ $0 >= n }) != true {
                                seen.withLock { $0.append(-n) }
                            }
                            seen.withLock { $0.append(n) }
                        }
                        if (thread + round) % 4 == 0 { throw Refused() }
                    }
                } catch is Refused {}
            }
        }
        let numbers = seen.withLock { $0 }
        let committed = try database.read { try $0.queryOne("SELECT n FROM counter") { try $0.int("n") } }
        #expect(numbers == Array(1...(committed ?? 0)))
        #expect(
            numbers.count == 6 * 15 - (0..<6).flatMap { t in (0..<15).filter { (t + $0) % 4 == 0 } }.count)
    }

    @Test func aDuplicateIsAUniqueViolationThatNamesItsConstraintButNotTheValue() throws {
        let database = try TestCluster.freshPool()
        try database.write { db in
            try db.executeScript(
                """
                CREATE TABLE people (id BIGSERIAL PRIMARY KEY, email TEXT NOT NULL CONSTRAINT people_email UNIQUE,
                    age INT CHECK (age > 0));
                CREATE TABLE posts (id BIGSERIAL PRIMARY KEY, person_id BIGINT NOT NULL REFERENCES people(id));
                """)
            try db.execute("INSERT INTO people(email) VALUES (?)", "secret@example.com")
        }
        func failure(_ sql: String, _ arguments: any SQLBindable...) -> PostgresError? {
            do {
                _ = try database.write { try $0.execute(sql, arguments: arguments) }
                return nil
            } catch {
                return error as? PostgresError
            }
        }
        let duplicate = failure("INSERT INTO people(email) VALUES (?)", "secret@example.com")
        #expect(duplicate?.kind == .uniqueViolation)
        #expect(duplicate?.sqlState == "23505")
        #expect(duplicate?.constraint == "people_email")
        #expect(duplicate?.description.contains("secret@example.com") == false)
        #expect(failure("INSERT INTO posts(person_id) VALUES (?)", 999)?.kind == .foreignKeyViolation)
        #expect(
            failure("INSERT INTO people(email, age) VALUES (?, ?)", "b@example.com", -1)?.kind
                == .constraintViolation)
        #expect(failure("INSERT INTO people(email) VALUES (?)", nil as String?)?.kind == .constraintViolation)
        let badNumber = failure(
            "INSERT INTO people(email, age) VALUES ('c@example.com', CAST(? AS INT))", "hunter2")
        #expect(badNumber?.kind == .other)
        #expect(badNumber?.description.contains("hunter2") == false)
        #expect(badNumber?.description.contains("invalid input syntax for type integer") == true)
    }

    /// Write skew: each doctor may go off call while another is on call; both read, then both write. Under
    /// SERIALIZABLE one of them fails and runs again, and then sees that it may not go.
    @Test func aSerializationFailureRunsTheWriteAgainAndDropsTheFailedAttemptsActions() throws {
        let database = try TestCluster.freshPool { $0.maximumConnections = 2 }
        try database.write { db in
            try db.executeScript(
                """
                CREATE TABLE doctors (name TEXT PRIMARY KEY, on_call BOOLEAN NOT NULL);
                INSERT INTO doctors VALUES ('alice', true), ('bob', true);
                """)
        }
        let bothRead = DispatchGroup()
        bothRead.enter()
        bothRead.enter()
        let attempts = Attempts()
        let actions = Locked<[String]>([])
        try onThreads(2) { thread in
            let me = thread == 0 ? "alice" : "bob"
            try database.write { db in
                let attempt = attempts.next(me)
                db.afterCommit { actions.withLock { $0.append("\(me) \(attempt)") } }
                let onCall = try db.queryOne("SELECT count(*) AS n FROM doctors WHERE on_call") {
                    try $0.int("n")
                }
                if attempt == 1 {
                    bothRead.leave()
                    bothRead.wait()
                }
                if onCall == 2 { try db.execute("UPDATE doctors SET on_call = false WHERE name = ?", me) }
            }
        }
        let onCall = try database.read { db in
            try db.queryOne("SELECT count(*) AS n FROM doctors WHERE on_call") { try $0.int("n") }
        }
        #expect(onCall == 1)
        let counts = attempts.counts
        #expect(counts.values.sorted() == [1, 2])
        #expect(actions.withLock { $0 }.sorted() == counts.map { "\($0.key) \($0.value)" }.sorted())
    }

    @Test func aDeadlockVictimRunsAgainOrIsNamedWhenItMayNot() throws {
        let address = try TestCluster.freshDatabase()
        let retrying = try PostgresDatabase(address: address)
        var once = PostgresDatabase.Configuration()
        once.writeAttempts = 1
        let notRetrying = try PostgresDatabase(address: address, configuration: once)
        try retrying.write { db in
            try db.executeScript(
                "CREATE TABLE cells (id INT PRIMARY KEY, n INT NOT NULL); INSERT INTO cells VALUES (1, 0), (2, 0)"
            )
        }
        /// Two writers lock the two rows in opposite orders, each waiting for the other's first lock.
        func collide(_ database: PostgresDatabase) throws -> [SQLErrorKind] {
            let firstLocks = DispatchGroup()
            firstLocks.enter()
            firstLocks.enter()
            let tries = Attempts()
            let failures = Locked<[SQLErrorKind]>([])
            try onThreads(2) { thread in
                let order = thread == 0 ? [1, 2] : [2, 1]
                do {
                    try database.write { db in
                        let attempt = tries.next("\(thread)")
                        try db.execute("UPDATE cells SET n = n + 1 WHERE id = ?", order[0])
                        if attempt == 1 {
                            firstLocks.leave()
                            firstLocks.wait()
                        }
                        try db.execute("UPDATE cells SET n = n + 1 WHERE id = ?", order[1])
                    }
                } catch let error as PostgresError {
                    failures.withLock { $0.append(error.kind) }
                }
            }
            return failures.withLock { $0 }
        }
        #expect(try collide(retrying) == [])
        let cells = try retrying.read { try $0.query("SELECT n FROM cells ORDER BY id") { try $0.int("n") } }
        #expect(cells == [2, 2])
        #expect(try collide(notRetrying) == [.deadlock])
    }

    @Test func aConnectionFoundDeadBeforeATransactionIsReplacedOnce() throws {
        let database = try TestCluster.freshPool { $0.maximumConnections = 1 }
        let admin = try PostgresDatabase(address: database.address)
        let first = try database.read { $0.backendPID }
        try terminate(first, in: admin)
        let second = try database.write { db in
            try db.executeScript("CREATE TABLE t (x INT)")
            return db.backendPID
        }
        #expect(second != first)
        try terminate(second, in: admin)
        let third = try database.read { $0.backendPID }
        #expect(third != second)
    }

    @Test func aConnectionLostInsideATransactionIsAnErrorAndNothingOfItStays() throws {
        let database = try TestCluster.freshPool { $0.maximumConnections = 1 }
        let admin = try PostgresDatabase(address: database.address)
        try database.write { try $0.executeScript("CREATE TABLE t (x INT)") }
        var lost: PostgresError?
        do {
            try database.write { db in
                try db.execute("INSERT INTO t VALUES (1)")
                try terminate(db.backendPID, in: admin)
                try db.execute("INSERT INTO t VALUES (2)")
            }
        } catch {
            lost = error as? PostgresError
        }
        #expect(lost?.kind == .connectionLost)
        #expect(try count("t", in: database) == 0)
        #expect(database.openConnections == 1)
        do {
            _ = try database.read { db in
                try terminate(db.backendPID, in: admin)
                return try db.query("SELECT x FROM t") { try $0.int("x") }
            }
            Issue.record("a read on a lost connection returned")
        } catch {
            #expect((error as? PostgresError)?.kind == .connectionLost)
        }
    }

    @Test func rowsAreReadByNameAndRefuseWhatTheyDoNotHold() throws {
        let database = try TestCluster.freshPool()
        try database.read { db in
            let row = try db.queryOne(
                """
                SELECT 1 AS a, 'two' AS b, 3 AS a, true AS yes, false AS no, CAST(7 AS SMALLINT) AS small,
                    CAST(9007199254740993 AS BIGINT) AS big, CAST(1.5 AS DOUBLE PRECISION) AS half,
                    sum(x) AS total, avg(x) AS mean, CAST(NULL AS TEXT) AS nothing, CAST('\\x00ff41' AS BYTEA) AS bytes,
                    CAST('{"a": 1}' AS JSONB) AS json, to_timestamp(0) AS epoch
                FROM (VALUES (CAST(4 AS BIGINT)), (5)) AS v(x)
                """
            ) { row throws -> Bool in
                #expect(try row.int("a") == 1)
                #expect(try row.string("b") == "two")
                #expect(try row.bool("yes"))
                #expect(try !row.bool("no"))
                #expect(try row.int("yes") == 1)
                #expect(try row.int("small") == 7)
                #expect(try row.int64("big") == 9_007_199_254_740_993)
                #expect(try row.double("half") == 1.5)
                #expect(try row.int64("total") == 9)
                #expect(try row.double("mean") == 4.5)
                #expect(try row.optionalString("nothing") == nil)
                #expect(try row.isNull("nothing"))
                #expect(try row.data("bytes") == Data([0, 255, 65]))
                #expect(try row.string("json") == #"{"a": 1}"#)
                #expect(try row.string("epoch") == "1970-01-01 00:00:00+00")
                #expect(row.value(try row.index("total")) == .integer(9))
                #expect(row.value(try row.index("half")) == .real(1.5))
                #expect(row.value(try row.index("nothing")) == .null)
                #expect(throws: PostgresError.self) { try row.string("a") }
                #expect(throws: PostgresError.self) { try row.int("b") }
                #expect(throws: PostgresError.self) { try row.int("mean") }
                #expect(throws: PostgresError.self) { try row.string("nothing") }
                #expect(throws: PostgresError.self) { try row.int("no such column") }
                #expect(throws: PostgresError.self) { try row.int(99) }
                return true
            }
            #expect(row == true)
        }
    }

    @Test func statementsArePreparedOncePerConnection() throws {
        let database = try TestCluster.freshPool { $0.maximumConnections = 1 }
        try database.read { db in
            for n in 0..<3 {
                // Values computed outside #expect: a decode closure inside its expansion was seen miscompiled
                // (Swift 6.3: a later query ran the earlier closure).
                let answer = try db.queryOne("SELECT 41 + ? AS answer", n) { try $0.int("answer") }
                #expect(answer == 41 + n)
            }
            let prepared = try db.queryOne(
                "SELECT count(*) AS n FROM pg_prepared_statements WHERE statement = ?",
                "SELECT 41 + $1 AS answer"
            ) { try $0.int("n") }
            #expect(prepared == 1)
            #expect(throws: PostgresError.self) {
                try db.queryOne("SELECT 41 + ? AS answer") { try $0.int("answer") }
            }
        }
    }

    @Test func listsBindAsOneArrayParameter() throws {
        let database = try TestCluster.freshPool()
        let words = ["plain", "a\"quote", "back\\slash", "NULL", "", "x,y", "{}", "一时失志", "🎵"]
        try database.write { db in
            try db.executeScript("CREATE TABLE words (id BIGSERIAL PRIMARY KEY, word TEXT NOT NULL)")
            for word in words + ["absent"] { try db.execute("INSERT INTO words(word) VALUES (?)", word) }
        }
        try database.read { db in
            let ids = Array(Int64(1)...Int64(1_000)) + [5_000]
            let matched = try db.queryOne(
                "SELECT count(*) AS n FROM generate_series(1, 2000) AS g WHERE g = ANY(?)", SQLArray(ids)
            ) { try $0.int("n") }
            #expect(matched == 1_000)
            let found = try db.query(
                "SELECT word FROM words WHERE \(db.dialect.anyOf("word")) ORDER BY id", SQLArray(words)
            ) {
                try $0.string("word")
            }
            #expect(found == words)
            let none = try db.query("SELECT id FROM words WHERE id = ANY(?)", SQLArray([Int64]())) {
                try $0.int("id")
            }
            #expect(none == [])
        }
    }

    @Test func unicodeRoundTripsAndANulCharacterIsRefused() throws {
        let database = try TestCluster.freshPool()
        let texts = [
            "一时失志不免怨叹", "🎵👍🏽", "e\u{301}cole", "مرحبا", "Ünïcödé", String(repeating: "雪", count: 10_000),
        ]
        try database.write { db in
            try db.executeScript("CREATE TABLE texts (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL)")
            for text in texts { try db.execute("INSERT INTO texts(body) VALUES (?)", text) }
        }
        let stored = try database.read { db in
            try db.query("SELECT body, length(body) AS characters FROM texts ORDER BY id") { row in
                let body = try row.string("body")
                #expect(try row.int("characters") == body.unicodeScalars.count)
                return body
            }
        }
        #expect(stored == texts)
        var refused: PostgresError?
        do {
            _ = try database.write {
                try $0.execute("INSERT INTO texts(body) VALUES (?)", "before\u{0}after")
            }
        } catch {
            refused = error as? PostgresError
        }
        #expect(refused?.message.contains("NUL") == true)
        #expect(try count("texts", in: database) == texts.count)
    }

    @Test func bigValuesRoundTrip() throws {
        let database = try TestCluster.freshPool()
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<(4 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let text = String(repeating: "歌词 lyrics ", count: 200_000)
        try database.write { db in
            try db.executeScript(
                "CREATE TABLE blobs (id BIGSERIAL PRIMARY KEY, bytes BYTEA, body TEXT, empty BYTEA)")
            try db.execute("INSERT INTO blobs(bytes, body, empty) VALUES (?, ?, ?)", bytes, text, Data())
        }
        let (readBytes, readText, empty) = try database.read { db in
            try db.queryOne("SELECT bytes, body, empty FROM blobs") {
                (try $0.data("bytes"), try $0.string("body"), try $0.optionalData("empty"))
            }!
        }
        #expect(readBytes == bytes)
        #expect(readText == text)
        #expect(empty == Data())
    }

    @Test func aWrongAddressFailsWithASentence() throws {
        let address = try TestCluster.freshDatabase()
        var failure: PostgresError?
        do { _ = try PostgresDatabase(address: address.with("dbname", "no_such_database")) } catch {
            failure = error as? PostgresError
        }
        #expect(failure?.kind == .connectionLost)
        #expect(failure?.message.contains("cannot connect to PostgreSQL at") == true)
        #expect(failure?.message.contains("no_such_database") == true)
    }
}
