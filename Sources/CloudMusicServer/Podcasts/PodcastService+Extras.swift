import Foundation
import HTMLSanitizer
import MusicCore
import WebFeeds
import WebFetch

/// A podcast's picture, an episode's chapters and transcript, fetched from the addresses its feed gives (through the server's one
/// `Fetcher`, so the SSRF rules and limits hold), so that a listener's address never reaches the origin.
extension PodcastService {
    /// The most bytes of a chapters document or transcript taken.
    static let maxExtraBytes: Int64 = 2_000_000

    func chapters(episodeID: Int64) async throws -> EpisodeChapters {
        if let bookChapters { if let chapters = try bookChapters(episodeID) { return chapters } }
        guard let address = try episode(id: episodeID, viewer: nil).chaptersUrl,
            let url = URL(string: address)
        else { return EpisodeChapters(chapters: []) }
        let (data, _) = try await fetchExtra(url, subject: "chapters document")
        let parsed: [PodcastChapter]
        do {
            parsed = try PodcastChapters.parse(data, url: url)
        } catch let error as WebFeedError {
            throw ServiceError.unavailable(
                "The episode's chapters cannot be read: \(LocalizedText(verbatim: error.message))")
        }
        return EpisodeChapters(
            chapters: parsed.filter(\.listed).map {
                let link = $0.url.flatMap { ["http", "https"].contains($0.scheme?.lowercased()) ? $0 : nil }
                return EpisodeChapters.Chapter(
                    start: $0.start, end: $0.end, title: $0.title.map { String($0.prefix(500)) },
                    url: link?.absoluteString)
            })
    }

    func transcript(episodeID: Int64) async throws -> EpisodeTranscript {
        guard let address = try episode(id: episodeID, viewer: nil).transcriptUrl,
            let url = URL(string: address)
        else { return EpisodeTranscript(text: "") }
        let (data, type) = try await fetchExtra(url, subject: "transcript")
        if type?.lowercased().contains("html") == true {
            return EpisodeTranscript(text: HTMLSanitizer.plainText(String(decoding: data, as: UTF8.self)))
        }
        return EpisodeTranscript(text: PodcastTranscript.text(data, type: type))
    }

    /// The podcast's picture and its type; only raster pictures (an SVG could carry script).
    func cover(podcastID: Int64) async throws -> (data: Data, type: String) {
        guard let address = try podcast(id: podcastID, viewer: nil).imageUrl, let url = URL(string: address)
        else { throw ServiceError.notFound("That podcast has no picture.") }
        let (data, type) = try await fetchExtra(url, subject: "picture", maxBytes: 5_000_000)
        let kind = (type ?? "").lowercased().split(separator: ";").first.map(String.init) ?? ""
        guard ["image/jpeg", "image/png", "image/webp", "image/gif"].contains(kind) else {
            throw ServiceError.unavailable("The podcast's picture is not a JPEG, PNG, WebP or GIF image.")
        }
        return (data, kind)
    }

    private func fetchExtra(_ url: URL, subject: String, maxBytes: Int64 = maxExtraBytes) async throws -> (
        Data, String?
    ) {
        var limits = FetchLimits.document
        limits.maxBytes = maxBytes
        limits.totalTimeout = 20
        var data = Data()
        do {
            let head = try await fetcher.fetch(FetchRequest(url, subject: subject, limits: limits)) {
                data.append($0)
            }
            return (data, head.headers["Content-Type"])
        } catch let error as FetchError {
            let reason = LocalizedText(verbatim: error.message)
            switch subject {
            case "transcript":
                throw ServiceError.unavailable("The episode's transcript cannot be fetched: \(reason)")
            case "picture":
                throw ServiceError.unavailable("The podcast's picture cannot be fetched: \(reason)")
            default:
                throw ServiceError.unavailable("The episode's chapters cannot be fetched: \(reason)")
            }
        }
    }
}
