// recommendation-bench: builds a generated taste model straight into a CloudMusic database, lets the server's
// backfill pair it, then measures recommendations.
//
//     recommendation-bench [--db PATH] [--songs 100000] [--users 10000] [--plays 1000000] [--testers 1000]
//                          [--seed 1] [--reuse]
//
// The model: genres with Zipf popularity; artists (20 songs each, two albums) in one genre each, Zipf-popular
// within it; songs Zipf-popular within their artist. Each person likes one to three genres and five to fifteen
// artists of them; a play is a favourite artist's song (45 %), a song of a liked genre (40 %), anything popular
// (15 %), or, one time in four, a replay of a song already played. Likes are the songs played most; a third of
// the people make one to three sheets around one of their genres. For `--testers` people the last play of a song
// new to them is held out (never written), the leave-one-out target.
//
// Then (a) the time of one person's daily songs (the engine alone, and the service call that keeps and answers
// them), the radio and similar songs, p50/p99 over many people; (b) the hit rate at 30 of the held-out song for
// the daily songs, against 30 random unheard songs and the 30 most played unheard ones.
// Prints a summary and writes it as JSON to <db>.json.
@_spi(Benchmarks) import CloudMusicServer
import Foundation
import MusicCore
import Storage

// MARK: Arguments

var settings = (
    db: "Benchmarks/out/recommendations.sqlite", songs: 100_000, users: 10_000, plays: 1_000_000,
    testers: 1_000,
    seed: UInt64(1), reuse: false
)
var arguments = CommandLine.arguments.dropFirst()
func usage() -> Never {
    FileHandle.standardError.write(
        Data(
            "usage: recommendation-bench [--db PATH] [--songs N] [--users N] [--plays N] [--testers N] [--seed N] [--reuse]\n"
                .utf8))
    exit(2)
}
while let flag = arguments.popFirst() {
    if flag == "--reuse" {
        settings.reuse = true
        continue
    }
    guard let value = arguments.popFirst() else { usage() }
    switch flag {
    case "--db": settings.db = value
    case "--songs": settings.songs = Int(value) ?? { usage() }()
    case "--users": settings.users = Int(value) ?? { usage() }()
    case "--plays": settings.plays = Int(value) ?? { usage() }()
    case "--testers": settings.testers = Int(value) ?? { usage() }()
    case "--seed": settings.seed = UInt64(value) ?? { usage() }()
    default: usage()
    }
}

func log(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

// MARK: Random numbers

struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }
    mutating func normal() -> Double {
        let u = max(unit(), 1e-12)
        return (-2 * Foundation.log(u)).squareRoot() * cos(2 * .pi * unit())
    }
}

