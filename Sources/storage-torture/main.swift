// Writes through Storage until killed: each transaction moves money between two rows and appends a
// ledger line, so a consistent database always sums to the same total with one ledger line per move.
import Foundation
import Storage

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: storage-torture <database-file>\n".utf8))
    exit(2)
}
let database = try Database(path: CommandLine.arguments[1])
try Migrator([
    Migration(
        version: 1, name: "accounts",
        sql: """
            CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);
            CREATE TABLE ledger (id INTEGER PRIMARY KEY, amount INTEGER NOT NULL, padding BLOB);
            INSERT INTO accounts VALUES (1, 1000000), (2, 1000000);
            """)
]).migrate(database)
FileHandle.standardOutput.write(Data("ready\n".utf8))
var move = 0
let padding = Data(repeating: 0xAB, count: 4096)
while true {
    move += 1
    try database.write { db in
        try db.execute("UPDATE accounts SET balance = balance - ? WHERE id = 1", move % 7)
        try db.execute("INSERT INTO ledger(amount, padding) VALUES (?, ?)", move % 7, padding)
        try db.execute("UPDATE accounts SET balance = balance + ? WHERE id = 2", move % 7)
    }
}
