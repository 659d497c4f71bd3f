import Foundation
import HTTPServer
import MusicCore

/// The handlers of `AudiobooksAPI`; the books' album pages, parts, progress and streams are `PodcastRoutes`'.
struct AudiobookRoutes {
    let audiobooks: AudiobookService
    let media: MediaService
    let files: FileRoots

    func register(on api: EndpointRouter) {
        api.on(AudiobooksAPI.cover) { call in
            guard let response = try cover(bookID: call.path.id.rawValue, size: call.query.size, call.request)
            else {
                throw AudiobookService.noBook
            }
            return response
        }
        api.on(AudiobooksAPI.chapters) { call in try audiobooks.chapters(partID: call.path.id.rawValue) }
        api.on(AudiobooksAPI.scan) { _ in try audiobooks.scan() }
        api.on(AudiobooksAPI.deleted) { _ in try audiobooks.deletedBooks() }
        api.on(AudiobooksAPI.restore) { call in try audiobooks.restore(deletionID: call.path.id.rawValue) }
    }

    /// The book's cover picture (resized when asked), else the one embedded in its parts; nil when `bookID` is
    /// no book.
    func cover(bookID: Int64, size: Int, _ request: Request) throws -> Response? {
        guard let sources = try audiobooks.coverSources(bookID: bookID) else { return nil }
        guard
            let path = try media.albumCover(
                albumID: bookID, sources: (sources.picture, sources.parts), size: size)
        else { throw ServiceError.notFound("That audiobook has no cover.") }
        var response = try Response.storedFile(at: path, in: files, request: request)
        response.headers.add("Cache-Control", "public, max-age=3600")
        return response
    }
}
