import AudioMetadata

/// One full-text table per kind, keyed by the song, album or artist id: a search for albums
/// never walks past song matches, and the artist index stays tiny. Owned by Library (`LibraryStore` writes the
/// tables, `CatalogStore` searches them); the Subsonic side names an index in what it keeps per generation.
enum CatalogSearchIndex: String, CaseIterable {
    case song = "search_songs"
    case album = "search_albums"
    case artist = "search_artists"
    var table: String { rawValue }
    var typeName: String {
        switch self {
        case .song: "song"
        case .album: "album"
        case .artist: "artist"
        }
    }
}

/// How the library keys an artist's or a genre's name (`name_key`): trimmed and lowercased.
enum CatalogName {
    static func key(_ name: String) -> String {
        AudioFileReader.trimmed(name).lowercased()
    }
}
