import CCurl
import Foundation

/// One hop of a fetch: a libcurl easy handle and what its callbacks learn.
///
/// `@unchecked Sendable`: it is made on the caller's thread and from then on touched only on the transfer
/// loop's thread (libcurl calls its callbacks there); the reader talks to it through its `BodyChannel`.
final class CurlTransfer: @unchecked Sendable {
    /// A redirect's own body is read (so its connection can be used again) up to this, then cut.
    static let redirectBodyLimit = 64 << 10

    let id: UInt64
    let url: URL
    let request: FetchRequest
    let rules: AddressRules
    let userAgent: String
    let maxHeaderBytes: Int
    let channel: BodyChannel
    /// A redirect's next hop goes before transfers that have not started.
    let urgent: Bool
    /// The fetch's total time still to spend (nil: no limit). Time the reader holds the transfer paused is
    /// not spent: the limit is on the origin's slowness, not on a busy machine's.
    private(set) var timeLeft: Duration?
    private var startedAt = ContinuousClock.now
    private var pausedAt: ContinuousClock.Instant?
    private var pausedFor = Duration.zero

    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))

    private var headers = HTTPFields()
    private var headerBytes = 0
    private var status = 0
    private var headDelivered = false
    private var isRedirect = false
    private var redirectBodyBytes = 0
    private var bodyBytes: Int64 = 0
    /// Everything received, head included, for the low-speed check.
    private(set) var receivedBytes: Int64 = 0
    private var refused: (IPAddress, AddressRules.Restriction)?
    /// Why a callback stopped the transfer.
    private var abortReason: FetchError.Reason?
    /// Paused because the reader is behind: the low-speed check waits.
    var pausedForReader = false
    var speedWindowStart = ContinuousClock.now
    var speedWindowBytes: Int64 = 0

    init(
        id: UInt64, url: URL, request: FetchRequest, rules: AddressRules, userAgent: String,
        maxHeaderBytes: Int,
        timeLeft: Duration?, urgent: Bool, channel: BodyChannel
    ) {
        self.id = id
        self.url = url
        self.request = request
        self.rules = rules
        self.userAgent = userAgent
        self.maxHeaderBytes = maxHeaderBytes
        self.timeLeft = timeLeft
        self.urgent = urgent
        self.channel = channel
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        if let easy { curl_easy_cleanup(easy) }
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    private func error(_ reason: FetchError.Reason) -> FetchError {
        FetchError(reason, url: url, subject: request.subject)
    }

    /// Makes the easy handle; nil (with the channel finished) when the fetch cannot start.
    func prepare(now: ContinuousClock.Instant) -> UnsafeMutableRawPointer? {
        let limits = request.limits
        if let timeLeft, timeLeft <= .zero {
            channel.finish(error(.timeout(seconds: limits.totalTimeout ?? 0)))
            return nil
        }
        guard let easy = curl_easy_init() else {
            channel.finish(error(.connectionFailed("libcurl could not start a transfer")))
            return nil
        }
        self.easy = easy
        startedAt = now
        speedWindowStart = now
        let me = Unmanaged.passUnretained(self).toOpaque()
        func text(_ option: CURLoption, _ value: String) { _ = cm_curl_set_pointer(easy, option, value) }
        func number(_ option: CURLoption, _ value: Int) { _ = cm_curl_set_long(easy, option, value) }

        text(CURLOPT_URL, url.absoluteString)
        text(CURLOPT_PROTOCOLS_STR, "http,https")
        text(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // Redirects are followed by the fetcher, hop by hop, so that each is checked.
        number(CURLOPT_FOLLOWLOCATION, 0)
        // No proxy from the environment: the address checked must be the one connected to.
        text(CURLOPT_PROXY, "")
        number(CURLOPT_NOSIGNAL, 1)
        number(CURLOPT_TCP_KEEPALIVE, 1)
        number(CURLOPT_BUFFERSIZE, 64 << 10)
        number(CURLOPT_CONNECTTIMEOUT_MS, Int(limits.connectTimeout * 1000))
        // Refuses at once a body whose announced length is too large; `write` counts what really comes.
        if let maxBytes = limits.maxBytes {
            _ = cm_curl_set_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maxBytes))
        }
        if request.compressed { text(CURLOPT_ACCEPT_ENCODING, "") }
        text(CURLOPT_USERAGENT, userAgent)
        for line in requestHeaderLines() { headerList = curl_slist_append(headerList, line) }
        _ = cm_curl_set_pointer(easy, CURLOPT_HTTPHEADER, headerList)
        _ = cm_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = cm_curl_set_write_function(easy, CURLOPT_HEADERFUNCTION, headerCallback)
        _ = cm_curl_set_pointer(easy, CURLOPT_HEADERDATA, me)
        _ = cm_curl_set_write_function(easy, CURLOPT_WRITEFUNCTION, writeCallback)
        _ = cm_curl_set_pointer(easy, CURLOPT_WRITEDATA, me)
        _ = cm_curl_set_open_socket_function(easy, openSocketCallback)
        _ = cm_curl_set_pointer(easy, CURLOPT_OPENSOCKETDATA, me)
        return easy
    }

    /// The request's own header lines; a value holding a line break or NUL (a stored ETag that was tampered
    /// with) is left out rather than let it add headers.
    private func requestHeaderLines() -> [String] {
        var lines: [String] = []
        func add(_ name: String, _ value: String?) {
            guard let value, !value.isEmpty, value.count <= 1024,
                !value.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7f })
            else { return }
            lines.append("\(name): \(value)")
        }
        add("Accept", request.accept)
        add("If-None-Match", request.validators?.etag)
        add("If-Modified-Since", request.validators?.lastModified)
        if let range = request.range, Self.isByteRange(range) {
            add("Range", range)
            add("If-Range", request.ifRange)
        }
        return lines
    }

    /// `bytes=0-`, `bytes=100-199`, `bytes=-500` and lists of them: the only Range worth forwarding.
    static func isByteRange(_ value: String) -> Bool {
        guard value.count <= 256, value.hasPrefix("bytes=") else { return false }
        let specs = value.dropFirst("bytes=".count).split(separator: ",", omittingEmptySubsequences: false)
        return !specs.isEmpty
            && specs.allSatisfy { spec in
                let parts = spec.trimmingCharacters(in: .whitespaces).split(
                    separator: "-", omittingEmptySubsequences: false)
                return parts.count == 2 && !(parts[0].isEmpty && parts[1].isEmpty)
                    && parts.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isNumber } }
            }
    }

    // MARK: Time

    /// The reader has caught up: the transfer goes on, and the time it waited is not counted.
    func resumed(at now: ContinuousClock.Instant) {
        pausedForReader = false
        if let pausedAt { pausedFor += pausedAt.duration(to: now) }
        pausedAt = nil
        speedWindowStart = now
        speedWindowBytes = receivedBytes
    }

    /// The total time still to spend at `now`, nil without a limit.
    func remaining(at now: ContinuousClock.Instant) -> Duration? {
        guard let timeLeft else { return nil }
        let paused = pausedFor + (pausedAt.map { $0.duration(to: now) } ?? .zero)
        return timeLeft - (startedAt.duration(to: now) - paused)
    }

    // MARK: Callbacks (on the loop's thread)

    fileprivate func header(_ bytes: UnsafeRawBufferPointer) -> Int {
        receivedBytes += Int64(bytes.count)
        headerBytes += bytes.count
        guard headerBytes <= maxHeaderBytes else {
            abortReason = .headersTooLarge(limit: maxHeaderBytes)
            return 0
        }
        var line = Substring(String(decoding: bytes, as: UTF8.self))
        // "\r\n" is one Character.
        while let last = line.last, last.isNewline { line.removeLast() }
        if line.hasPrefix("HTTP/") {
            // A new head (after a 100 Continue, say): only the last one counts.
            headers = HTTPFields()
            headerBytes = bytes.count
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        } else if line.isEmpty {
            if status >= 200 { headComplete() }
        } else if line.first == " " || line.first == "\t" {
            headers.appendToLast(line.trimmingCharacters(in: .whitespaces))
        } else if let colon = line.firstIndex(of: ":") {
            headers.append(
                name: String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                value: String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        return bytes.count
    }

    private func headComplete() {
        if [301, 302, 303, 307, 308].contains(status), headers["Location"] != nil {
            // Handed over once its body is read, with where it points.
            isRedirect = true
            return
        }
        headDelivered = true
        channel.deliverHead(
            HopHead(status: status, headers: headers, redirectTarget: nil, timeLeft: remaining(at: .now)))
    }

    fileprivate func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        if isRedirect {
            redirectBodyBytes += bytes.count
            receivedBytes += Int64(bytes.count)
            return redirectBodyBytes > Self.redirectBodyLimit ? 0 : bytes.count
        }
        if let maxBytes = request.limits.maxBytes, bodyBytes + Int64(bytes.count) > maxBytes {
            abortReason = .tooLarge(limit: maxBytes)
            return 0
        }
        guard channel.offer(Data(bytes)) else {
            pausedForReader = true
            pausedAt = .now
            return cm_curl_write_pause()
        }
        bodyBytes += Int64(bytes.count)
        receivedBytes += Int64(bytes.count)
        return bytes.count
    }

    fileprivate func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let family = address.pointee.family
        let raw = UnsafeRawPointer(address) + MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr)!
        guard let ip = IPAddress(socketAddress: raw, family: family) else { return cm_curl_socket_bad() }
        if let restriction = rules.refusal(of: ip) {
            if refused == nil { refused = (ip, restriction) }
            return cm_curl_socket_bad()
        }
        return socket(
            family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.protocol)
    }

    // MARK: The end

    /// Ends the hop with libcurl's result, handing the head (a redirect's, or a failure) to the reader.
    func complete(_ code: CURLcode) {
        // A redirect's body cut short, or too large to read, does not matter: only its head is used.
        if isRedirect, abortReason == nil,
            [CURLE_OK, CURLE_WRITE_ERROR, CURLE_FILESIZE_EXCEEDED].contains(code)
        {
            var target: UnsafeMutablePointer<CChar>?
            _ = cm_curl_get_string(easy, CURLINFO_REDIRECT_URL, &target)
            channel.deliverHead(
                HopHead(
                    status: status, headers: headers,
                    redirectTarget: target.map { String(cString: $0) } ?? "",
                    timeLeft: remaining(at: .now)))
            channel.finish(nil)
            return
        }
        if code == CURLE_OK {
            channel.finish(headDelivered ? nil : error(.connectionFailed("it sent no answer")))
            return
        }
        channel.finish(error(reason(for: code)))
    }

    /// Ends the hop with a reason of the loop's own (too slow, or the fetcher stopping).
    func fail(_ reason: FetchError.Reason?) {
        channel.finish(reason.map(error) ?? CancellationError())
    }

    private func reason(for code: CURLcode) -> FetchError.Reason {
        if let abortReason { return abortReason }
        let detail =
            errorBuffer.pointee != 0
            ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_COULDNT_CONNECT:
            if let (address, restriction) = refused { return .restrictedAddress(address, restriction) }
            return .connectionFailed(detail)
        case CURLE_COULDNT_RESOLVE_HOST:
            return .unknownHost(url.host ?? url.absoluteString)
        case CURLE_OPERATION_TIMEDOUT:
            // libcurl is given only the connect limit (DNS, TCP, TLS); the loop keeps the total one.
            return .connectTimeout(seconds: request.limits.connectTimeout)
        case CURLE_FILESIZE_EXCEEDED:
            return .tooLarge(limit: request.limits.maxBytes ?? 0)
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .unsupportedScheme(url.scheme ?? "")
        case CURLE_URL_MALFORMAT:
            return .invalidAddress(url.absoluteString)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return .certificate(detail)
        case CURLE_PARTIAL_FILE:
            return .connectionFailed("it sent less than it announced")
        case CURLE_GOT_NOTHING:
            return .connectionFailed("it closed the connection without an answer")
        default:
            return .connectionFailed(detail)
        }
    }
}

// libcurl's callbacks: plain C functions that find their transfer through the pointer they were given.

private let headerCallback: curl_write_callback = { buffer, size, count, me in
    guard let buffer, let me else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(me).takeUnretainedValue()
    return transfer.header(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

private let writeCallback: curl_write_callback = { buffer, size, count, me in
    guard let buffer, let me else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(me).takeUnretainedValue()
    return transfer.write(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

private let openSocketCallback: curl_opensocket_callback = { me, _, address in
    guard let me, let address else { return cm_curl_socket_bad() }
    return Unmanaged<CurlTransfer>.fromOpaque(me).takeUnretainedValue().openSocket(address)
}