/// Draws indexes with fixed weights, by binary search over the running sums.
struct Weighted {
    let sums: [Double]
    init(_ weights: [Double]) {
        var total = 0.0
        sums = weights.map {
            total += $0
            return total
        }
    }
    func draw(_ random: inout Random) -> Int {
        let target = random.unit() * sums.last!
        var low = 0
        var high = sums.count - 1
        while low < high {
            let middle = (low + high) / 2
            if sums[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low
    }
    static func zipf(_ count: Int, exponent: Double) -> Weighted {
        Weighted((0..<count).map { 1 / pow(Double($0 + 1), exponent) })
    }
}

// MARK: The model

let genreCount = 20
let songsPerArtist = 20
let artistCount = settings.songs / songsPerArtist
let songCount = artistCount * songsPerArtist
var random = Random(state: settings.seed)
let genrePopularity = Weighted.zipf(genreCount, exponent: 0.8)
// Artists: a genre each, drawn by the genres' popularity; popularity rank within the genre in order of creation.
var artistGenre: [Int] = []
var artistsOfGenre = [[Int]](repeating: [], count: genreCount)
for artist in 0..<artistCount {
    let genre = genrePopularity.draw(&random)
    artistGenre.append(genre)
    artistsOfGenre[genre].append(artist)
}
let artistPopularity = artistsOfGenre.map { Weighted.zipf(max($0.count, 1), exponent: 1.0) }
let songPopularity = Weighted.zipf(songsPerArtist, exponent: 1.0)
let artistYear = (0..<artistCount).map { _ in 1970 + random.int(0..<52) }
/// Song ids are 1-based: artist a's songs are a*20+1 ... a*20+20.
@MainActor func songID(artist: Int, rank: Int) -> Int64 { Int64(artist * songsPerArtist + rank + 1) }
@MainActor func popularSong(ofGenre genre: Int, _ random: inout Random) -> Int64 {
    let artists = artistsOfGenre[genre]
    guard !artists.isEmpty else { return songID(artist: random.int(0..<artistCount), rank: 0) }
    let artist = artists[artistPopularity[genre].draw(&random)]
    return songID(artist: artist, rank: songPopularity.draw(&random))
}

struct Person {
    var genres: [Int]
    var genreWeights: Weighted
    var favorites: [Int]
    var events: [(song: Int64, time: Int64)] = []
    var heldOut: Int64?
}

let now = Int64(Date().timeIntervalSince1970)
let timelineStart = now - 60 * 86_400
var people: [Person] = []
let activity = (0..<settings.users).map { _ in exp(Foundation.log(60.0) + 1.0 * random.normal()) }
let activityScale = Double(settings.plays) / activity.reduce(0, +)
for index in 0..<settings.users {
    var genres = [genrePopularity.draw(&random)]
    for _ in 0..<random.int(0..<3) {
        let genre = genrePopularity.draw(&random)
        if !genres.contains(genre) { genres.append(genre) }
    }
    let weights = Weighted(genres.map { _ in 0.2 + random.unit() })
    var favorites: [Int] = []
    for _ in 0..<(5 + random.int(0..<11)) {
        let genre = genres[weights.draw(&random)]
        let artists = artistsOfGenre[genre]
        guard !artists.isEmpty else { continue }
        let artist = artists[artistPopularity[genre].draw(&random)]
        if !favorites.contains(artist) { favorites.append(artist) }
    }
    var person = Person(genres: genres, genreWeights: weights, favorites: favorites)
    let count = max(3, Int((activity[index] * activityScale).rounded()))
    let span = Double(now - 3_600 - timelineStart)
    for event in 0..<count {
        let time = timelineStart + Int64(span * (Double(event) + random.unit()) / Double(count))
        let song: Int64
        let roll = random.unit()
        if !person.events.isEmpty && random.unit() < 0.25 {
            song = person.events[random.int(0..<person.events.count)].song
        } else if roll < 0.45 && !favorites.isEmpty {
            song = songID(
                artist: favorites[random.int(0..<favorites.count)], rank: songPopularity.draw(&random))
        } else if roll < 0.85 {
            song = popularSong(ofGenre: genres[weights.draw(&random)], &random)
        } else {
            song = popularSong(ofGenre: genrePopularity.draw(&random), &random)
        }
        person.events.append((song, time))
    }
    people.append(person)
}
// Testers: people with at least ten plays; their last play of a song new to them is held out.
var testers: [Int] = []
for index in people.indices where testers.count < settings.testers && people[index].events.count >= 10 {
    var firstSeen: [Int64: Int] = [:]
    for (position, event) in people[index].events.enumerated() where firstSeen[event.song] == nil {
        firstSeen[event.song] = position
    }
    // The song first played last: every play after it is of a song played before.
    guard let last = firstSeen.values.max(), last > 0 else { continue }
    let held = people[index].events[last].song
    people[index].heldOut = held
    people[index].events.removeAll { $0.song == held }
    testers.append(index)
}

// MARK: Writing the database

let databasePath = settings.db
try? FileManager.default.createDirectory(
    atPath: (databasePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
if !settings.reuse {
    for suffix in ["", "-wal", "-shm"] { unlink(databasePath + suffix) }
}
let built = Date()
let lab = try RecommendationLab(databasePath: databasePath)
let database = lab.database
let alreadyBuilt =
    try database.read { db in
        try db.queryOne("SELECT count(*) AS n FROM songs") { try $0.int("n") } ?? 0
    } > 0
var backfillSeconds = 0.0
if !alreadyBuilt {
    log(
        "writing \(songCount) songs, \(settings.users) people, \(people.reduce(0) { $0 + $1.events.count }) plays..."
    )
    try database.write { db in
        try db.execute("INSERT INTO music_folders(id, path) VALUES (1, '/bench')")
        for genre in 0..<genreCount {
            try db.execute(
                "INSERT INTO genres(id, name, name_key, songs_count) VALUES (?, ?, ?, 0)", genre + 1,
                "Genre \(genre)",
                "genre \(genre)")
        }
        for artist in 0..<artistCount {
            try db.execute(
                """
                INSERT INTO artists(id, name, name_key, songs_count, albums_count, created_at, updated_at)
                VALUES (?, ?, ?, ?, 2, ?, ?)
                """, artist + 1, "Artist \(artist)", "artist \(artist)", songsPerArtist, timelineStart,
                timelineStart)
            for album in 0..<2 {
                try db.execute(
                    """
                    INSERT INTO albums(id, title, album_key, artist_id, year, songs_count, duration_ms, created_at,
                        updated_at)
                    VALUES (?, ?, ?, ?, ?, 10, 2000000, ?, ?)
                    """, artist * 2 + album + 1, "Album \(artist)-\(album)", "album \(artist) \(album)",
                    artist + 1,
                    artistYear[artist] + album * 3, timelineStart, timelineStart)
            }
            for rank in 0..<songsPerArtist {
                let id = songID(artist: artist, rank: rank)
                let album = rank / 10
                try db.execute(
                    """
                    INSERT INTO songs(id, folder_id, path, size, mtime_ns, fingerprint, title, album_id, track_number,
                        year, duration_ms, format, created_at, updated_at)
                    VALUES (?, 1, ?, 1, 1, ?, ?, ?, ?, ?, 200000, 'mp3', ?, ?)
                    """, id, "/bench/\(id).mp3", "f\(id)", "Song \(id)", artist * 2 + album + 1,
                    rank % 10 + 1,
                    artistYear[artist] + album * 3, timelineStart - Int64(artistCount - artist) * 60,
                    timelineStart)
                try db.execute(
                    "INSERT INTO song_artists(song_id, artist_id, position) VALUES (?, ?, 0)", id, artist + 1)
                try db.execute(
                    "INSERT INTO song_genres(song_id, genre_id) VALUES (?, ?)", id, artistGenre[artist] + 1)
            }
        }
        try db.execute(
            "UPDATE genres SET songs_count = (SELECT count(*) FROM song_genres g WHERE g.genre_id = genres.id)"
        )
    }
    var sheetCount = 0
    var likeCount = 0
    for start in stride(from: 0, to: people.count, by: 500) {
        try database.write { db in
            for index in start..<min(start + 500, people.count) {
                let person = people[index]
                let userID = Int64(index + 1)
                try db.execute(
                    """
                    INSERT INTO users(id, email, nickname, nickname_key, password_hash, created_at, updated_at)
                    VALUES (?, ?, ?, ?, 'benchmark', ?, ?)
                    """, userID, "p\(userID)@bench.local", "Person \(userID)", "person \(userID)",
                    timelineStart,
                    timelineStart)
                var plays: [Int64: (count: Int, last: Int64)] = [:]
                for event in person.events {
                    let old = plays[event.song] ?? (0, 0)
                    plays[event.song] = (old.count + 1, max(old.last, event.time))
                }
                for (song, play) in plays {
                    try db.execute(
                        "INSERT INTO song_plays(user_id, song_id, plays_count, last_played_at) VALUES (?, ?, ?, ?)",
                        userID, song, play.count, play.last)
                    try db.execute(
                        """
                        UPDATE songs SET plays_count = plays_count + ?, last_played_at = max(coalesce(last_played_at, 0), ?)
                        WHERE id = ?
                        """, play.count, play.last, song)
                }
                // "I like": the songs played most (at least twice, with a chance that grows with the plays),
                // the newest at the top.
                var local = Random(state: settings.seed &+ UInt64(userID) &* 7919)
                let liked = plays.filter {
                    $0.value.count >= 2 && local.unit() < min(0.7, 0.12 * Double($0.value.count))
                }
                .sorted { $0.value.last > $1.value.last }
                let likesSheet = try db.queryOne(
                    "SELECT id FROM sheets WHERE user_id = ? AND kind = 1", userID,
                    decode: { try $0.int64("id") })!
                for (position, like) in liked.enumerated() {
                    try db.execute(
                        "INSERT INTO sheet_songs(sheet_id, song_id, position, added_at) VALUES (?, ?, ?, ?)",
                        likesSheet,
                        like.key, position, like.value.last)
                }
                likeCount += liked.count
                // A third make sheets around one of their genres, from their favourites and the genre's songs.
                guard local.unit() < 0.33 else { continue }
                for sheet in 0..<(1 + local.int(0..<3)) {
                    let genre = person.genres[local.int(0..<person.genres.count)]
                    let size = 10 + local.int(0..<31)
                    var songs: [Int64] = []
                    var seen = Set<Int64>()
                    var tries = 0
                    while songs.count < size && tries < size * 5 {
                        tries += 1
                        let favorites = person.favorites.filter { artistGenre[$0] == genre }
                        let song =
                            !favorites.isEmpty && local.unit() < 0.4
                            ? songID(
                                artist: favorites[local.int(0..<favorites.count)],
                                rank: songPopularity.draw(&local))
                            : popularSong(ofGenre: genre, &local)
                        if song != person.heldOut && seen.insert(song).inserted { songs.append(song) }
                    }
                    let made = timelineStart + Int64(local.int(0..<(50 * 86_400)))
                    try db.execute(
                        "INSERT INTO sheets(user_id, title, tags, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
                        userID,
                        "Sheet \(userID)-\(sheet)", "[\"Genre \(genre)\"]", made, made)
                    let sheetID = db.lastInsertRowID
                    for (position, song) in songs.enumerated() {
                        try db.execute(
                            "INSERT INTO sheet_songs(sheet_id, song_id, position, added_at) VALUES (?, ?, ?, ?)",
                            sheetID, song, position, made + Int64(position))
                    }
                    sheetCount += 1
                }
            }
        }
    }
    log(
        String(
            format: "  written in %.1f s: %d sheets, %d likes", Date().timeIntervalSince(built), sheetCount,
            likeCount))
    log("pairing (the server's backfill, in batches of 50 people)...")
    let pairing = Date()
    try lab.backfill { done in
        if done % 1_000 == 0 { log("  \(done) people") }
    }
    backfillSeconds = Date().timeIntervalSince(pairing)
    log(String(format: "  paired in %.1f s", backfillSeconds))
}
let tables = try database.read { db in
    (
        pairs: try db.queryOne("SELECT count(*) AS n FROM song_neighbors") { try $0.int("n") } ?? 0,
        plays: try db.queryOne("SELECT coalesce(sum(plays_count), 0) AS n FROM song_plays") {
            try $0.int("n")
        } ?? 0,
        playRows: try db.queryOne("SELECT count(*) AS n FROM song_plays") { try $0.int("n") } ?? 0,
        sheets: try db.queryOne("SELECT count(*) AS n FROM sheets WHERE kind = 0") { try $0.int("n") } ?? 0,
        likes: try db.queryOne(
            "SELECT count(*) AS n FROM sheet_songs ss JOIN sheets s ON s.id = ss.sheet_id WHERE s.kind = 1"
        ) { try $0.int("n") } ?? 0
    )
}
var fileSize = stat()
stat(databasePath, &fileSize)
log(
    "database: \(songCount) songs, \(settings.users) people, \(tables.plays) plays (\(tables.playRows) rows), "
        + "\(tables.sheets) sheets, \(tables.likes) likes, \(tables.pairs) neighbour rows, \(fileSize.st_size >> 20) MB"
)

// MARK: (a) Time

func percentiles(_ samples: [Double]) -> (p50: Double, p99: Double, mean: Double) {
    let sorted = samples.sorted()
    func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))] }
    return (at(0.5), at(0.99), samples.reduce(0, +) / Double(max(samples.count, 1)))
}

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
}

