// Storage's hot paths, measured in one process: SQLite through its own API (what every store calls today),
// SQLite through the engine-neutral surface (what a converted store will call), and PostgreSQL through the same
// surface. Built with BASELINE defined (run.sh does, against the base commit) only the first part compiles, so
// the same SQLite figures can be had before and after a change to Storage.
//
//   storage-bench [--rounds N] [--postgres URL]   (URL defaults to CLOUDMUSIC_TEST_POSTGRES_URL; "" for none)
import Foundation
import Storage

#if !BASELINE
    import PostgresStorage
#endif

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let rounds = Int(option("--rounds") ?? "7") ?? 7
let songCount = 100_000
let readsPerTransaction = 100
let readTransactions = 400
let writeTransactions = 400
let rowsPerWrite = 5

/// This thread's CPU time in nanoseconds: what the work cost, whatever else the machine runs.
func threadCPU() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// One thing to measure: `operations` of it per run.
struct Work {
    var name: String
    var operations: Int
    var run: @MainActor () throws -> Void
}

/// Runs each work once to warm it (statements prepared, pages cached), then `rounds` rounds of all of them,
/// each round in another order so that none always follows the same one; prints and returns the median of each
/// in this thread's CPU nanoseconds per operation, with the median wall time.
@MainActor func measure(_ works: [Work]) throws -> [Double] {
    var cpu = Array(repeating: [Double](), count: works.count)
    var wall = Array(repeating: [Double](), count: works.count)
    for work in works { try work.run() }
    for round in 0..<rounds {
        for step in 0..<works.count {
            let i = (step + round) % works.count
            let (startWall, startCPU) = (DispatchTime.now().uptimeNanoseconds, threadCPU())
            try works[i].run()
            cpu[i].append(Double(threadCPU() - startCPU) / Double(works[i].operations))
            wall[i].append(
                Double(DispatchTime.now().uptimeNanoseconds - startWall) / Double(works[i].operations))
        }
    }
    return works.indices.map { i in
        let median = cpu[i].sorted()[rounds / 2]
        print(
            String(
                format: "%-32@ %8.0f ns CPU/op (min %.0f, max %.0f)  %8.0f ns wall/op",
                works[i].name as NSString,
                median, cpu[i].min()!, cpu[i].max()!, wall[i].sorted()[rounds / 2]))
        return median
    }
}

/// Ids spread over the table, the same sequence every run (a stride prime to the table's size).
let readIDs = (0..<(readsPerTransaction * readTransactions)).map { Int64($0 * 7_919 % songCount) + 1 }

