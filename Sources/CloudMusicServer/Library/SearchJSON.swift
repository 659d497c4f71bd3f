import HTTPServer
import MusicCore

// Hand-written JSON for searches and suggestions, as `Routing/CatalogJSON.swift` does for long lists: a search
// not asked in the last 30 s is built and encoded at every request, and JSONEncoder took about as long as
// the SQL (20 songs, 20 albums and 20 artists). Keys in sorted order, nil values left out; SearchJSONTests
// holds each to JSONEncoder's bytes.

extension SearchResults: JSONWritable {
    public var jsonSizeHint: Int { 256 + songs.count * 768 + (albums.count + artists.count) * 320 }

    public func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("albums")
            json.array(albums) { $0.value(SearchJSON.AlbumJSON(album: $1)) }
            json.key("artists")
            json.array(artists) { $0.value(SearchJSON.ArtistJSON(artist: $1)) }
            json.key("songs")
            json.array(songs) { $0.value($1) }
        }
    }
}

extension SearchSuggestion: JSONWritable {
    public var jsonSizeHint: Int { 128 }

    public func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("id")
            json.string(id)
            json.key("title")
            json.string(title)
            json.key("type")
            json.string(type)
        }
    }
}

/// Writers for the catalog models a search lists, kept to this file: they are not `JSONWritable` themselves,
/// so every other answer that holds an album or an artist is encoded as before.
enum SearchJSON {
    /// The JSON of a value that writes itself, as the bytes a prepared answer keeps.
    static func bytes<T: JSONWritable>(_ value: T) -> [UInt8] {
        var writer = JSONWriter(capacity: value.jsonSizeHint)
        value.writeJSON(to: &writer)
        return writer.bytes
    }

    struct AlbumJSON: JSONWritable {
        var album: Album

        func encode(to encoder: any Encoder) throws { try album.encode(to: encoder) }

        func writeJSON(to json: inout JSONWriter) {
            json.object { json in
                json.optional("artist", album.artist) { $0.value($1) }
                json.key("createdAt")
                json.string(album.createdAt)
                json.key("duration")
                json.int(album.duration)
                json.optional("icon", album.icon) { $0.string($1) }
                json.key("id")
                json.string(album.id)
                json.key("isCompilation")
                json.bool(album.isCompilation)
                json.optional("songs", album.songs) { json, songs in json.array(songs) { $0.value($1) } }
                json.key("songsCount")
                json.int(album.songsCount)
                json.key("title")
                json.string(album.title)
                json.key("updatedAt")
                json.string(album.updatedAt)
                json.optional("year", album.year) { $0.int($1) }
            }
        }
    }

    struct ArtistJSON: JSONWritable {
        var artist: Artist

        func encode(to encoder: any Encoder) throws { try artist.encode(to: encoder) }

        func writeJSON(to json: inout JSONWriter) {
            json.object { json in
                json.optional("albums", artist.albums) { json, albums in
                    json.array(albums) { $0.value(AlbumJSON(album: $1)) }
                }
                json.key("albumsCount")
                json.int(artist.albumsCount)
                json.key("createdAt")
                json.string(artist.createdAt)
                json.optional("icon", artist.icon) { $0.string($1) }
                json.key("id")
                json.string(artist.id)
                json.key("name")
                json.string(artist.name)
                json.optional("songs", artist.songs) { json, songs in json.array(songs) { $0.value($1) } }
                json.key("songsCount")
                json.int(artist.songsCount)
                json.key("updatedAt")
                json.string(artist.updatedAt)
            }
        }
    }
}