let evaluationTime = now
var measured: [String: (p50: Double, p99: Double, mean: Double)] = [:]
let sample = Array(testers.prefix(1_000))
// Warm the page cache and statement caches, as a running server would be.
for index in sample.prefix(50) { _ = try lab.dailySongIDs(userID: Int64(index + 1), now: evaluationTime) }
var engineTimes: [Double] = []
var lists: [Int: [Int64]] = [:]
for index in sample {
    var ids: [Int64] = []
    engineTimes.append(try time { ids = try lab.dailySongIDs(userID: Int64(index + 1), now: evaluationTime) })
    lists[index] = ids
}
measured["daily (engine)"] = percentiles(engineTimes)
var firstCall: [Double] = []
var secondCall: [Double] = []
for index in sample.prefix(500) {
    firstCall.append(try time { _ = try lab.dailySongs(userID: Int64(index + 1)) })
    secondCall.append(try time { _ = try lab.dailySongs(userID: Int64(index + 1)) })
}
measured["daily (service, first call of the day)"] = percentiles(firstCall)
measured["daily (service, later calls)"] = percentiles(secondCall)
var radioTimes: [Double] = []
for index in sample.prefix(500) {
    radioTimes.append(try time { _ = try lab.radio(userID: Int64(index + 1), count: 10) })
}
measured["radio, 10 songs (service)"] = percentiles(radioTimes)
var similarTimes: [Double] = []
var probe = Random(state: settings.seed &+ 99)
for _ in 0..<500 {
    let song = Int64(1 + probe.int(0..<songCount))
    similarTimes.append(try time { _ = try lab.similarSongs(songID: song) })
}
measured["similar songs, 20 (service)"] = percentiles(similarTimes)
var playTimes: [Double] = []
for index in sample.prefix(300) {
    let song = Int64(1 + probe.int(0..<songCount))
    playTimes.append(
        try time { try lab.play(userID: Int64(index + 1), songID: song, at: evaluationTime + 7_200) })
}
measured["a counted play with its pairing (one transaction)"] = percentiles(playTimes)

