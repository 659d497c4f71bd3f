import Foundation

/// Fetches from the internet safely: http and https only, every redirect followed by us and checked, every
/// connection's resolved address checked against `AddressRules`, sizes and times limited, conditional GETs
/// answered by 304 without a body.
///
/// One `Fetcher` serves the whole server: its transfers share one thread and reuse connections. Bodies come in
/// chunks as they arrive (`open`), to a consumer (`fetch`), or into a file (`download`).
public final class Fetcher: Sendable {
    public struct Configuration: Sendable {
        /// The administrator's allow-list for restricted addresses.
        public var addressRules: AddressRules
        public var userAgent: String
        /// Transfers running at once; more wait their turn.
        public var maxConcurrentTransfers: Int
        /// Connections to one host at once.
        public var maxConnectionsPerHost: Int
        /// Most bytes of one answer's head.
        public var maxHeaderBytes: Int

        public init(
            addressRules: AddressRules = AddressRules(),
            userAgent: String = "CloudMusic/1.0 (podcast and feed reader)",
            maxConcurrentTransfers: Int = 32, maxConnectionsPerHost: Int = 6, maxHeaderBytes: Int = 64_000
        ) {
            self.addressRules = addressRules
            self.userAgent = userAgent
            self.maxConcurrentTransfers = maxConcurrentTransfers
            self.maxConnectionsPerHost = maxConnectionsPerHost
            self.maxHeaderBytes = maxHeaderBytes
        }
    }

    public let configuration: Configuration
    private let loop: CurlLoop

    public init(_ configuration: Configuration = Configuration()) {
        self.configuration = configuration
        loop = CurlLoop(
            maxRunning: configuration.maxConcurrentTransfers, maxPerHost: configuration.maxConnectionsPerHost)
    }

    deinit { loop.shutDown() }

    /// Makes the GET, following redirects, and returns the final answer's head as soon as it has come; its
    /// body follows in `response.body`. Any status is returned (a 404 too); failures to fetch throw
    /// `FetchError`.
    public func open(_ request: FetchRequest) async throws -> FetchResponse {
        var url = try checked(request.url, request: request)
        var visited: Set<String> = [url.absoluteString]
        var redirects = 0
        var movedTo: URL?
        var onlyPermanent = true
        var timeLeft = request.limits.totalTimeout.map { Duration.seconds($0) }
        while true {
            let channel = start(url, request: request, timeLeft: timeLeft, urgent: redirects > 0)
            let hop = try await channel.head()
            timeLeft = hop.timeLeft
            guard let target = hop.redirectTarget else {
                let head = FetchHead(status: hop.status, headers: hop.headers, url: url, movedTo: movedTo)
                return FetchResponse(head: head, body: FetchBody(channel, owner: self))
            }
            redirects += 1
            guard redirects <= request.limits.maxRedirects else {
                throw FetchError(.tooManyRedirects(redirects), url: url, subject: request.subject)
            }
            guard let next = URL(string: target) else {
                throw FetchError(.invalidAddress(target), url: url, subject: request.subject)
            }
            url = try checked(next, request: request)
            guard visited.insert(url.absoluteString).inserted else {
                throw FetchError(.redirectLoop(url), url: url, subject: request.subject)
            }
            if onlyPermanent, hop.status == 301 || hop.status == 308 {
                movedTo = url
            } else {
                onlyPermanent = false
            }
        }
    }

    /// Fetches a document and hands its body to `consume` chunk by chunk as it arrives (a streaming parser),
    /// in the calling task. Returns the head: a 304 (`notModified`) has had no body. Any status other than
    /// 2xx and 304 throws `FetchError` (`.status`); an error thrown by `consume` stops the transfer and is
    /// rethrown.
    public func fetch(_ request: FetchRequest, consume: (Data) throws -> Void) async throws -> FetchHead {
        let response = try await open(request)
        try Self.requireSuccess(response.head, request: request)
        for try await chunk in response.body { try consume(chunk) }
        return response.head
    }

    /// Downloads into `folder` as `name`: written under a temporary name in the same folder, synced, then
    /// renamed into place, so the file is either whole or not there. A 304 writes nothing.
    public func download(_ request: FetchRequest, into folder: URL, as name: String) async throws -> FetchHead
    {
        guard Download.isPlainName(name) else {
            throw FetchError(
                .file("\(name) is not a plain file name"), url: request.url, subject: request.subject)
        }
        let response = try await open(request)
        try Self.requireSuccess(response.head, request: request)
        if response.head.notModified { return response.head }
        let file: Download
        do {
            file = try Download(folder: folder, name: name)
        } catch {
            response.body.cancel()
            throw FetchError(.file("\(error)"), url: response.head.url, subject: request.subject)
        }
        do {
            for try await chunk in response.body { try file.write(chunk) }
            try file.commit()
        } catch let error as Download.Failure {
            file.discard()
            throw FetchError(.file(error.description), url: response.head.url, subject: request.subject)
        } catch {
            file.discard()
            throw error
        }
        return response.head
    }

    private static func requireSuccess(_ head: FetchHead, request: FetchRequest) throws {
        guard (200..<300).contains(head.status) || head.notModified else {
            throw FetchError(.status(head.status), url: head.url, subject: request.subject)
        }
    }

    private func start(_ url: URL, request: FetchRequest, timeLeft: Duration?, urgent: Bool)
        -> BodyChannel
    {
        let id = loop.makeID()
        let channel = BodyChannel(
            resume: { [loop] in loop.resume(id) }, stop: { [loop] in loop.stop(id) })
        loop.start(
            CurlTransfer(
                id: id, url: url, request: request, rules: configuration.addressRules,
                userAgent: configuration.userAgent, maxHeaderBytes: configuration.maxHeaderBytes,
                timeLeft: timeLeft, urgent: urgent, channel: channel))
        return channel
    }

    /// The address if it is absolute http or https with a host, else the error saying why not.
    private func checked(_ url: URL, request: FetchRequest) throws -> URL {
        guard let scheme = url.scheme?.lowercased() else {
            throw FetchError(.invalidAddress(url.absoluteString), url: url, subject: request.subject)
        }
        guard scheme == "http" || scheme == "https" else {
            throw FetchError(.unsupportedScheme(scheme), url: url, subject: request.subject)
        }
        guard let host = url.host, !host.isEmpty else {
            throw FetchError(.invalidAddress(url.absoluteString), url: url, subject: request.subject)
        }
        return url
    }
}
