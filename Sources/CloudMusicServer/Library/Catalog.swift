import MusicCore
import Storage

/// The catalog as other features read it, on the caller's connection (inside its transaction): each is
/// `CatalogStore`'s query as it is, so a list costs the queries it did; `CatalogStore` stays inside Library.
/// Its rows (`songRows`, `albumRows`, `artistRows`, with `Annotations`) are what both APIs answer from.
struct Catalog: Sendable {
    typealias Annotations = CatalogStore.Annotations
    typealias SongRow = CatalogStore.SongRow
    typealias AlbumRow = CatalogStore.AlbumRow
    typealias ArtistRow = CatalogStore.ArtistRow
    typealias SongFile = CatalogStore.SongFile

    private let store = CatalogStore()

    /// How many matches a search ranks and counts at most (sheets' search follows songs').
    static let rankedCandidates = CatalogStore.rankedCandidates

    /// The songs of these ids as models, in the list's order (repeats included).
    func songs(_ db: Connection, ids: [Int64]) throws -> [Song] {
        try store.songs(db, ids: ids)
    }

    func songExists(_ db: Connection, id: Int64) throws -> Bool {
        try store.songExists(db, id: id)
    }

    /// The ids of the list that are no song.
    func unknownSongs(_ db: Connection, ids: [Int64]) throws -> [Int64] {
        try store.unknownSongs(db, ids: ids)
    }

    /// The song a playlist's entry names, if any.
    func songID(_ db: Connection, matching entry: M3U.Entry) throws -> Int64? {
        try store.songID(db, matching: entry)
    }

    /// A page of albums.
    func albums(_ db: Connection, artistID: Int64?, sort: CatalogSort, paging: Paging) throws -> Page<Album> {
        try store.albums(db, artistID: artistID, sort: sort, paging: paging)
    }

    /// The ids a search finds in one index, ranked, a slice of them.
    func searchIDs(_ db: Connection, _ typed: String, in index: CatalogSearchIndex, offset: Int, limit: Int)
        throws -> [Int64]
    {
        try store.searchIDs(db, typed, in: index, offset: offset, limit: limit)
    }

    /// Songs for a FROM-clause tail, with `annotations`' plays, star and rating (`CatalogStore.songRows`).
    func songRows(
        _ db: Connection, _ tail: String, _ arguments: [any SQLBindable], annotations: Annotations? = nil
    ) throws -> [SongRow] {
        try store.songRows(db, tail, arguments, annotations: annotations)
    }

    /// Albums for a FROM-clause tail (`CatalogStore.albumRows`).
    func albumRows(
        _ db: Connection, _ tail: String, _ arguments: [any SQLBindable], annotations: Annotations? = nil,
        musicBrainzID: Bool = false
    ) throws -> [AlbumRow] {
        try store.albumRows(db, tail, arguments, annotations: annotations, musicBrainzID: musicBrainzID)
    }

    /// Artists for a FROM-clause tail (`CatalogStore.artistRows`).
    func artistRows(
        _ db: Connection, _ tail: String, _ arguments: [any SQLBindable], annotations: Annotations? = nil
    ) throws -> [ArtistRow] {
        try store.artistRows(db, tail, arguments, annotations: annotations)
    }

    /// `db.query`, with the columns `columns` finds by name looked up on the first row only.
    static func query<Columns, T>(
        _ db: Connection, _ sql: String, _ arguments: [any SQLBindable], columns: (Row) throws -> Columns,
        decode: (Row, Columns) throws -> T
    ) throws -> [T] {
        try CatalogStore.query(db, sql, arguments, columns: columns, decode: decode)
    }
}