struct Song {
    var id: Int64
    var title: String
    var plays: Int64
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("storage-bench-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let sqlite = try Database(path: folder.appendingPathComponent("bench.sqlite").path)
try sqlite.write { db in
    try db.executeScript(
        "CREATE TABLE songs (id INTEGER PRIMARY KEY, title TEXT NOT NULL, plays INTEGER NOT NULL)")
    for id in 1...songCount {
        try db.execute("INSERT INTO songs VALUES (?, ?, ?)", id, "Song number \(id)", 0)
    }
}
print(
    "SQLite \(songCount) songs; \(rounds) rounds, median; reads: \(readsPerTransaction) point reads per transaction"
)

// MARK: SQLite through its own API (before and after)

@MainActor func directReads() throws {
    var checksum: Int64 = 0
    for start in stride(from: 0, to: readIDs.count, by: readsPerTransaction) {
        try sqlite.read { db in
            for id in readIDs[start..<(start + readsPerTransaction)] {
                let song = try db.queryOne("SELECT id, title, plays FROM songs WHERE id = ?", id) { row in
                    Song(
                        id: try row.int64("id"), title: try row.string("title"), plays: try row.int64("plays")
                    )
                }
                checksum &+= song!.id
            }
        }
    }
    precondition(checksum > 0)
}

var nextWrite: Int64 = 0
@MainActor func directWrites() throws {
    for _ in 0..<writeTransactions {
        try sqlite.write { db in
            for _ in 0..<rowsPerWrite {
                nextWrite = nextWrite % Int64(songCount) + 1
                try db.execute("UPDATE songs SET plays = plays + 1 WHERE id = ?", nextWrite)
            }
        }
    }
}

let direct = [
    Work(name: "sqlite  point read   direct", operations: readIDs.count, run: directReads),
    Work(name: "sqlite  write        direct", operations: writeTransactions, run: directWrites),
]

#if BASELINE
    _ = try measure(direct)
#else
    // MARK: The engine-neutral surface, as a converted store will use it

    /// A store function written once for both engines.
    func song(_ db: some SQLConnection, id: Int64) throws -> Song? {
        try db.queryOne("SELECT id, title, plays FROM songs WHERE id = ?", id) { row in
            Song(id: try row.int64("id"), title: try row.string("title"), plays: try row.int64("plays"))
        }
    }

    func play(_ db: some SQLConnection, id: Int64) throws {
        try db.execute("UPDATE songs SET plays = plays + 1 WHERE id = ?", id)
    }

    /// Point reads through `any SQLDatabase`, as a service holding either engine calls them.
    func neutralReads(_ database: any SQLDatabase, ids: [Int64]) throws {
        var checksum: Int64 = 0
        for start in stride(from: 0, to: ids.count, by: readsPerTransaction) {
            try database.read { db in
                for id in ids[start..<(start + readsPerTransaction)] { checksum &+= try song(db, id: id)!.id }
            }
        }
        precondition(checksum > 0)
    }

    @MainActor func neutralWrites(_ database: any SQLDatabase, count: Int) throws {
        for _ in 0..<count {
            try database.write { db in
                for _ in 0..<rowsPerWrite {
                    nextWrite = nextWrite % Int64(songCount) + 1
                    try play(db, id: nextWrite)
                }
            }
        }
    }

    /// The point reads and writes through the neutral surface, on `database`.
    func neutralWorks(_ engine: String, _ database: any SQLDatabase) -> [Work] {
        [
            Work(name: "\(engine)point read   neutral", operations: readIDs.count) {
                try neutralReads(database, ids: readIDs)
            },
            Work(name: "\(engine)write        neutral", operations: writeTransactions) {
                try neutralWrites(database, count: writeTransactions)
            },
        ]
    }

    let sqliteFigures = try measure(direct + neutralWorks("sqlite  ", sqlite))
    print(
        String(
            format: "neutral / direct on SQLite: reads %.3f, writes %.3f",
            sqliteFigures[2] / sqliteFigures[0],
            sqliteFigures[3] / sqliteFigures[1]))

    // MARK: PostgreSQL through the same surface

    // An empty --postgres "" measures SQLite alone.
    if let url = option("--postgres") ?? ProcessInfo.processInfo.environment["CLOUDMUSIC_TEST_POSTGRES_URL"],
        !url.isEmpty
    {
        let admin = try PostgresDatabase(url: url)
        let name = "storage_bench_\(getpid())"
        try admin.withConnection { try $0.executeScript("CREATE DATABASE \(name)") }
        defer { _ = try? admin.withConnection { try $0.executeScript("DROP DATABASE \(name)") } }
        let postgres = try PostgresDatabase(address: admin.address.with("dbname", name))
        try postgres.write { db in
            try db.executeScript(
                """
                CREATE TABLE songs (id BIGINT PRIMARY KEY, title TEXT NOT NULL, plays BIGINT NOT NULL);
                INSERT INTO songs SELECT g, 'Song number ' || g, 0 FROM generate_series(1, \(songCount)) AS g;
                """)
        }
        try postgres.withConnection { try $0.executeScript("VACUUM ANALYZE songs") }
        print("PostgreSQL at \(postgres.address)")
        let postgresFigures = try measure(neutralWorks("postgres ", postgres))
        print(
            String(
                format: "PostgreSQL / SQLite (neutral), client CPU only: reads %.2f, writes %.2f",
                postgresFigures[0] / sqliteFigures[2], postgresFigures[1] / sqliteFigures[3]))
    }
#endif
