import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The event stream's transport for `https://` servers (the socket transport speaks plain HTTP only):
/// URLSession with a data delegate on a queue of its own, the body handed on as it arrives.
///
/// Its idle timeout is URLSession's `timeoutIntervalForRequest`, which counts from the last bytes received.
final class URLSessionHTTPStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: the callbacks are set before the task starts and the delegate queue runs them one at a time.
    private var onHead: ((HTTPResponseReader.Head) throws -> Void)?
    private var onBody: (([UInt8]) throws -> Void)?
    private var failure: (any Error)?
    private let finished = DispatchSemaphore(value: 0)
    private let task = Locked<URLSessionDataTask?>(nil)
    private let cancelled = Locked(false)

    func cancel() {
        cancelled.withLock { $0 = true }
        task.withLock { $0?.cancel() }
    }

    /// Blocks until the answer ends; call it on a thread of its own.
    func run(
        _ request: SocketHTTPStream.Request, connectTimeout: TimeInterval, idleTimeout: TimeInterval,
        onHead: @escaping (HTTPResponseReader.Head) throws -> Void, onBody: @escaping ([UInt8]) throws -> Void
    ) throws {
        self.onHead = onHead
        self.onBody = onBody
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.timeoutIntervalForResource = .infinity
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
        defer { session.invalidateAndCancel() }
        var urlRequest = URLRequest(url: request.url)
        urlRequest.timeoutInterval = idleTimeout
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let dataTask = session.dataTask(with: urlRequest)
        task.withLock { $0 = dataTask }
        if cancelled.current { throw APIError(kind: .cancelled, message: "The event stream was stopped.") }
        dataTask.resume()
        finished.wait()
        if let failure { throw failure }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        guard let http = response as? HTTPURLResponse else {
            fail(APIError(kind: .network, message: "The server sent no HTTP answer."), dataTask)
            completionHandler(.cancel)
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        do {
            try onHead?(HTTPResponseReader.Head(status: http.statusCode, headers: headers))
            completionHandler(.allow)
        } catch {
            fail(error, dataTask)
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil else { return }
        do { try onBody?([UInt8](data)) } catch { fail(error, dataTask) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if failure == nil, let error {
            failure =
                cancelled.current
                ? APIError(kind: .cancelled, message: "The event stream was stopped.") : APIClient.map(error)
        }
        finished.signal()
    }

    private func fail(_ error: any Error, _ task: URLSessionTask) {
        if failure == nil { failure = error }
        task.cancel()
    }
}
