import Foundation
import Synchronization

/// The head of one hop's answer, as the transfer loop hands it over.
struct HopHead: Sendable {
    var status: Int
    var headers: HTTPFields
    /// Where a redirect points (absolute), when this answer is one to follow.
    var redirectTarget: String?
    /// What is left of the fetch's total time for the hops after this one.
    var timeLeft: Duration?
}

/// Hands one hop's head and body from the transfer loop's thread to the task reading them, holding at most
/// about `highWater` bytes: past it the transfer is paused until the reader has taken all but `lowWater`.
final class BodyChannel: Sendable {
    private struct State {
        var head: Result<HopHead, any Error>?
        var headWaiter: CheckedContinuation<HopHead, any Error>?
        var chunks: [Data] = []
        var nextChunk = 0
        var buffered = 0
        /// Set once the body has ended: nil for a complete body, else why it broke off.
        var end: Result<Void, any Error>?
        var bodyWaiter: CheckedContinuation<Data?, any Error>?
        var paused = false
        var abandoned = false
    }

    static let highWater = 1 << 20
    static let lowWater = 256 << 10

    private let state = Mutex(State())
    /// Asks the loop to resume the paused transfer.
    private let resume: @Sendable () -> Void
    /// Asks the loop to stop the transfer (the reader has gone).
    private let stop: @Sendable () -> Void

    init(resume: @escaping @Sendable () -> Void, stop: @escaping @Sendable () -> Void) {
        self.resume = resume
        self.stop = stop
    }

    // MARK: The loop's side

    func deliverHead(_ head: HopHead) {
        let waiter = state.withLock { state -> CheckedContinuation<HopHead, any Error>? in
            guard state.head == nil else { return nil }
            state.head = .success(head)
            defer { state.headWaiter = nil }
            return state.headWaiter
        }
        waiter?.resume(returning: head)
    }

    /// Takes a chunk, or answers false (keeping nothing) when the reader is too far behind: the transfer must
    /// pause and offer it again once resumed.
    func offer(_ chunk: Data) -> Bool {
        let waiter = state.withLock { state -> CheckedContinuation<Data?, any Error>?? in
            if state.abandoned { return .some(nil) }
            if let waiter = state.bodyWaiter {
                state.bodyWaiter = nil
                return waiter
            }
            if state.buffered >= Self.highWater {
                state.paused = true
                return nil
            }
            state.chunks.append(chunk)
            state.buffered += chunk.count
            return .some(nil)
        }
        guard let waiter else { return false }
        waiter?.resume(returning: chunk)
        return true
    }

    /// Ends the hop: the body is complete when `error` is nil. An error before the head fails the head.
    func finish(_ error: (any Error)?) {
        let (headWaiter, bodyWaiter) = state.withLock {
            state -> (CheckedContinuation<HopHead, any Error>?, CheckedContinuation<Data?, any Error>?) in
            guard state.end == nil else { return (nil, nil) }
            state.end = error.map { .failure($0) } ?? .success(())
            if state.head == nil {
                state.head = .failure(error ?? CancellationError())
            }
            defer {
                state.headWaiter = nil
                state.bodyWaiter = nil
            }
            return (state.headWaiter, state.bodyWaiter)
        }
        if let headWaiter { headWaiter.resume(throwing: error ?? CancellationError()) }
        if let bodyWaiter {
            if let error { bodyWaiter.resume(throwing: error) } else { bodyWaiter.resume(returning: nil) }
        }
    }

    // MARK: The reader's side

    func head() async throws -> HopHead {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<HopHead, any Error>? in
                    if state.abandoned { return .failure(CancellationError()) }
                    if let head = state.head { return head }
                    state.headWaiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            abandon()
        }
    }

    /// The next chunk of the body, or nil at its end.
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                var mustResume = false
                let ready = state.withLock { state -> Result<Data?, any Error>? in
                    if state.abandoned { return .failure(CancellationError()) }
                    if state.nextChunk < state.chunks.count {
                        let chunk = state.chunks[state.nextChunk]
                        state.nextChunk += 1
                        state.buffered -= chunk.count
                        if state.nextChunk == state.chunks.count {
                            state.chunks.removeAll(keepingCapacity: true)
                            state.nextChunk = 0
                        }
                        if state.paused, state.buffered <= Self.lowWater {
                            state.paused = false
                            mustResume = true
                        }
                        return .success(chunk)
                    }
                    if state.paused {
                        state.paused = false
                        mustResume = true
                    }
                    if let end = state.end { return end.map { nil } }
                    state.bodyWaiter = continuation
                    return nil
                }
                if mustResume { resume() }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            abandon()
        }
    }

    /// The reader is gone: the transfer stops and anything waiting ends with CancellationError.
    func abandon() {
        let (headWaiter, bodyWaiter, running) = state.withLock {
            state -> (CheckedContinuation<HopHead, any Error>?, CheckedContinuation<Data?, any Error>?, Bool)
            in
            if state.abandoned { return (nil, nil, false) }
            state.abandoned = true
            state.chunks = []
            state.buffered = 0
            defer {
                state.headWaiter = nil
                state.bodyWaiter = nil
            }
            return (state.headWaiter, state.bodyWaiter, state.end == nil)
        }
        headWaiter?.resume(throwing: CancellationError())
        bodyWaiter?.resume(throwing: CancellationError())
        if running { stop() }
    }
}

/// The body of an answer, in chunks as they arrive; read it once. Dropping it unread stops the transfer.
public struct FetchBody: AsyncSequence, Sendable {
    public typealias Element = Data

    /// Stops the transfer when the last copy of the body (and its iterators) is gone.
    final class Reader: Sendable {
        let channel: BodyChannel
        /// The fetcher, kept while its answer is read (`try await Fetcher().open(...)` works).
        let owner: any Sendable
        init(_ channel: BodyChannel, owner: any Sendable) {
            self.channel = channel
            self.owner = owner
        }
        deinit { channel.abandon() }
    }

    let reader: Reader

    init(_ channel: BodyChannel, owner: any Sendable) { reader = Reader(channel, owner: owner) }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let reader: Reader
        public mutating func next() async throws -> Data? { try await reader.channel.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(reader: reader) }

    /// The whole body in memory, for small documents (the request's `maxBytes` bounds it).
    public func collect() async throws -> Data {
        var data = Data()
        for try await chunk in self { data.append(chunk) }
        return data
    }

    /// Stops the transfer now, before its end.
    public func cancel() { reader.channel.abandon() }
}

/// An answer: its head, and its body to read.
public struct FetchResponse: Sendable {
    public let head: FetchHead
    public let body: FetchBody

    public var status: Int { head.status }
}
