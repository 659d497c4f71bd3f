import Foundation
import MusicCore
import Storage

/// The catalog's reads: lists with paging and sorting, details, and search. Never N+1: a page of
/// songs costs one query for the songs and one each for their artists and genres.
///
/// Every function reads through the connection of its caller's transaction. SQLite-only: the FTS5 search
/// tables (`MATCH`, `bm25`) and `json_each` for lists of ids.
struct CatalogStore: Sendable {
    /// Where a song's file and lyric sidecar live, for streaming and lyrics.
    struct SongFile: Sendable {
        var id: Int64
        var path: String
        var format: String
        var durationMilliseconds: Int
        var lyricPath: String?
        var lyricStyle: Int
        var embeddedLyric: String?
        var albumID: Int64?
    }

    struct SongFilter: Sendable {
        var artistID: Int64?
        var albumID: Int64?
        var genreID: Int64?
    }

    // MARK: Songs

    func songs(_ db: Connection, filter: SongFilter, sort: CatalogSort, paging: Paging) throws -> Page<Song> {
        var conditions: [String] = []
        var arguments: [any SQLBindable] = []
        if let artistID = filter.artistID {
            conditions.append("s.id IN (SELECT song_id FROM song_artists WHERE artist_id = ?)")
            arguments.append(artistID)
        }
        if let albumID = filter.albumID {
            conditions.append("s.album_id = ?")
            arguments.append(albumID)
        }
        if let genreID = filter.genreID {
            conditions.append("s.id IN (SELECT song_id FROM song_genres WHERE genre_id = ?)")
            arguments.append(genreID)
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let effectiveOrder =
            filter.albumID != nil ? "s.disc_number, s.track_number, s.id" : Self.order(sort, table: "s")
        let total =
            try db.queryOne("SELECT count(*) AS n FROM songs s \(whereClause)", arguments: arguments) {
                try $0.int("n")
            } ?? 0
        let rows = try selectSongs(
            db, "\(whereClause) ORDER BY \(effectiveOrder) LIMIT ? OFFSET ?",
            arguments + [paging.size, paging.offset])
        return Page(items: rows, total: total, page: paging.page, size: paging.size)
    }

    func song(_ db: Connection, id: Int64) throws -> Song? {
        try selectSongs(db, "WHERE s.id = ?", [id]).first
    }

    func songFile(_ db: Connection, id: Int64) throws -> SongFile? {
        try db.queryOne(
            """
            SELECT id, path, format, duration_ms, lyric_path, lyric_style, embedded_lyric, album_id
            FROM songs WHERE id = ?
            """, id
        ) {
            SongFile(
                id: try $0.int64("id"), path: try $0.string("path"), format: try $0.string("format"),
                durationMilliseconds: try $0.int("duration_ms"),
                lyricPath: try $0.optionalString("lyric_path"),
                lyricStyle: try $0.int("lyric_style"), embeddedLyric: try $0.optionalString("embedded_lyric"),
                albumID: try $0.optionalInt64("album_id"))
        }
    }

    /// Songs for a WHERE/ORDER/LIMIT tail, as the v1 API answers them (`songRows` without annotations).
    func selectSongs(_ db: Connection, _ tail: String, _ arguments: [any SQLBindable]) throws -> [Song] {
        try songRows(db, tail, arguments).map(\.model)
    }

    // MARK: Albums, artists, genres

    /// The ORDER BY of a song or album listing (both tables have these columns), ties broken by id.
    static func order(_ sort: CatalogSort, table: String) -> String {
        switch sort {
        case .name: "\(table).title COLLATE NOCASE, \(table).id"
        case .year: "\(table).year DESC, \(table).id"
        case .recent: "\(table).created_at DESC, \(table).id"
        case .plays: "\(table).plays_count DESC, \(table).id"
        case .played: "\(table).last_played_at DESC, \(table).id"
        }
    }

    func albums(_ db: Connection, artistID: Int64?, sort: CatalogSort, paging: Paging) throws -> Page<Album> {
        let order = Self.order(sort, table: "al")
        let filter = artistID == nil ? "" : "WHERE al.artist_id = ?"
        let arguments: [any SQLBindable] = artistID.map { [$0] } ?? []
        let total =
            try db.queryOne("SELECT count(*) AS n FROM albums al \(filter)", arguments: arguments) {
                try $0.int("n")
            } ?? 0
        let rows = try albumRows(
            db, "\(filter) ORDER BY \(order) LIMIT ? OFFSET ?", arguments + [paging.size, paging.offset]
        ).map(\.model)
        return Page(items: rows, total: total, page: paging.page, size: paging.size)
    }

    func album(_ db: Connection, id: Int64) throws -> Album? {
        guard var album = try albumRows(db, "WHERE al.id = ?", [id]).first?.model else { return nil }
        album.songs = try selectSongs(
            db, "WHERE s.album_id = ? ORDER BY s.disc_number, s.track_number, s.title, s.id", [id])
        return album
    }

    /// Where an album's cover may come from: its folder image, then the embedded pictures of its songs.
    func albumCoverSources(_ db: Connection, id: Int64) throws -> (folderCover: String?, songPaths: [String])?
    {
        guard
            let folderCover = try db.queryOne(
                "SELECT folder_cover FROM albums WHERE id = ?", id,
                decode: { [try $0.optionalString("folder_cover")] })
        else { return nil }
        let paths = try db.query(
            "SELECT path FROM songs WHERE album_id = ? ORDER BY disc_number, track_number LIMIT 3", id
        ) { try $0.string("path") }
        return (folderCover[0], paths)
    }

    func artists(_ db: Connection, sort: CatalogSort, paging: Paging) throws -> Page<Artist> {
        let order: String
        switch sort {
        case .name, .year: order = "ar.name_key, ar.id"
        case .recent: order = "ar.created_at DESC, ar.id"
        case .plays, .played: order = "ar.songs_count DESC, ar.id"
        }
        let total = try db.queryOne("SELECT count(*) AS n FROM artists") { try $0.int("n") } ?? 0
        let rows = try artistRows(db, "ORDER BY \(order) LIMIT ? OFFSET ?", [paging.size, paging.offset]).map(
            \.model)
        return Page(items: rows, total: total, page: paging.page, size: paging.size)
    }

    func artist(_ db: Connection, id: Int64, songLimit: Int = 100) throws -> Artist? {
        guard var artist = try artistRows(db, "WHERE ar.id = ?", [id]).first?.model else { return nil }
        artist.albums = try albumRows(db, "WHERE al.artist_id = ? ORDER BY al.year DESC, al.title", [id]).map(
            \.model)
        artist.songs = try selectSongs(
            db,
            """
            WHERE s.id IN (SELECT song_id FROM song_artists WHERE artist_id = ?)
            ORDER BY s.plays_count DESC, s.title LIMIT ?
            """,
            [id, songLimit])
        return artist
    }

    func genres(_ db: Connection, paging: Paging) throws -> Page<Genre> {
        let total = try db.queryOne("SELECT count(*) AS n FROM genres") { try $0.int("n") } ?? 0
        let rows = try db.query(
            "SELECT id, name, songs_count FROM genres ORDER BY songs_count DESC, name_key LIMIT ? OFFSET ?",
            paging.size, paging.offset
        ) {
            Genre(
                id: String(try $0.int64("id")), name: try $0.string("name"),
                songsCount: try $0.int("songs_count"))
        }
        return Page(items: rows, total: total, page: paging.page, size: paging.size)
    }

    // MARK: Songs by id

    /// The songs with these ids in the order given (repeats kept); ids no longer in the library are left out.
    func songs(_ db: Connection, ids: [Int64]) throws -> [Song] {
        guard !ids.isEmpty else { return [] }
        // Joined on the list itself, so rows come back in its order (repeats included), no lookup table.
        return try selectSongs(
            db, "JOIN json_each(?) wanted ON s.id = wanted.value ORDER BY wanted.key",
            ["[" + ids.map(String.init).joined(separator: ",") + "]"])
    }

    func songExists(_ db: Connection, id: Int64) throws -> Bool {
        try db.queryOne("SELECT 1 AS found FROM songs WHERE id = ?", id) { _ in true } ?? false
    }

    /// Counts a play on the song and its album; false when there is no such song.
    func countPlay(_ db: Connection, songID: Int64, at time: Int64) throws -> Bool {
        guard
            let albumID = try db.queryOne(
                "SELECT album_id FROM songs WHERE id = ?", songID,
                decode: { try $0.optionalInt64("album_id") })
        else { return false }
        try db.execute(
            """
            UPDATE songs SET plays_count = plays_count + 1,
                last_played_at = max(coalesce(last_played_at, 0), ?) WHERE id = ?
            """, time, songID)
        if let albumID {
            try db.execute(
                """
                UPDATE albums SET plays_count = plays_count + 1,
                    last_played_at = max(coalesce(last_played_at, 0), ?) WHERE id = ?
                """, time, albumID)
        }
        return true
    }

    /// The ids among `ids` that are not songs of the library.
    func unknownSongs(_ db: Connection, ids: [Int64]) throws -> [Int64] {
        try db.query(
            """
            SELECT DISTINCT j.value AS id FROM json_each(?) j LEFT JOIN songs s ON s.id = j.value
            WHERE s.id IS NULL
            """, JSONColumn.text(ids)
        ) { try $0.int64("id") }
    }

    /// The song a playlist entry means: this server's stream address, a file's full path, or
    /// "Artist - Title" (from `#EXTINF`, else from the file name).
    func songID(_ db: Connection, matching entry: M3U.Entry) throws -> Int64? {
        let location = entry.location
        if let range = location.range(of: #"v1/songs/[0-9]{1,18}/stream"#, options: .regularExpression) {
            let id = Int64(location[range].dropFirst("v1/songs/".count).dropLast("/stream".count)) ?? 0
            if try songExists(db, id: id) { return id }
        }
        if location.hasPrefix("/"),
            let id = try db.queryOne(
                "SELECT id FROM songs WHERE path = ?", location, decode: { try $0.int64("id") })
        {
            return id
        }
        var described = entry.title
        if described == nil {
            var stem = ((location as NSString).lastPathComponent as NSString).deletingPathExtension
            // "01 - Title" and "01. Title": drop the track number.
            if let number = stem.range(of: #"^[0-9]{1,3}(\s*-\s*|\.\s*|\s+)"#, options: .regularExpression) {
                stem.removeSubrange(number)
            }
            described = stem
        }
        guard let described, !described.isEmpty else { return nil }
        let parts = described.components(separatedBy: " - ")
        let candidates: [(artist: String?, title: String)] =
            parts.count >= 2
            ? [(parts[0], parts.dropFirst().joined(separator: " - ")), (nil, described)]
            : [(nil, described)]
        for candidate in candidates {
            let rows = try db.query(
                """
                SELECT s.id, (SELECT group_concat(lower(ar.name), char(31)) FROM song_artists sa
                    JOIN artists ar ON ar.id = sa.artist_id WHERE sa.song_id = s.id) AS artist_names
                FROM songs s WHERE s.title = ? COLLATE NOCASE ORDER BY s.id LIMIT 50
                """, candidate.title.trimmingCharacters(in: .whitespaces)
            ) { (try $0.int64("id"), try $0.optionalString("artist_names") ?? "") }
            guard let artist = candidate.artist else {
                if let first = rows.first { return first.0 }
                continue
            }
            let wanted = Set(
                artist.lowercased().components(separatedBy: " / ").map {
                    $0.trimmingCharacters(in: .whitespaces)
                })
            if let match = rows.first(where: {
                !wanted.isDisjoint(with: $0.1.components(separatedBy: "\u{1F}"))
            }) {
                return match.0
            }
        }
        return nil
    }

    // MARK: Search

    /// Songs, albums and artists matching what was typed, best first (see `rankedMatches`).
    func search(_ db: Connection, _ typed: String, limit: Int) throws -> SearchResults {
        guard let query = Query(typed) else {
            return SearchResults(songs: [], albums: [], artists: [])
        }
        let songIDs = try Self.rankedMatches(db, query, in: .song, limit: limit).map(\.id)
        let albumIDs = try Self.rankedMatches(db, query, in: .album, limit: limit).map(\.id)
        let artistIDs = try Self.rankedMatches(db, query, in: .artist, limit: limit).map(\.id)
        func ordered<T: Identifiable>(_ items: [T], _ ids: [Int64]) -> [T] where T.ID == String {
            let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
            return ids.compactMap { byID[String($0)] }
        }
        let songs =
            songIDs.isEmpty
            ? [] : try selectSongs(db, "WHERE s.id IN (SELECT value FROM json_each(?))", [songIDs.jsonArray])
        let albums =
            albumIDs.isEmpty
            ? []
            : try albumRows(db, "WHERE al.id IN (SELECT value FROM json_each(?))", [albumIDs.jsonArray]).map(
                \.model)
        let artists =
            artistIDs.isEmpty
            ? []
            : try artistRows(db, "WHERE ar.id IN (SELECT value FROM json_each(?))", [artistIDs.jsonArray])
                .map(
                    \.model)
        return SearchResults(
            songs: ordered(songs, songIDs), albums: ordered(albums, albumIDs),
            artists: ordered(artists, artistIDs))
    }

    /// One kind's matches for what was typed, best first, a page at a time (Subsonic's search3 pages each
    /// kind on its own). Like `search`, only the first `rankedCandidates` matches are ranked and listed.
    func searchIDs(
        _ db: Connection, _ typed: String, in index: LibraryStore.SearchIndex, offset: Int, limit: Int
    ) throws -> [Int64] {
        guard let query = Query(typed), offset < Self.rankedCandidates else { return [] }
        let wanted = min(offset + limit, Self.rankedCandidates)
        return Array(try Self.rankedMatches(db, query, in: index, limit: wanted).map(\.id).dropFirst(offset))
    }

    /// Most matches ranked: past this, ranking costs more than it helps (one common character can match
    /// half the library), so only the oldest this many full-text matches of a kind are ranked.
    static let rankedCandidates = 1_000

    /// How well a match matches, best first.
    enum Tier: Int, Comparable, Sendable {
        /// The title (a song's or album's title, an artist's name) starts with what was typed.
        case titleStart
        /// Every word is in the title.
        case title
        /// Found through other fields: a song's artists and album, an album's artist.
        case other

        static func < (a: Tier, b: Tier) -> Bool { a.rawValue < b.rawValue }
    }

    struct RankedMatch: Equatable, Sendable {
        var id: Int64
        var tier: Tier
    }

    /// One kind's matches for what was typed, best first: titles that start with what was typed, in
    /// alphabetical order ("Love" before "Love Me Do"); then titles with every word, then matches through
    /// other fields, each in the order the library was scanned (an album's tracks in order). With
    /// `titleOnly`, only the first two.
    ///
    /// Only the last word is a prefix (a person is still typing it); the words before it must be whole
    /// words, and are tried as prefixes only when that finds nothing ("beat abbey"). The title and other
    /// matches come from the oldest `rankedCandidates` full-text matches, each tier read only as far as
    /// `limit`. No bm25: it counts every row of each word to weigh it (100,000 for "Album" at 100k songs,
    /// whatever the bound), and ranking by it cost a cold search 2-6 ms.
    static func rankedMatches(
        _ db: Connection, _ query: Query, in index: LibraryStore.SearchIndex, limit: Int,
        titleOnly: Bool = false
    ) throws -> [RankedMatch] {
        let starting = try titleStarts(db, query.titlePrefix, in: index, limit: limit).map {
            RankedMatch(id: $0.id, tier: .titleStart)
        }
        return starting
            + (try moreMatches(db, query, in: index, after: starting, limit: limit, titleOnly: titleOnly))
    }

    /// What `rankedMatches` lists after the title starts `starting`: nothing when they fill `limit`.
    static func moreMatches(
        _ db: Connection, _ query: Query, in index: LibraryStore.SearchIndex, after starting: [RankedMatch],
        limit: Int, titleOnly: Bool
    ) throws -> [RankedMatch] {
        guard starting.count < limit else { return [] }
        // Asked for as many more as may repeat a title start.
        let wanted = limit + starting.count
        var found = try fullTextMatches(db, query.wholeWords, in: index, limit: wanted, titleOnly: titleOnly)
        if found.isEmpty, let prefixes = query.prefixes {
            found = try fullTextMatches(db, prefixes, in: index, limit: wanted, titleOnly: titleOnly)
        }
        let seen = Set(starting.map(\.id))
        return Array(found.filter { !seen.contains($0.id) }.prefix(limit - starting.count))
    }

    /// What was typed, and as FTS5 expressions, worked out once for every kind searched.
    struct Query: Sendable {
        var typed: String
        /// What titles must start with: what was typed without surrounding spaces and without the
        /// punctuation it ends with, which the full-text words ignore too ("love - " finds "Love Me Do").
        var titlePrefix: String
        /// The words before the last whole, the last a prefix.
        var wholeWords: String
        /// Every word a prefix, when that differs from `wholeWords`: tried when they find nothing.
        var prefixes: String?

        /// Nil when nothing searchable was typed.
        init?(_ typed: String) {
            guard let whole = SearchText.matchQuery(typed, wholeWordsBeforeLast: true) else { return nil }
            self.typed = typed
            var prefix = Substring(typed)
            while let last = prefix.unicodeScalars.last,
                last.properties.isWhitespace
                    || !(last.properties.isAlphabetic || last.properties.numericType != nil)
            {
                prefix = Substring(prefix.unicodeScalars.dropLast())
            }
            titlePrefix = String(prefix.drop { $0.isWhitespace })
            wholeWords = whole
            prefixes = SearchText.hasWordBeforeLast(typed) ? SearchText.matchQuery(typed) : nil
        }
    }

    /// Titles that start with what was typed, alphabetically: a range of the title index, so they lead
    /// however common the words are.
    static func titleStarts(
        _ db: Connection, _ typed: String, in index: LibraryStore.SearchIndex, limit: Int
    ) throws -> [(id: Int64, title: String)] {
        guard !typed.isEmpty else { return [] }
        switch index {
        case .song, .album:
            // A range of the NOCASE index (ASCII case folded, as LIKE would): a LIKE with a bound pattern is
            // prepared again for every new pattern, which cost more than the query.
            let table = index.catalogTable
            return try db.query(
                """
                SELECT id, title FROM \(table)
                WHERE title >= ? COLLATE NOCASE AND title < ? COLLATE NOCASE
                ORDER BY title COLLATE NOCASE, id LIMIT ?
                """, typed, typed + "\u{10FFFF}", limit
            ) { (try $0.int64("id"), try $0.string("title")) }
        case .artist:
            // Names are kept lower case (`name_key`): a range of that index, any script's case.
            let key = typed.lowercased()
            return try db.query(
                """
                SELECT id, name FROM artists WHERE name_key >= ? AND name_key < ? ORDER BY name_key, id LIMIT ?
                """, key, key + "\u{10FFFF}", limit
            ) { (try $0.int64("id"), try $0.string("name")) }
        }
    }

    /// The full-text matches of one index: those with every word in the title, then the others, each in id
    /// order, at most `limit`, from the oldest `rankedCandidates` matches.
    private static func fullTextMatches(
        _ db: Connection, _ expression: String, in index: LibraryStore.SearchIndex, limit: Int,
        titleOnly: Bool
    ) throws -> [RankedMatch] {
        let table = index.table
        // The bound: the last of the first `rankedCandidates` matches, from rowids alone.
        guard
            let last = try db.queryOne(
                "SELECT max(rowid) AS last FROM (SELECT rowid FROM \(table) WHERE \(table) MATCH ? LIMIT ?)",
                expression, rankedCandidates, decode: { try $0.optionalInt64("last") }) ?? nil
        else { return [] }
        let inTitle = "{title} : (\(expression))"
        // A column filter checks each row of a word's list, and reading up FTS5 only stops at a bound once a
        // row matches: with no title match ("Album": every album name, no title) it read all 100,000 rows.
        // Read down from the bound, it stops at the start of the list: at most the candidates.
        var titled = try db.query(
            "SELECT rowid FROM \(table) WHERE \(table) MATCH ? AND rowid <= ? ORDER BY rowid DESC LIMIT ?",
            inTitle, last, limit
        ) { try $0.int64("rowid") }
        if titled.count == limit {
            // There are at least `limit` below the bound, so reading up stops at the limit-th.
            titled = try db.query(
                "SELECT rowid FROM \(table) WHERE \(table) MATCH ? AND rowid <= ? LIMIT ?", inTitle, last,
                limit
            ) { try $0.int64("rowid") }
        } else {
            titled.reverse()
        }
        let titleMatches = titled.map { RankedMatch(id: $0, tier: .title) }
        guard !titleOnly, titled.count < limit else { return titleMatches }
        // Fewer than `limit` have every word in the title, so `titled` holds all of them.
        let seen = Set(titled)
        let others = try db.query(
            "SELECT rowid FROM \(table) WHERE \(table) MATCH ? AND rowid <= ? LIMIT ?", expression, last,
            limit + titled.count
        ) { try $0.int64("rowid") }
        return titleMatches
            + others.lazy.filter { !seen.contains($0) }.prefix(limit - titled.count).map {
                RankedMatch(id: $0, tier: .other)
            }
    }

    /// Completions as a person types: titles and names that start with what was typed (alphabetically, all
    /// kinds together), then titles with every word in them; each title once.
    func suggestions(_ db: Connection, _ typed: String, limit: Int) throws -> [SearchSuggestion] {
        guard let query = Query(typed) else { return [] }
        // Titles repeat (many songs called the same), so each index offers more than `limit`.
        let perKind = limit * 3
        var offered: [(index: LibraryStore.SearchIndex, match: RankedMatch, title: String)] = []
        var starts: [LibraryStore.SearchIndex: [RankedMatch]] = [:]
        for index in LibraryStore.SearchIndex.allCases {
            let found = try Self.titleStarts(db, query.titlePrefix, in: index, limit: perKind)
            starts[index] = found.map { RankedMatch(id: $0.id, tier: .titleStart) }
            for row in found {
                offered.append((index, RankedMatch(id: row.id, tier: .titleStart), row.title))
            }
        }
        // Title starts come first, so once they hold `limit` different titles nothing else can show (the
        // common case while a person types: three index ranges, no full-text search).
        let startTitles = Set(offered.lazy.map { $0.title.lowercased() })
        for index in LibraryStore.SearchIndex.allCases where startTitles.count < limit {
            let matches = try Self.moreMatches(
                db, query, in: index, after: starts[index] ?? [], limit: perKind, titleOnly: true)
            guard !matches.isEmpty else { continue }
            let titles = Dictionary(
                uniqueKeysWithValues: try db.query(
                    """
                    SELECT id, \(index.titleColumn) AS title FROM \(index.catalogTable)
                    WHERE id IN (SELECT value FROM json_each(?))
                    """, matches.map(\.id).jsonArray
                ) { (try $0.int64("id"), try $0.string("title")) })
            for match in matches {
                if let title = titles[match.id] { offered.append((index, match, title)) }
            }
        }
        // Title starts of every kind in alphabetical order, then the rest as each kind ranked them.
        let sorted = offered.enumerated().map { ($0.offset, $0.element, $0.element.title.lowercased()) }
            .sorted {
                if $0.1.match.tier != $1.1.match.tier { return $0.1.match.tier < $1.1.match.tier }
                if $0.1.match.tier == .titleStart, $0.2 != $1.2 { return $0.2 < $1.2 }
                return $0.0 < $1.0
            }
        var seen = Set<String>()
        var result: [SearchSuggestion] = []
        for (_, offer, key) in sorted where result.count < limit && seen.insert(key).inserted {
            result.append(
                SearchSuggestion(title: offer.title, type: offer.index.typeName, id: String(offer.match.id)))
        }
        return result
    }

    /// Adds counted clicks (`ViewerClicks`' writer for songs).
    func addClicks(_ db: Connection, _ counts: [Int64: Int]) throws {
        for (id, count) in counts {
            try db.execute("UPDATE songs SET clicks_count = clicks_count + ? WHERE id = ?", count, id)
        }
    }
}

extension LibraryStore.SearchIndex {
    /// The catalog table whose ids are this index's rowids.
    var catalogTable: String {
        switch self {
        case .song: "songs"
        case .album: "albums"
        case .artist: "artists"
        }
    }

    /// The column of `catalogTable` that the index's `title` column holds.
    var titleColumn: String { self == .artist ? "name" : "title" }
}

extension Array where Element == Int64 {
    /// The ids as a JSON array, for `json_each(?)` (JSONEncoder took longer than the statement).
    var jsonArray: String { "[" + map(String.init).joined(separator: ",") + "]" }

    /// `self` followed by the elements of `more` not already in it, at most `limit` in all.
    func appendingUnique(_ more: [Int64], limit: Int) -> [Int64] {
        var seen = Set(self)
        var result = Array(prefix(limit))
        for id in more where result.count < limit && seen.insert(id).inserted { result.append(id) }
        return result
    }
}
