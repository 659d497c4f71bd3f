import Foundation
import Synchronization

/// Request counters and latency histograms, rendered in the Prometheus text format 0.0.4.
public final class Metrics: Sendable {
    static let bounds: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    struct CounterKey: Hashable {
        /// A method's name, or "OTHER" for methods the server doesn't know (clients choose those freely).
        let method: String
        let route: String
        let status: Int
    }

    struct Histogram {
        var buckets = [UInt64](repeating: 0, count: Metrics.bounds.count)
        var sum = 0.0
        var count: UInt64 = 0

        mutating func add(bucket: Int, seconds: Double) {
            if bucket < buckets.count { buckets[bucket] += 1 }
            sum += seconds
            count += 1
        }

        mutating func merge(_ other: Histogram) {
            for i in buckets.indices { buckets[i] += other.buckets[i] }
            sum += other.sum
            count += other.count
        }
    }

    struct State {
        var counters: [CounterKey: UInt64] = [:]
        var histograms: [String: Histogram] = [:]
    }

    /// Each worker thread records into its own shard (picked from the thread's id), so two threads
    /// answering at once do not wait on one lock; `render` adds the shards up.
    private final class Shard: Sendable {
        let state = Mutex(State())
    }
    private let shards = (0..<8).map { _ in Shard() }

    private var shard: Shard {
        shards[
            Int(
                truncatingIfNeeded: (UInt(bitPattern: Int(bitPattern: pthread_self()))
                    &* 0x9E37_79B9_7F4A_7C15) >> 61)]
    }

    let openConnections = Atomic<Int>(0)
    let openPushStreams = Atomic<Int>(0)
    let bytesSent = Atomic<Int>(0)

    public init() {}

    func record(method: String, route: String, status: Int, seconds: Double, bytes: Int) {
        var bucket = Metrics.bounds.count
        for (i, b) in Metrics.bounds.enumerated() where seconds <= b {
            bucket = i
            break
        }
        bytesSent.add(bytes, ordering: .relaxed)
        shard.state.withLock { s in
            s.counters[CounterKey(method: method, route: route, status: status), default: 0] += 1
            s.histograms[route, default: Histogram()].add(bucket: bucket, seconds: seconds)
        }
    }

    /// How many requests have been answered for `route` (every method and status).
    public func requestCount(route: String) -> Int {
        snapshot().counters.reduce(0) { $1.key.route == route ? $0 + Int($1.value) : $0 }
    }

    private func snapshot() -> State {
        var total = State()
        for shard in shards {
            let s = shard.state.withLock { $0 }
            total.counters.merge(s.counters, uniquingKeysWith: +)
            total.histograms.merge(s.histograms) { a, b in
                var a = a
                a.merge(b)
                return a
            }
        }
        return total
    }

    /// The metrics as Prometheus text.
    public func render() -> String {
        let s = snapshot()
        var out = ""
        out += "# HELP http_requests_total Requests answered, by method, route and status.\n"
        out += "# TYPE http_requests_total counter\n"
        for (k, v) in s.counters.sorted(by: {
            ($0.key.route, $0.key.method, $0.key.status) < ($1.key.route, $1.key.method, $1.key.status)
        }) {
            out +=
                "http_requests_total{method=\"\(k.method)\",route=\"\(escapeLabel(k.route))\",status=\"\(k.status)\"} \(v)\n"
        }
        out +=
            "# HELP http_request_duration_seconds Time from request headers to the last byte sent, by route.\n"
        out += "# TYPE http_request_duration_seconds histogram\n"
        for (route, h) in s.histograms.sorted(by: { $0.key < $1.key }) {
            let r = escapeLabel(route)
            var cumulative: UInt64 = 0
            for (i, b) in Metrics.bounds.enumerated() {
                cumulative += h.buckets[i]
                out += "http_request_duration_seconds_bucket{route=\"\(r)\",le=\"\(b)\"} \(cumulative)\n"
            }
            out += "http_request_duration_seconds_bucket{route=\"\(r)\",le=\"+Inf\"} \(h.count)\n"
            out += "http_request_duration_seconds_sum{route=\"\(r)\"} \(h.sum)\n"
            out += "http_request_duration_seconds_count{route=\"\(r)\"} \(h.count)\n"
        }
        out += "# HELP http_open_connections Connections open now.\n"
        out += "# TYPE http_open_connections gauge\n"
        out += "http_open_connections \(openConnections.load(ordering: .relaxed))\n"
        out +=
            "# HELP http_open_push_streams Streams (event streams) open now, held outside the connections above.\n"
        out += "# TYPE http_open_push_streams gauge\n"
        out += "http_open_push_streams \(openPushStreams.load(ordering: .relaxed))\n"
        out += "# HELP http_bytes_sent_total Response body bytes sent.\n"
        out += "# TYPE http_bytes_sent_total counter\n"
        out += "http_bytes_sent_total \(bytesSent.load(ordering: .relaxed))\n"
        return out
    }
}

private func escapeLabel(_ s: String) -> String {
    guard s.contains(where: { $0 == "\\" || $0 == "\"" || $0 == "\n" }) else { return s }
    return s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        .replacingOccurrences(of: "\n", with: "\\n")
}