// MARK: (b) Leave-one-out hit rate at 30

let known: [Int: Set<Int64>] = try database.read { db in
    var known: [Int: Set<Int64>] = [:]
    for index in testers {
        let userID = Int64(index + 1)
        var songs = Set(
            try db.query("SELECT song_id FROM song_plays WHERE user_id = ?", userID) {
                try $0.int64("song_id")
            })
        songs.formUnion(
            try db.query(
                "SELECT ss.song_id FROM sheets s JOIN sheet_songs ss ON ss.sheet_id = s.id WHERE s.user_id = ?",
                userID
            ) { try $0.int64("song_id") })
        known[index] = songs
    }
    return known
}
let popular = try database.read { db in
    try db.query("SELECT id FROM songs ORDER BY plays_count DESC, id LIMIT 5000") { try $0.int64("id") }
}
var hits = (ours: 0, random: 0, mostPlayed: 0)
var pick = Random(state: settings.seed &+ 7)
for index in testers {
    guard let held = people[index].heldOut, let mine = known[index] else { continue }
    if lists[index]?.contains(held) == true { hits.ours += 1 }
    var randomList = Set<Int64>()
    while randomList.count < 30 {
        let song = Int64(1 + pick.int(0..<songCount))
        if !mine.contains(song) { randomList.insert(song) }
    }
    if randomList.contains(held) { hits.random += 1 }
    if popular.lazy.filter({ !mine.contains($0) }).prefix(30).contains(held) { hits.mostPlayed += 1 }
}
let testerCount = max(testers.count, 1)
@MainActor func rate(_ hits: Int) -> Double { Double(hits) / Double(testerCount) }

