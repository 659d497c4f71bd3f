import Foundation
import Storage

/// How songs and sheets are recommended, from what the stores keep; every function reads through its caller's
/// connection and writes nothing.
///
/// Item to item: a person's seeds (songs they liked, played most, played last, put in sheets) each bring their
/// strongest neighbours (songs people put in the same sheets and played in the same sittings), scored as a
/// cosine: the pair's weight over the square roots of both songs' masses, so a song that goes with everything
/// does not win everywhere. When that gives too few (a new person, new songs), the fallback brings the most
/// played and newest songs of the person's artists, then their genres near their years, then the library's
/// most played.
struct RecommendationEngine: Sendable {
    let store = RecommendationStore()

    /// Seeds used per person, strongest first, and neighbours read per seed.
    static let maxSeeds = 60
    static let neighborsPerSeed = 30
    /// How strongly a candidate's mass damps its score (0.5 is the cosine).
    static let damping = 0.5
    /// Songs of one artist in a day's list.
    static let maxPerArtist = 3
    static let day: Int64 = 86_400

    /// What a person's history says.
    struct Taste: Sendable {
        /// Songs to start from, with how much each counts.
        var seeds: [Int64: Double] = [:]
        /// Songs the person played, liked or put in a sheet.
        var known: Set<Int64> = []
        /// Songs played in the last day: never recommended.
        var playedLastDay: Set<Int64> = []
        var disliked: Set<Int64> = []
        /// Liked and most played songs, the radio's familiar ones.
        var favorites: [Int64] = []
    }

    func taste(_ db: Connection, userID: Int64, now: Int64, recentBoost: Double = 0) throws -> Taste {
        var taste = Taste()
        let plays = try store.plays(db, userID: userID)
        for play in plays {
            taste.known.insert(play.songID)
            if now - play.last < Self.day { taste.playedLastDay.insert(play.songID) }
        }
        let mostPlayed = plays.sorted { ($0.count, $1.songID) > ($1.count, $0.songID) }.prefix(30)
        for play in mostPlayed { taste.seeds[play.songID, default: 0] += 1 + log(Double(play.count)) }
        let lastPlayed = plays.sorted { ($0.last, $1.songID) > ($1.last, $0.songID) }.prefix(30)
        for (index, play) in lastPlayed.enumerated() {
            taste.seeds[play.songID, default: 0] += 1 + (index < 10 ? recentBoost : 0)
        }
        let liked = try store.liked(db, userID: userID, limit: 5_000)
        taste.known.formUnion(liked)
        for songID in liked.prefix(50) { taste.seeds[songID, default: 0] += 2 }
        let own = try store.ownSheetSongs(db, userID: userID, limit: 50)
        taste.known.formUnion(own)
        for songID in own { taste.seeds[songID, default: 0] += 1 }
        taste.disliked = try store.dislikedIDs(db, userID: userID)
        var seen = Set<Int64>()
        taste.favorites = (liked.prefix(100) + mostPlayed.map(\.songID)).filter { seen.insert($0).inserted }
        return taste
    }

    /// Candidates from the seeds' neighbours, best first (ties by id).
    func neighbors(_ db: Connection, seeds: [Int64: Double]) throws -> [(id: Int64, score: Double)] {
        let strongest = seeds.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(Self.maxSeeds)
        var lists: [(seed: Int64, weight: Double, neighbors: [(id: Int64, weight: Double)])] = []
        var ids = Set<Int64>()
        for (seed, weight) in strongest {
            let list = try store.neighbors(db, songID: seed, limit: Self.neighborsPerSeed)
            guard !list.isEmpty else { continue }
            lists.append((seed, weight, list))
            ids.insert(seed)
            for neighbor in list { ids.insert(neighbor.id) }
        }
        guard !lists.isEmpty else { return [] }
        let masses = try store.masses(db, ids: Array(ids))
        var scores: [Int64: Double] = [:]
        for (seed, weight, list) in lists {
            let seedNorm = (masses[seed] ?? 1).squareRoot()
            for neighbor in list {
                scores[neighbor.id, default: 0] +=
                    weight * neighbor.weight / (seedNorm * pow(masses[neighbor.id] ?? 1, Self.damping))
            }
        }
        return scores.map { (id: $0.key, score: $0.value) }.sorted { ($0.score, $1.id) > ($1.score, $0.id) }
    }

