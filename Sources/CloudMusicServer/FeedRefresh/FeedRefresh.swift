import Foundation
import Logging
import MusicCore
import Synchronization
import WebFeeds
import WebFetch

/// What podcasts and news share to keep feeds fresh: the conditional GET read as it arrives, the back-off of
/// a failing feed, a bounded fan-out and the scheduler that checks what is due.
enum FeedRefresh {
    /// The longest a failing feed waits.
    static let maxBackoff: Int64 = 86_400

    /// The wait after the `failures`th failure in a row: the interval, doubling, at most a day (or the
    /// interval, when that is longer).
    static func backoff(interval: Int64, failures: Int) -> Int64 {
        let cap = max(interval, maxBackoff)
        var wait = max(interval, 60)
        for _ in 1..<max(1, failures) where wait < cap { wait *= 2 }
        return min(wait, cap)
    }

    /// A feed fetched with the validators of the copy held: nil `feed` for a 304.
    struct Fetched: Sendable {
        var head: FetchHead
        var feed: WebFeed?
    }

    /// Fetches a feed (conditional on `validators`) and reads it as it arrives, handing each item to `item`;
    /// a body past `maxBytes` or one that is not a feed throws, with its reason.
    static func fetch(
        _ url: URL, validators: Validators?, maxBytes: Int, with fetcher: Fetcher,
        item: @escaping (WebFeedItem) -> Void
    ) async throws -> Fetched {
        var request = FetchRequest.feed(url, validators: validators)
        request.limits.maxBytes = Int64(maxBytes)
        let response = try await fetcher.open(request)
        let head = response.head
        guard (200..<300).contains(head.status) || head.notModified else {
            response.body.cancel()
            throw FetchError(.status(head.status), url: head.url, subject: "feed")
        }
        if head.notModified { return Fetched(head: head, feed: nil) }
        let parser = WebFeedParser(url: head.url, limits: WebFeedLimits(maxBytes: maxBytes), onItem: item)
        do {
            for try await chunk in response.body { try parser.feed(chunk) }
        } catch {
            response.body.cancel()
            throw error
        }
        return Fetched(head: head, feed: try parser.finish())
    }

    /// `transform` of each element, at most `limit` at once, in the elements' order.
    static func boundedMap<T: Sendable, R: Sendable>(
        _ items: [T], limit: Int, _ transform: @escaping @Sendable (T) async -> R
    ) async -> [R] {
        await withTaskGroup(of: (Int, R).self) { group in
            var results = [R?](repeating: nil, count: items.count)
            var next = 0
            while next < min(limit, items.count) {
                let index = next
                group.addTask { (index, await transform(items[index])) }
                next += 1
            }
            while let (index, result) = await group.next() {
                results[index] = result
                if next < items.count {
                    let index = next
                    group.addTask { (index, await transform(items[index])) }
                    next += 1
                }
            }
            return results.map { $0! }
        }
    }
}

/// Runs `pass` (a refresh of what is due) every `pause` until stopped; `pass` answers a line to log, or nil
/// when nothing happened. Started by `serve`, stopped before it returns.
final class FeedRefreshScheduler: Sendable {
    private let name: String
    private let pause: Duration
    private let pass: @Sendable () async throws -> String?
    private let logger: Logger
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    init(name: String, pause: Duration, logger: Logger, pass: @escaping @Sendable () async throws -> String?)
    {
        self.name = name
        self.pause = pause
        self.logger = logger
        self.pass = pass
    }

    func start() {
        let (name, pause, pass, logger, finished) = (
            self.name, self.pause, self.pass, self.logger, self.finished
        )
        task.withLock { task in
            guard task == nil else { return }
            task = Task.detached {
                defer { finished.signal() }
                while !Task.isCancelled {
                    do {
                        if let line = try await pass() { logger.info("event=\(name)_refreshed \(line)") }
                    } catch {
                        logger.error("event=\(name)_schedule_failed error=\"\(error)\"")
                    }
                    try? await Task.sleep(for: pause)
                }
            }
        }
    }

    /// Stops checking and waits (at most `seconds`) for the refreshes under way.
    func stop(seconds: Double = 10) {
        guard
            let running = task.withLock({ task in
                defer { task = nil }
                return task
            })
        else { return }
        running.cancel()
        _ = finished.wait(timeout: .now() + seconds)
    }
}
