import Foundation

/// The limits of one fetch. The defaults suit documents (feeds, chapters, transcripts); `download` and
/// `stream` suit episodes.
public struct FetchLimits: Sendable, Equatable {
    /// The most body bytes (after decompression) taken; nil for no limit.
    public var maxBytes: Int64?
    /// Seconds to connect (DNS, TCP and TLS), per hop.
    public var connectTimeout: Double
    /// Seconds for the whole fetch, redirects included; nil for no limit.
    public var totalTimeout: Double?
    /// Less than `bytesPerSecond` arriving over `seconds` ends the fetch (time the reader holds it back does
    /// not count); nil for no such limit.
    public var lowSpeed: LowSpeed?
    /// Redirects followed, each checked like the first address.
    public var maxRedirects: Int

    public struct LowSpeed: Sendable, Equatable {
        public var bytesPerSecond: Int
        public var seconds: Double

        public init(bytesPerSecond: Int, seconds: Double) {
            self.bytesPerSecond = bytesPerSecond
            self.seconds = seconds
        }
    }

    public init(
        maxBytes: Int64?, connectTimeout: Double = 10, totalTimeout: Double?,
        lowSpeed: LowSpeed? = LowSpeed(bytesPerSecond: 1_000, seconds: 30), maxRedirects: Int = 5
    ) {
        self.maxBytes = maxBytes
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.lowSpeed = lowSpeed
        self.maxRedirects = maxRedirects
    }

    /// A feed or another document: 10 MB, 60 s.
    public static let document = FetchLimits(maxBytes: 10_000_000, totalTimeout: 60)
    /// An episode saved to the data folder: 2 GB, an hour.
    public static let download = FetchLimits(maxBytes: 2_000_000_000, totalTimeout: 3_600)
    /// An episode passed through to a listener: no size or total limit (it lasts as long as they listen).
    public static let stream = FetchLimits(maxBytes: nil, totalTimeout: nil)
}

/// What identifies the copy a caller already has, so that an unchanged document costs a 304 and no body.
public struct Validators: Sendable, Equatable, Codable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// A GET to make.
public struct FetchRequest: Sendable {
    public var url: URL
    /// What is fetched, for the messages of errors ("feed" gives "The feed is larger than 10 MB.").
    public var subject: String
    public var limits: FetchLimits
    /// Sent as If-None-Match and If-Modified-Since.
    public var validators: Validators?
    /// A Range header to forward ("bytes=1000-"), for passing an episode through; ignored unless valid.
    public var range: String?
    /// An If-Range header to forward with `range`.
    public var ifRange: String?
    /// The Accept header.
    public var accept: String?
    /// Ask for gzip, deflate, brotli or zstd (undone before the body is handed over, and counted after).
    /// Off for pass-through, where byte ranges must be of the file itself.
    public var compressed: Bool

    public init(
        _ url: URL, subject: String = "document", limits: FetchLimits = .document,
        validators: Validators? = nil,
        range: String? = nil, ifRange: String? = nil, accept: String? = nil, compressed: Bool = true
    ) {
        self.url = url
        self.subject = subject
        self.limits = limits
        self.validators = validators
        self.range = range
        self.ifRange = ifRange
        self.accept = accept
        self.compressed = compressed
    }

    /// What feed readers send: feed types first, then any XML or JSON.
    public static let feedTypes =
        "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, application/json;q=0.8, */*;q=0.5"

    /// A feed, conditional on the copy the caller has.
    public static func feed(_ url: URL, validators: Validators? = nil) -> FetchRequest {
        FetchRequest(url, subject: "feed", validators: validators, accept: feedTypes)
    }

    /// An episode's bytes for a listener, with their Range (and If-Range) forwarded.
    public static func stream(_ url: URL, range: String?, ifRange: String? = nil, subject: String = "episode")
        -> FetchRequest
    {
        FetchRequest(
            url, subject: subject, limits: .stream, range: range, ifRange: ifRange, compressed: false)
    }
}

/// The header fields of an answer, in order; names compare without case.
public struct HTTPFields: Sendable, Equatable, Sequence {
    public private(set) var fields: [(name: String, value: String)] = []

    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    public static func == (lhs: HTTPFields, rhs: HTTPFields) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    mutating func append(name: String, value: String) { fields.append((name, value)) }

    mutating func appendToLast(_ continuation: String) {
        guard let last = fields.indices.last else { return }
        fields[last].value += " " + continuation
    }

    /// The first value of `name`.
    public subscript(_ name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }
}

/// The head of the answer that ended a fetch (after redirects).
public struct FetchHead: Sendable, Equatable {
    public var status: Int
    public var headers: HTTPFields
    /// The address that answered.
    public var url: URL
    /// Where the address now lives when every redirect on the way was permanent (301 or 308): a feed's
    /// subscription should move there.
    public var movedTo: URL?

    /// True for 304: the caller's copy is current, and there is no body.
    public var notModified: Bool { status == 304 }

    /// The validators to send next time (those the caller sent, on a 304 that repeats none).
    public var validators: Validators {
        Validators(etag: headers["ETag"], lastModified: headers["Last-Modified"])
    }

    /// Bytes the body will have, when the server said.
    public var contentLength: Int64? { headers["Content-Length"].flatMap { Int64($0) } }

    /// The head to give a listener when passing an episode through: the origin's status and the fields a
    /// player needs, with a Content-Type that cannot run as a page on the server's origin (anything but
    /// audio, video and raster pictures becomes application/octet-stream), and nosniff.
    public var passThroughHeaders: [(name: String, value: String)] {
        var out: [(name: String, value: String)] = []
        let type = headers["Content-Type"].map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let lower = type.lowercased()
        let playable =
            (lower.hasPrefix("audio/") || lower.hasPrefix("video/") || lower.hasPrefix("image/"))
            && !lower.contains("svg") && !lower.contains("xml") && !lower.contains("html")
        out.append(("Content-Type", playable ? type : "application/octet-stream"))
        for name in ["Content-Length", "Content-Range", "Accept-Ranges", "ETag", "Last-Modified"] {
            if let value = headers[name] { out.append((name, value)) }
        }
        out.append(("X-Content-Type-Options", "nosniff"))
        return out
    }
}
