import HTTPServer
import MusicCore

// Hand-written JSON for the models of long lists (a sheet of 1,000 songs): JSONEncoder spent about
// 20 µs a song. Keys in sorted order, nil values left out; CatalogJSONTests holds each to JSONEncoder's bytes.

extension UserSummary: JSONWritable {
    public func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.optional("icon", icon) { $0.string($1) }
            json.key("id")
            json.string(id)
            json.key("nickname")
            json.string(nickname)
        }
    }
}

extension Singer: JSONWritable {
    public func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("id")
            json.string(id)
            json.key("name")
            json.string(name)
            json.key("nickname")
            json.string(nickname)
        }
    }
}

extension ArtistSummary: JSONWritable {
    public func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("id")
            json.string(id)
            json.key("name")
            json.string(name)
        }
    }
}

extension AlbumSummary: JSONWritable {
    public func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.optional("icon", icon) { $0.string($1) }
            json.key("id")
            json.string(id)
            json.key("title")
            json.string(title)
        }
    }
}

extension Song: JSONWritable {
    public func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.optional("album", album) { $0.value($1) }
            json.key("artists")
            json.array(artists) { $0.value($1) }
            json.key("bitRate")
            json.int(bitRate)
            json.key("channels")
            json.int(channels)
            json.key("clicksCount")
            json.int(clicksCount)
            json.key("commentsCount")
            json.int(commentsCount)
            json.key("createdAt")
            json.string(createdAt)
            json.optional("discNumber", discNumber) { $0.int($1) }
            json.key("duration")
            json.int(duration)
            json.key("format")
            json.string(format)
            json.key("genres")
            json.array(genres) { $0.string($1) }
            json.optional("icon", icon) { $0.string($1) }
            json.key("id")
            json.string(id)
            json.optional("lyric", lyric) { $0.string($1) }
            json.key("playsCount")
            json.int(playsCount)
            json.key("sampleRate")
            json.int(sampleRate)
            json.optional("singer", singer) { $0.value($1) }
            json.key("style")
            json.int(style)
            json.key("title")
            json.string(title)
            json.optional("trackNumber", trackNumber) { $0.int($1) }
            json.key("updatedAt")
            json.string(updatedAt)
            json.key("uri")
            json.string(uri)
            json.optional("user", user) { $0.value($1) }
            json.optional("year", year) { $0.int($1) }
        }
    }
}

extension Sheet: JSONWritable {
    public var jsonSizeHint: Int { 1_024 + (songs?.count ?? 0) * 640 }

    public func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("clicksCount")
            json.int(clicksCount)
            json.optional("collected", collected) { $0.bool($1) }
            json.key("collectsCount")
            json.int(collectsCount)
            json.key("commentsCount")
            json.int(commentsCount)
            json.key("createdAt")
            json.string(createdAt)
            json.optional("detail", detail) { $0.string($1) }
            json.optional("icon", icon) { $0.string($1) }
            json.key("id")
            json.string(id)
            json.key("isPrivate")
            json.bool(isPrivate)
            json.key("kind")
            json.string(kind)
            json.optional("songs", songs) { json, songs in json.array(songs) { $0.value($1) } }
            json.key("songsCount")
            json.int(songsCount)
            json.key("tags")
            json.array(tags) { $0.string($1) }
            json.key("title")
            json.string(title)
            json.key("updatedAt")
            json.string(updatedAt)
            json.key("user")
            json.value(user)
        }
    }
}

extension JSONWriter {
    /// The keys a list envelope ends with, in sorted order (Page's and CursorPage's alike).
    fileprivate mutating func pageNumbers(page: Int, pages: Int, size: Int, total: Int) {
        key("page")
        int(page)
        key("pages")
        int(pages)
        key("size")
        int(size)
        key("total")
        int(total)
    }
}

extension Page: JSONWritable where T: JSONWritable {
    public var jsonSizeHint: Int { 256 + data.count * 768 }

    public func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("data")
            json.array(data) { $0.value($1) }
            // The list envelope always has "next", null on the last page.
            json.key("next")
            if let next { json.int(next) } else { json.null() }
            json.pageNumbers(page: page, pages: pages, size: size, total: total)
        }
    }
}

extension CursorPage: JSONWritable where Item: JSONWritable {
    public var jsonSizeHint: Int { 320 + data.count * 768 }

    public func writeJSON(to json: inout JSONWriter) {
        json.object { json in
            json.key("data")
            json.array(data) { $0.value($1) }
            // Like JSONEncoder's bytes of `CursorPage.encode`: "next" and "nextCursor" null at the end.
            json.key("next")
            if let next { json.int(next) } else { json.null() }
            json.key("nextCursor")
            if let nextCursor { json.string(nextCursor) } else { json.null() }
            json.pageNumbers(page: page, pages: pages, size: size, total: total)
        }
    }
}
