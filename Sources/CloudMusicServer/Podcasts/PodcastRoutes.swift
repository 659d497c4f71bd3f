import Foundation
import HTTPServer
import MusicCore
import Synchronization
import WebFetch

/// The handlers of `PodcastsAPI`.
struct PodcastRoutes {
    let podcasts: PodcastService
    let files: FileRoots
    /// Pictures fetched from the feeds' addresses, by podcast, for an hour.
    let covers = ExpiringCache<Int64, PreparedPicture>(capacity: 500)
    /// An audiobook's cover from its files (`AudiobookRoutes`); nil for a feed's podcast.
    var bookCover: (@Sendable (Int64, Int, Request) throws -> Response?)?

    struct PreparedPicture: Sendable {
        var data: Data
        var type: String
    }

    func register(on api: EndpointRouter) {
        api.on(PodcastsAPI.list) { call in try podcasts.podcasts(query: call.query, viewer: call.caller) }
        api.on(PodcastsAPI.categories) { _ in try podcasts.categories() }
        api.on(PodcastsAPI.detail) { call in
            try podcasts.podcast(id: call.path.id.rawValue, viewer: call.caller)
        }
        api.on(PodcastsAPI.cover) { [covers, bookCover] call in
            let id = call.path.id.rawValue
            if let bookCover, let response = try bookCover(id, call.query.size, call.request) {
                return response
            }
            let picture = try covers.value(id, serveStale: false) { [podcasts] in
                let (data, type) = try waitFor { try await podcasts.cover(podcastID: id) }
                return (PreparedPicture(data: data, type: type), Date().timeIntervalSince1970 + 3_600)
            }
            var response = Response.raw(picture.data, contentType: picture.type)
            response.headers.add("Cache-Control", "public, max-age=3600")
            return response
        }
        api.on(PodcastsAPI.episodes) { call in
            try podcasts.episodes(podcastID: call.path.id.rawValue, query: call.query, viewer: call.caller)
        }
        api.on(PodcastsAPI.add) { call in
            try waitFor { [podcasts] in try await podcasts.add(call.body) }
        }
        api.on(PodcastsAPI.importOPML) { call in
            try waitFor { [podcasts] in try await podcasts.importOPML(call.body.text) }
        }
        api.on(PodcastsAPI.update) { call in
            try waitFor { [podcasts] in
                try await podcasts.update(id: call.path.id.rawValue, settings: call.body)
            }
        }
        api.on(PodcastsAPI.delete) { call in
            try podcasts.delete(id: call.path.id.rawValue)
            return Done()
        }
        api.on(PodcastsAPI.refresh) { call in
            try waitFor { [podcasts] in
                try await podcasts.refresh(id: call.path.id.rawValue)
                return try podcasts.podcast(id: call.path.id.rawValue, viewer: nil)
            }
        }
        api.on(PodcastsAPI.refreshAll) { _ in try waitFor { [podcasts] in try await podcasts.refreshAll() } }
        api.on(PodcastsAPI.subscribe) { call in
            try podcasts.subscribe(podcastID: call.path.id.rawValue, viewer: call.caller, true)
        }
        api.on(PodcastsAPI.unsubscribe) { call in
            try podcasts.subscribe(podcastID: call.path.id.rawValue, viewer: call.caller, false)
        }
        api.on(PodcastsAPI.subscriptions) { call in
            try podcasts.subscriptions(paging: call.query.paging, viewer: call.caller)
        }
        api.on(PodcastsAPI.newEpisodes) { call in
            try podcasts.newEpisodes(paging: call.query.paging, viewer: call.caller)
        }
        api.on(PodcastsAPI.continueListening) { call in
            try podcasts.continueListening(paging: call.query.paging, viewer: call.caller)
        }
        api.on(PodcastsAPI.searchEpisodes) { call in
            try podcasts.searchEpisodes(query: call.query, viewer: call.caller)
        }
        api.on(PodcastsAPI.episode) { call in
            try podcasts.episode(id: call.path.id.rawValue, viewer: call.caller)
        }
        api.on(PodcastsAPI.progress) { call in
            try podcasts.progress(episodeID: call.path.id.rawValue, viewer: call.caller)
        }
        api.on(PodcastsAPI.saveProgress) { call in
            try podcasts.saveProgress(episodeID: call.path.id.rawValue, draft: call.body, viewer: call.caller)
        }
        api.on(PodcastsAPI.chapters) { call in
            try waitFor { [podcasts] in try await podcasts.chapters(episodeID: call.path.id.rawValue) }
        }
        api.on(PodcastsAPI.transcript) { call in
            try waitFor { [podcasts] in try await podcasts.transcript(episodeID: call.path.id.rawValue) }
        }
        api.on(PodcastsAPI.stream) { call in
            try audio(episodeID: call.path.id.rawValue, request: call.request)
        }
    }

    /// An episode's audio: its download, or its origin's answer passed through (Subsonic's stream too).
    func audio(episodeID: Int64, request: Request) throws -> Response {
        switch try podcasts.audio(episodeID: episodeID) {
        case .file(let path):
            return try .storedFile(at: path, in: files, request: request)
        case .origin(let url):
            return try passThrough(url, request: request)
        }
    }

    /// The origin's answer to the listener's Range, passed on as it comes (status, the headers a player needs,
    /// a Content-Type that cannot run as a page here); the origin's transfer stops when the listener leaves.
    private func passThrough(_ url: URL, request: Request) throws -> Response {
        let fetcher = podcasts.fetcher
        let upstream = FetchRequest.stream(
            url, range: request.headers["Range"], ifRange: request.headers["If-Range"])
        let response: FetchResponse
        do {
            response = try waitFor { try await fetcher.open(upstream) }
        } catch let error as FetchError {
            throw ServiceError.unavailable(
                "The episode's audio cannot be fetched: \(LocalizedText(verbatim: error.message))")
        }
        let head = response.head
        guard (200..<300).contains(head.status) else {
            response.body.cancel()
            if head.status == 416 {
                throw ServiceError(.outsideRange, "The range asked for lies outside the episode's audio.")
            }
            throw ServiceError.unavailable(
                "The episode's audio cannot be fetched: its server answered \(head.status).")
        }
        var headers = HTTPHeaders()
        // The body goes out chunked: the origin's length would contradict it.
        for (name, value) in head.passThroughHeaders where name != "Content-Length" {
            headers.add(name, value)
        }
        let body = response.body
        guard request.method != .HEAD else {
            body.cancel()
            return Response(status: head.status, headers: headers, body: .empty)
        }
        return .stream(contentType: "application/octet-stream", status: head.status, headers: headers) {
            writer in
            do {
                for try await chunk in body { try await writer.write(chunk) }
            } catch {
                body.cancel()
                throw error
            }
        }
    }
}

/// Runs `work` to its end from a handler's thread (libmicrohttpd's, not the cooperative pool's), for the few
/// handlers that fetch from the internet before they answer.
func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome: Result<T, any Error>
        do { outcome = .success(try await work()) } catch { outcome = .failure(error) }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}
