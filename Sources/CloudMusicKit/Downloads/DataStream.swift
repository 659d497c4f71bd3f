import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One GET whose answer arrives as it comes: first the response, then the body in pieces.
///
/// URLSession on Linux has no `bytes(for:)`, so this bridges a data delegate to an AsyncThrowingStream.
/// Ending the iteration (or cancelling the task iterating it) cancels the request.
final class DataStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Event: Sendable {
        case response(HTTPURLResponse)
        case data(Data)
    }

    let events: AsyncThrowingStream<Event, any Error>
    private let continuation: AsyncThrowingStream<Event, any Error>.Continuation
    private var session: URLSession!
    private var task: URLSessionDataTask?

    init(request: URLRequest, timeout: TimeInterval) {
        (events, continuation) = AsyncThrowingStream.makeStream(of: Event.self)
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        let task = session.dataTask(with: request)
        self.task = task
        continuation.onTermination = { [weak self] _ in self?.cancel() }
        task.resume()
    }

    func cancel() {
        task?.cancel()
        session.invalidateAndCancel()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        if let response = response as? HTTPURLResponse { continuation.yield(.response(response)) }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.data(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            continuation.finish(throwing: APIClient.map(error))
        } else {
            continuation.finish()
        }
        session.finishTasksAndInvalidate()
    }
}