    /// Songs by the artists, genres and years of the seeds, then the library's most played and newest ones; in
    /// that order, without repeats. `shuffleSeed` varies the order of the library-wide ones per person and day.
    func fallback(
        _ db: Connection, seeds: [Int64: Double], wanted: Int, shuffleSeed: UInt64?,
        isExcluded: (Int64) -> Bool
    ) throws -> [Int64] {
        var result: [Int64] = []
        var seen = Set<Int64>()
        func take(_ ids: [Int64]) -> Bool {
            for id in ids where !isExcluded(id) && seen.insert(id).inserted {
                result.append(id)
                if result.count >= wanted { return true }
            }
            return false
        }
        let strongest = seeds.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(Self.maxSeeds)
        let facts = try store.facts(db, ids: strongest.map(\.key))
        var artists: [Int64: Double] = [:]
        var genres: [Int64: Double] = [:]
        var years: [Int] = []
        for (songID, weight) in strongest {
            guard let fact = facts[songID] else { continue }
            for artist in fact.artists { artists[artist, default: 0] += weight }
            for genre in fact.genres { genres[genre, default: 0] += weight }
            if let year = fact.year { years.append(year) }
        }
        for (artist, _) in artists.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }).prefix(5) {
            if take(try store.artistSongs(db, artistID: artist, newest: false, limit: 8)) { return result }
            if take(try store.artistSongs(db, artistID: artist, newest: true, limit: 2)) { return result }
        }
        let topGenres = genres.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(3).map(\.key)
        if !topGenres.isEmpty {
            years.sort()
            let middle = years.isEmpty ? nil : years[years.count / 2]
            for page in 0..<5 {
                let songs = try store.genreSongs(db, genreIDs: topGenres, offset: page * 200, limit: 200)
                // Near the person's years first, each group in order of plays.
                let near = songs.filter { song in middle.map { abs((song.year ?? $0) - $0) <= 8 } ?? true }
                if take(near.map(\.id)) || take(songs.map(\.id)) { return result }
                if songs.count < 200 { break }
            }
        }
        for page in 0..<5 {
            var popular = try store.mostPlayed(db, offset: page * 200, limit: 200)
            if let shuffleSeed {
                var generator = SeededGenerator(seed: shuffleSeed &+ UInt64(page))
                popular.shuffle(using: &generator)
            }
            if take(popular) { return result }
            if popular.count < 200 { break }
        }
        _ = take(try store.newest(db, limit: 200))
        return result
    }

    // MARK: Songs of the day

    /// A day's songs for a person: the best new-to-them songs, at most `maxPerArtist` of one artist, none
    /// they dislike or played in the last day; songs in `avoid` (yesterday's list) only when nothing else is left.
    func daily(
        _ db: Connection, userID: Int64, now: Int64, count: Int = 30, avoid: Set<Int64> = [], day: String = ""
    )
        throws -> [Int64]
    {
        let taste = try taste(db, userID: userID, now: now)
        func excluded(_ id: Int64) -> Bool {
            taste.known.contains(id) || taste.disliked.contains(id) || taste.playedLastDay.contains(id)
                || taste.seeds[id] != nil
        }
        let ranked = try neighbors(db, seeds: taste.seeds).map(\.id).filter { !excluded($0) }
        var candidates = Array(ranked.prefix(count * 6))
        if candidates.count < count * 2 {
            let have = Set(candidates)
            candidates += try fallback(
                db, seeds: taste.seeds, wanted: count * 3, shuffleSeed: Self.seed(userID: userID, day: day),
                isExcluded: { excluded($0) || have.contains($0) })
        }
        let facts = try store.facts(db, ids: candidates)
        var perArtist: [Int64: Int] = [:]
        var chosen: [Int64] = []
        var capped: [Int64] = []
        for id in candidates {
            if let artist = facts[id]?.artists.first {
                perArtist[artist, default: 0] += 1
                if perArtist[artist]! > Self.maxPerArtist {
                    capped.append(id)
                    continue
                }
            }
            chosen.append(id)
        }
        let ordered = chosen + capped
        return Array(
            (ordered.filter { !avoid.contains($0) } + ordered.filter { avoid.contains($0) }).prefix(count))
    }

    static func seed(userID: Int64, day: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(userID)/\(day)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    // MARK: Radio

    /// The radio's next songs: about three in four new to the person (drawn by score among the best), one in
    /// four a favourite; never one they dislike, played in the last day or were just handed (`served`).
    func radio<G: RandomNumberGenerator>(
        _ db: Connection, userID: Int64, now: Int64, count: Int, served: Set<Int64>, using generator: inout G
    ) throws -> [Int64] {
        let taste = try taste(db, userID: userID, now: now, recentBoost: 2)
        func blocked(_ id: Int64) -> Bool {
            taste.disliked.contains(id) || taste.playedLastDay.contains(id) || served.contains(id)
        }
        var fresh = try neighbors(db, seeds: taste.seeds).filter {
            !blocked($0.id) && !taste.known.contains($0.id)
        }
        .prefix(150).map { $0 }
        var familiar = taste.favorites.filter { !blocked($0) }
        var others: [Int64] = []
        if fresh.count < count * 3 {
            let have = Set(fresh.map(\.id))
            others = try fallback(
                db, seeds: taste.seeds, wanted: count * 4, shuffleSeed: generator.next(),
                isExcluded: { blocked($0) || taste.known.contains($0) || have.contains($0) })
        }
        var result: [Int64] = []
        while result.count < count {
            if !familiar.isEmpty
                && (Double.random(in: 0..<1, using: &generator) < 0.25 || fresh.isEmpty && others.isEmpty)
            {
                result.append(
                    familiar.remove(at: Int.random(in: 0..<min(familiar.count, 30), using: &generator)))
            } else if !fresh.isEmpty {
                // By score among the best 30, so the radio wanders without leaving the person's taste.
                let window = fresh.prefix(30)
                let total = window.reduce(0) { $0 + $1.score }
                var pick = Double.random(in: 0..<max(total, .leastNonzeroMagnitude), using: &generator)
                var index = 0
                for (offset, candidate) in window.enumerated() {
                    pick -= candidate.score
                    index = offset
                    if pick <= 0 { break }
                }
                result.append(fresh.remove(at: index).id)
            } else if !others.isEmpty {
                result.append(others.remove(at: Int.random(in: 0..<min(others.count, 20), using: &generator)))
            } else {
                break
            }
        }
        return result
    }

    // MARK: Similar songs and sheets

    /// Songs like `songID`: its neighbours by cosine, then its album, its artists' and its genres' songs.
    func similarSongs(_ db: Connection, songID: Int64, count: Int, isExcluded: (Int64) -> Bool) throws
        -> [Int64]
    {
        var result: [Int64] = []
        var seen: Set<Int64> = [songID]
        func take(_ ids: [Int64]) -> Bool {
            for id in ids where !isExcluded(id) && seen.insert(id).inserted {
                result.append(id)
                if result.count >= count { return true }
            }
            return false
        }
        let list = try store.neighbors(db, songID: songID, limit: max(count * 3, 60))
        let masses = try store.masses(db, ids: list.map(\.id))
        let ranked = list.map { (id: $0.id, score: $0.weight / pow(masses[$0.id] ?? 1, Self.damping)) }
            .sorted { ($0.score, $1.id) > ($1.score, $0.id) }
        if take(ranked.map(\.id)) { return result }
        guard let fact = try store.facts(db, ids: [songID])[songID] else { return result }
        for artist in fact.artists.prefix(3) {
            if take(try store.artistSongs(db, artistID: artist, newest: false, limit: count)) {
                return result
            }
        }
        if let album = fact.albumID, take(try store.albumSongs(db, albumID: album, limit: count)) {
            return result
        }
        if !fact.genres.isEmpty {
            let songs = try store.genreSongs(db, genreIDs: fact.genres, offset: 0, limit: 300)
            let near = songs.filter { song in fact.year.map { abs((song.year ?? $0) - $0) <= 5 } ?? true }
            if take(near.map(\.id)) || take(songs.map(\.id)) { return result }
        }
        return result
    }

    /// Public sheets like a sheet: those sharing most of its songs (over the square root of both sizes), then
    /// those holding its songs' neighbours; the caller fills up by tags and collections.
    func similarSheets(_ db: Connection, sheetID: Int64, songIDs: [Int64], count: Int) throws -> [Int64] {
        guard !songIDs.isEmpty else { return [] }
        var scores: [Int64: Double] = [:]
        for sheet in try store.sheetsSharing(db, songIDs: songIDs, excluding: sheetID, limit: 200) {
            scores[sheet.id, default: 0] +=
                Double(sheet.shared) / (Double(songIDs.count * max(sheet.songs, 1))).squareRoot()
        }
        if scores.count < count {
            var related = Set<Int64>()
            for songID in songIDs.prefix(20) {
                for neighbor in try store.neighbors(db, songID: songID, limit: 10) {
                    related.insert(neighbor.id)
                }
            }
            related.subtract(songIDs)
            if !related.isEmpty {
                for sheet in try store.sheetsSharing(
                    db, songIDs: Array(related), excluding: sheetID, limit: 200)
                where scores[sheet.id] == nil {
                    scores[sheet.id] = 0.1 * Double(sheet.shared) / Double(max(sheet.songs, 1)).squareRoot()
                }
            }
        }
        return scores.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(count).map(\.key)
    }
}

/// SplitMix64: a small generator with a seed, so a person's fallback order is the same all day.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
