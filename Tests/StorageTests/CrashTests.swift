import Foundation
import Storage
import Testing

/// The built `storage-torture` binary sits beside the test bundle.
func tortureBinary() -> URL {
    var folder = Bundle.main.bundleURL
    for _ in 0..<4
    where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("storage-torture").path) {
        folder.deleteLastPathComponent()
    }
    return folder.appendingPathComponent("storage-torture")
}

@Suite struct CrashTests {
    @Test(arguments: [40, 150, 400])
    func aWriterKilledMidTransactionLeavesAConsistentDatabase(milliseconds: Int) throws {
        let path = temporaryDatabasePath()
        let process = Process()
        process.executableURL = tortureBinary()
        process.arguments = [path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        _ = output.fileHandleForReading.readData(ofLength: 6)  // "ready\n"
        usleep(useconds_t(milliseconds * 1000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let db = try Database(path: path)
        let check = try db.read { try $0.queryOne("PRAGMA integrity_check") { try $0.string(0) } }
        #expect(check == "ok")
        let (total, moved, lines) = try db.read { db in
            (
                try db.queryOne("SELECT sum(balance) FROM accounts") { try $0.int(0) }!,
                try db.queryOne("SELECT 1000000 - balance FROM accounts WHERE id = 1") { try $0.int(0) }!,
                try db.queryOne("SELECT coalesce(sum(amount), 0) FROM ledger") { try $0.int(0) }!
            )
        }
        #expect(total == 2_000_000)
        #expect(moved == lines)
        #expect(lines > 0, "the writer was killed before it wrote anything")
    }
}