// MARK: Report

var report = """
    recommendations on \(songCount) songs, \(settings.users) people, \(tables.plays) plays, \(tables.sheets) sheets, \
    \(tables.likes) likes (seed \(settings.seed)); \(tables.pairs) neighbour rows, \(fileSize.st_size >> 20) MB
    """
if backfillSeconds > 0 { report += String(format: "\npairing by the backfill: %.1f s", backfillSeconds) }
report += "\n\n(a) time per call, ms (p50 / p99 / mean)\n"
for name in measured.keys.sorted() {
    let value = measured[name]!
    report +=
        "  " + name.padding(toLength: 52, withPad: " ", startingAt: 0)
        + String(format: " %7.2f %7.2f %7.2f\n", value.p50, value.p99, value.mean)
}
report += "\n(b) leave-one-out hit rate at 30, \(testerCount) people\n"
report += String(format: "  daily songs         %.4f (%d)\n", rate(hits.ours), hits.ours)
report += String(format: "  most played unheard %.4f (%d)\n", rate(hits.mostPlayed), hits.mostPlayed)
report += String(format: "  random unheard      %.4f (%d)\n", rate(hits.random), hits.random)
print(report)
var json: [String: Any] = [
    "songs": songCount, "users": settings.users, "plays": tables.plays, "sheets": tables.sheets,
    "likes": tables.likes,
    "neighbourRows": tables.pairs, "databaseMB": Int(fileSize.st_size >> 20), "testers": testerCount,
    "hitRate": ["daily": rate(hits.ours), "mostPlayed": rate(hits.mostPlayed), "random": rate(hits.random)],
]
if backfillSeconds > 0 { json["backfillSeconds"] = backfillSeconds }
json["milliseconds"] = measured.mapValues { ["p50": $0.p50, "p99": $0.p99, "mean": $0.mean] }
try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
    .write(to: URL(fileURLWithPath: databasePath + ".json"))
