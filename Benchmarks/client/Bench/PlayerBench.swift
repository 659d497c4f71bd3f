import CloudMusicKit
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// play-latency: time from `load(autoplay:)` of a song streamed from a local server to `.state(.playing)` and to
/// the first progress event past 0, and the memory of a running player (before it, while it plays, and after a
/// stretch of continuous playing through the library with gapless next items).
///
///   client-bench play-latency --base-url http://127.0.0.1:PORT/ [--runs 100] [--soak 60] [--ao null]
enum PlayerBench {
    static func run(_ arguments: [String]) async throws {
        var baseURL: URL?
        var runs = 100
        var soak = 60.0
        var output = MPVConfiguration.AudioOutput.null
        var index = 0
        while index < arguments.count {
            let value = index + 1 < arguments.count ? arguments[index + 1] : ""
            switch arguments[index] {
            case "--base-url": baseURL = URL(string: value)
            case "--runs": runs = max(1, Int(value) ?? runs)
            case "--soak": soak = max(0, Double(value) ?? soak)
            case "--ao": output = MPVConfiguration.AudioOutput(rawValue: value) ?? output
            default: throw BenchError("unknown option \(arguments[index])")
            }
            index += 2
        }
        guard let baseURL else { throw BenchError("--base-url is required") }

        let songs = try await streamURLs(baseURL)
        guard !songs.isEmpty else { throw BenchError("the server has no songs") }
        let rssBefore = residentKB()

        let player = try MPVPlayer(configuration: MPVConfiguration(audioOutput: output, progressRate: 20))
        let log = TimedLog(player.events())
        var toPlaying: [Double] = []
        var toProgress: [Double] = []
        var toMoving: [Double] = []
        var failures = 0
        for run in 0..<runs {
            let song = songs[run % songs.count]
            let item = PlayableItem(id: "\(song.id)#\(run)", url: song.url, title: song.title)
            let mark = log.count
            let start = ContinuousClock.now
            await player.load(item, startAt: 0, autoplay: true)
            let outcome = try await log.wait(from: mark, seconds: 20) { event in
                switch event {
                case .progress(let p): p.itemID == item.id && p.position > 0
                case .failed(let id, _): id == item.id
                default: false
                }
            }
            if case .failed = outcome.event {
                failures += 1
                continue
            }
            toProgress.append(milliseconds(outcome.at - start))
            if let playing = log.first(from: mark, where: { $0 == .state(.playing) }) {
                toPlaying.append(milliseconds(playing - start))
            }
            // The first progress comes as playback starts (a position just past 0); this is audio clearly moving.
            if let moving = try? await log.wait(
                from: mark, seconds: 20,
                {
                    if case .progress(let p) = $0 { p.itemID == item.id && p.position >= 0.1 } else { false }
                })
            {
                toMoving.append(milliseconds(moving.at - start))
            }
        }
        try await Task.sleep(for: .seconds(1))
        let rssPlaying = residentKB()

        // Continuous playing: the first song, then each next one queued for a gapless move, as a list manager does.
        var rssSamples: [Int] = []
        var advances = 0
        var ends = 0
        var position = 0
        func item(_ n: Int) -> PlayableItem {
            let song = songs[n % songs.count]
            return PlayableItem(id: "soak-\(n)", url: song.url, title: song.title)
        }
        _ = log.drain()
        await player.load(item(0), startAt: 0, autoplay: true)
        await player.setNext(item(1))
        let soakStart = ContinuousClock.now
        var nextSample = soakStart + .seconds(5)
        while ContinuousClock.now - soakStart < .seconds(soak) {
            try await Task.sleep(for: .milliseconds(50))
            // Taken out of the log, so that the bench's own memory stays flat and the RSS is the player's.
            let events = log.drain()
            for event in events {
                switch event {
                case .advanced:
                    advances += 1
                    position += 1
                    await player.setNext(item(position + 1))
                case .ended, .failed:
                    if case .ended = event { ends += 1 } else { failures += 1 }
                    position += 1
                    await player.load(item(position), startAt: 0, autoplay: true)
                    await player.setNext(item(position + 1))
                default: break
                }
            }
            if ContinuousClock.now >= nextSample {
                rssSamples.append(residentKB())
                nextSample = nextSample + .seconds(5)
            }
        }
        let rssAfter = residentKB()
        player.shutdown()

        let result: [String: Any] = [
            "benchmark": "play-latency", "runs": runs, "failures": failures, "songs": songs.count,
            "firstProgressMs": summary(toProgress), "playingMs": summary(toPlaying),
            "position100msMs": summary(toMoving),
            "rssKB": [
                "beforePlayer": rssBefore, "playing": rssPlaying, "afterSoak": rssAfter,
                "soakSamples": rssSamples,
            ],
            "soakSeconds": soak, "soakAdvances": advances, "soakEnds": ends,
        ]
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    struct Song {
        var id: String
        var title: String
        var url: URL
    }

    /// The songs' stream URLs: each song's `uri` is relative to the server root.
    static func streamURLs(_ base: URL) async throws -> [Song] {
        var components = URLComponents(
            url: base.appendingPathComponent("v1/songs"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "size", value: "100")]
        let (data, _) = try await URLSession.shared.data(from: components.url!)
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let list = (json?["data"] as? [String: Any])?["data"] as? [[String: Any]] ?? []
        return list.compactMap { song in
            guard let uri = song["uri"] as? String, let url = URL(string: uri, relativeTo: base)?.absoluteURL
            else {
                return nil
            }
            return Song(id: "\(song["id"] ?? "")", title: song["title"] as? String ?? "", url: url)
        }
    }

    static func summary(_ values: [Double]) -> [String: Double] {
        guard !values.isEmpty else { return [:] }
        let sorted = values.sorted()
        func at(_ q: Double) -> Double {
            (sorted[min(sorted.count - 1, max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))] * 10)
                .rounded() / 10
        }
        return ["p50": at(0.5), "p95": at(0.95), "p99": at(0.99), "max": at(1), "min": at(0)]
    }

    static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    /// VmRSS of this process, in KiB.
    static func residentKB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return -1
        }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
        }
        return -1
    }
}

/// The player's events, each stamped with the moment it arrived.
final class TimedLog: @unchecked Sendable {
    // @unchecked: `recorded` is only touched under `lock`.
    private let lock = NSLock()
    private var recorded: [(event: PlayerEvent, at: ContinuousClock.Instant)] = []

    init(_ stream: AsyncStream<PlayerEvent>) {
        Task.detached { [self] in
            for await event in stream {
                let now = ContinuousClock.now
                lock.withLock { recorded.append((event, now)) }
            }
        }
    }

    var count: Int { lock.withLock { recorded.count } }

    /// Everything recorded so far, which the log then forgets.
    func drain() -> [PlayerEvent] {
        lock.withLock {
            defer { recorded.removeAll() }
            return recorded.map(\.event)
        }
    }

    func first(from start: Int, where match: (PlayerEvent) -> Bool) -> ContinuousClock.Instant? {
        lock.withLock { recorded[start...].first { match($0.event) }?.at }
    }

    /// The first event from `start` on that matches, waiting for it at most `seconds`.
    func wait(from start: Int, seconds: Double, _ match: (PlayerEvent) -> Bool) async throws -> (
        event: PlayerEvent, at: ContinuousClock.Instant
    ) {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if let hit = lock.withLock({ recorded[start...].first { match($0.event) } }) { return hit }
            try await Task.sleep(for: .milliseconds(2))
        }
        throw BenchError("no matching player event within \(seconds) s")
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
