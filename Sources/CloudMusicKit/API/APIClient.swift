import Foundation
import MusicCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The v1 API over URLSession: envelope decoding, the session token, typed errors, retries and timeouts.
///
/// Safe to share between tasks. Cancelling the calling task cancels the request (`.cancelled`).
/// Idempotent requests (see `APIRequest.isIdempotent`) are retried with exponential back-off and jitter
/// on network errors, 502, 503, 504 and 429 (waiting at least the server's `Retry-After`); POST never is.
public final class APIClient: Sendable {
    public struct Configuration: Sendable {
        /// Seconds without an answer before a request fails as `.network`.
        public var timeout: TimeInterval = 30
        /// Tries in all for an idempotent request, the first included.
        public var maxAttempts: Int = 3
        /// The first retry waits about this long; each next one twice as long, plus up to as much again
        /// at random.
        public var baseRetryDelay: TimeInterval = 0.2
        /// No retry waits longer; a `Retry-After` above it fails at once as `.rateLimited`.
        public var maxRetryDelay: TimeInterval = 10
        public init() {}
    }

    /// The server root (ends with `/`); API paths and media `uri`s are joined onto it.
    public let baseURL: URL
    public let configuration: Configuration
    let session: URLSession
    private let token: Locked<String?>

    public init(baseURL: URL, token: String? = nil, configuration: Configuration = Configuration()) {
        let text = baseURL.absoluteString
        self.baseURL = text.hasSuffix("/") ? baseURL : URL(string: text + "/")!
        self.configuration = configuration
        self.token = Locked(token)
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.timeout
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: sessionConfiguration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// The session token sent as `Authorization: Bearer <token>`, or nil when signed out.
    public var sessionToken: String? {
        get { token.current }
        set { token.withLock { $0 = newValue } }
    }

    /// Sets the session token (for callers holding a `let` client).
    public func setSessionToken(_ value: String?) { token.withLock { $0 = value } }

    /// A media path (`uri`, `icon`) relative to the server root as an absolute URL; absolute ones as they are.
    public func url(for uri: String) -> URL {
        if let absolute = URL(string: uri), absolute.scheme != nil { return absolute }
        var relative = Substring(uri)
        while relative.hasPrefix("/") { relative = relative.dropFirst() }
        return URL(string: String(relative), relativeTo: baseURL)?.absoluteURL
            ?? baseURL.appendingPathComponent(String(relative))
    }

    // MARK: Calls

    /// Sends `endpoint` and decodes the envelope's `data` as `T`.
    public func send<T: Decodable & Sendable>(_ endpoint: APIRequest, as type: T.Type = T.self) async throws
        -> T
    {
        let data = try await sendRaw(endpoint)
        return try Self.decodeEnvelope(data, as: type)
    }

    /// Sends `endpoint` and checks only that it succeeded (`{"status":0}`).
    public func send(_ endpoint: APIRequest) async throws {
        _ = try await sendRaw(endpoint)
    }

    /// Sends `endpoint` and answers the body of a 2xx response as it came; failures are `APIError`s.
    public func sendRaw(_ endpoint: APIRequest) async throws -> Data {
        let request = try urlRequest(for: endpoint)
        var attempt = 1
        while true {
            do {
                let (data, response) = try await perform(request)
                if (200..<300).contains(response.statusCode) { return data }
                throw Self.error(from: data, response: response)
            } catch let error as APIError {
                guard endpoint.isIdempotent, attempt < configuration.maxAttempts,
                    let delay = retryDelay(for: error, attempt: attempt)
                else { throw error }
                do { try await Task.sleep(for: .milliseconds(Int(delay * 1000))) } catch {
                    throw APIError(kind: .cancelled, message: "The request was cancelled.")
                }
                attempt += 1
            }
        }
    }

    /// How long to wait before retrying after `error`, or nil when it must not be retried.
    func retryDelay(for error: APIError, attempt: Int) -> TimeInterval? {
        let backoff = configuration.baseRetryDelay * pow(2, Double(attempt - 1))
        let jittered = min(backoff + Double.random(in: 0...backoff), configuration.maxRetryDelay)
        switch error.kind {
        case .network:
            return jittered
        case .server where [502, 503, 504].contains(error.httpStatus ?? 0):
            return jittered
        case .rateLimited(let retryAfter):
            guard let retryAfter else { return jittered }
            return retryAfter <= configuration.maxRetryDelay ? max(retryAfter, jittered) : nil
        default:
            return nil
        }
    }

    func urlRequest(for endpoint: APIRequest) throws -> URLRequest {
        var components = URLComponents(url: url(for: endpoint.path), resolvingAgainstBaseURL: true)
        if !endpoint.query.isEmpty { components?.queryItems = endpoint.query }
        // URLComponents leaves '+' alone, which servers read as a space.
        let encodedQuery = components?.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        components?.percentEncodedQuery = encodedQuery
        guard let url = components?.url else {
            throw APIError(kind: .badRequest, message: "'\(endpoint.path)' is not a valid address.")
        }
        var request = URLRequest(url: url)
        request.httpMethod = endpoint.method.rawValue
        request.timeoutInterval = endpoint.timeout ?? configuration.timeout
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let token = sessionToken {
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        switch endpoint.body {
        case .json(let data)?:
            request.httpBody = data
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        case .multipart(let data, let boundary)?:
            request.httpBody = data
            request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        case .raw(let data, let contentType)?:
            request.httpBody = data
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        case nil:
            break
        }
        return request
    }

    /// One request; cancellation of the calling task cancels the URLSession task.
    func perform(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await perform(request, session: session)
    }

    static func decodeEnvelope<T: Decodable & Sendable>(_ data: Data, as type: T.Type) throws -> T {
        let envelope: APIResponse<T>
        do {
            envelope = try JSONDecoder().decode(APIResponse<T>.self, from: data)
        } catch {
            throw APIError(kind: .decoding, message: "The server's answer could not be read: \(error)")
        }
        guard envelope.isSuccess else {
            throw APIError(
                kind: .other, code: envelope.status,
                message: envelope.message ?? "The server refused the request.")
        }
        if let value = envelope.data { return value }
        if let empty = EmptyData() as? T { return empty }
        throw APIError(kind: .decoding, message: "The server's answer had no data.")
    }

    static func error(from data: Data, response: HTTPURLResponse) -> APIError {
        let retryAfter = (response.value(forHTTPHeaderField: "Retry-After")).flatMap {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        let status = response.statusCode
        let envelope = try? JSONDecoder().decode(APIResponse<EmptyData>.self, from: data)
        let message =
            envelope?.message
            ?? HTTPURLResponse.localizedString(forStatusCode: status).capitalizedFirst + " (HTTP \(status))."
        return APIError(
            kind: APIError.kind(forHTTPStatus: status, retryAfter: retryAfter), httpStatus: status,
            code: envelope?.status, message: message)
    }
}

/// What `{"status":0}` carries: nothing.
public struct EmptyData: Codable, Sendable, Equatable {
    public init() {}
}

extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}

extension APIClient {
    /// One request on `session`, with cancellation and URLSession failures mapped to `APIError`.
    func perform(_ request: URLRequest, session: URLSession) async throws -> (Data, HTTPURLResponse) {
        let box = Locked<URLSessionDataTask?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<(Data, HTTPURLResponse), any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: Self.map(error))
                    } else if let response = response as? HTTPURLResponse {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(
                            throwing: APIError(kind: .network, message: "The server sent no HTTP answer."))
                    }
                }
                box.withLock { $0 = task }
                task.resume()
                if Task.isCancelled { task.cancel() }
            }
        } onCancel: {
            box.withLock { $0?.cancel() }
        }
    }

    static func map(_ error: any Error) -> APIError {
        if let error = error as? APIError { return error }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorCancelled {
            return APIError(kind: .cancelled, message: "The request was cancelled.")
        }
        if nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorTimedOut {
            return APIError(kind: .network, message: "The server took too long to answer.")
        }
        return APIError(
            kind: .network, message: "The server could not be reached (\(nsError.localizedDescription)).")
    }
}
