import Foundation

/// What one request collects between libmicrohttpd's calls.
///
/// Not `Sendable`, and needs not be: libmicrohttpd hands it from call to call as the request's pointer, and calls
/// one connection on one thread at a time.
final class RequestState {
    enum BodyKind { case none, buffered, urlencoded, multipart }

    let start: UInt64
    /// Whether MHD has called the access handler for this request yet.
    var started = false
    var method: HTTPMethod = .GET
    /// The request's method as sent, when it is not one of `HTTPMethod`'s.
    var unknownMethod: String?
    var rawPath = ""
    /// The raw query string (after "?"), taken from MHD before it parsed it; nil when there is none.
    var query: String?
    /// The request target's length in bytes, query included.
    var targetBytes = 0
    /// Why the request line is refused (too many query parameters, too long an address).
    var targetError: HTTPError?
    var address = ""
    var route = ""
    var kind = BodyKind.none
    var contentType: String?
    var limit = 0
    var received = 0
    var buffer = Data()
    var rejected: HTTPError?
    var multipart: MultipartState?
    var queued = false
    var status = 0
    var bytes = 0
    var writer: StreamWriter?
    /// The request said HTTP/1.0 (no chunked bodies).
    var http10 = false
    /// The push stream this request became.
    var pushed: PushStream?

    init(start: UInt64) { self.start = start }

    /// The method as sent.
    var methodName: String { unknownMethod ?? method.rawValue }
}
