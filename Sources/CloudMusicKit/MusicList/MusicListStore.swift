import Foundation
import MusicCore
import Storage

/// The music list's rows in the LocalStore. Every change to the list is one transaction with the order
/// that goes with it, so a crash leaves a list and an order that agree.
struct MusicListStore: Sendable {
    let database: Database

    struct Saved: Sendable {
        var order: PlayOrder
        var songs: [Int64: Song]
        var position: Double
        var syncedVersion: Int?
        var unsynced: Bool
    }

    func load() throws -> Saved? {
        try database.read { db in
            let state = Dictionary(
                try db.query("SELECT key, value FROM music_list_state") {
                    (try $0.string("key"), try $0.string("value"))
                },
                uniquingKeysWith: { first, _ in first })
            guard let orderJSON = state["order"] else { return nil }
            let order = try JSONDecoder().decode(PlayOrder.self, from: Data(orderJSON.utf8))
            var songs: [Int64: Song] = [:]
            let decoder = JSONDecoder()
            for (id, json) in try db.query(
                "SELECT entry_id, song FROM music_list_entries",
                decode: {
                    (try $0.int64("entry_id"), try $0.string("song"))
                })
            {
                songs[id] = try decoder.decode(Song.self, from: Data(json.utf8))
            }
            return Saved(
                order: order, songs: songs, position: state["position"].flatMap(Double.init) ?? 0,
                syncedVersion: state["syncedVersion"].flatMap { Int($0) }, unsynced: state["unsynced"] == "1")
        }
    }

    /// Writes the order and state, adds `added` entries and drops `removed` ones, in one transaction.
    func save(
        order: PlayOrder, added: [(Int64, Song)] = [], removed: [Int64] = [], replaceAll: Bool = false,
        position: Double, syncedVersion: Int?, unsynced: Bool
    ) throws {
        let encoder = JSONEncoder()
        let orderJSON = String(decoding: try encoder.encode(order), as: UTF8.self)
        let rows = try added.map { ($0.0, String(decoding: try encoder.encode($0.1), as: UTF8.self)) }
        try database.write { db in
            if replaceAll { try db.execute("DELETE FROM music_list_entries") }
            for id in removed { try db.execute("DELETE FROM music_list_entries WHERE entry_id = ?", id) }
            for (id, json) in rows {
                try db.execute(
                    "INSERT OR REPLACE INTO music_list_entries(entry_id, song) VALUES (?, ?)", id, json)
            }
            try Self.set(db, "order", orderJSON)
            try Self.set(db, "position", String(position))
            try Self.set(db, "syncedVersion", syncedVersion.map(String.init) ?? "")
            try Self.set(db, "unsynced", unsynced ? "1" : "0")
        }
    }

    func savePosition(_ position: Double) throws {
        try database.write { db in try Self.set(db, "position", String(position)) }
    }

    private static func set(_ db: Connection, _ key: String, _ value: String) throws {
        try db.execute(
            "INSERT INTO music_list_state(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            key, value)
    }
}
