import CPostgres
import Foundation
import Synchronization

/// A notification sent with `NOTIFY` or `pg_notify` by a transaction that committed.
public struct PostgresNotification: Sendable, Equatable {
    public let channel: String
    public let payload: String
    /// The server process of the session that sent it.
    public let senderPID: Int32
}

/// LISTEN on a connection of its own, delivering each notification to a handler on the listener's thread.
///
/// PostgreSQL delivers notifications in commit order, but only to sessions listening when they are sent: when
/// the connection breaks, the listener says `.lost`, reconnects (waiting longer after each failed attempt), and
/// says `.resumed` once it listens again. Whatever was sent in between was missed: on `.resumed` the caller
/// reads what changed from its table (the notification carries an id, the row is the truth).
public final class PostgresListener: Sendable {
    public enum Event: Sendable, Equatable {
        case notification(PostgresNotification)
        /// The connection broke; notifications are missed until `.resumed`.
        case lost(reason: String)
        /// Listening again after `.lost`: read from the table what may have been missed.
        case resumed
    }

    private let state: ListenerState

    /// Connects and listens before it returns (so what commits afterwards is heard), then delivers on a thread.
    init(
        address: PostgresAddress, channels: [String], applicationName: String,
        handler: @escaping @Sendable (Event) -> Void
    ) throws {
        let connection = try ListenerState.connect(address, channels, applicationName)
        state = try ListenerState(
            address: address, channels: channels, applicationName: applicationName, connection: connection,
            handler: handler)
        let thread = Thread { [state] in state.run() }
        thread.name = "postgres listener"
        thread.start()
    }

    deinit { stop() }

    /// Stops listening and closes the connection; the handler is not called once this returns (unless it is
    /// called from the handler itself, which cannot wait for its own end).
    public func stop() { state.stop() }
}

/// The listener's connection and thread; the connection is only touched by that thread once it runs.
private final class ListenerState: @unchecked Sendable {
    private let address: PostgresAddress
    private let channels: [String]
    private let applicationName: String
    private let handler: @Sendable (PostgresListener.Event) -> Void
    private var connection: PostgresConnection?
    /// Written to wake the thread's poll() when `stop` is called.
    private let wake: (read: Int32, write: Int32)
    private let stopped = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)
    private let threadID = Mutex<pthread_t?>(nil)

    init(
        address: PostgresAddress, channels: [String], applicationName: String, connection: PostgresConnection,
        handler: @escaping @Sendable (PostgresListener.Event) -> Void
    ) throws {
        self.address = address
        self.channels = channels
        self.applicationName = applicationName
        self.connection = connection
        self.handler = handler
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw PostgresError(
                kind: .other, message: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        wake = (ends[0], ends[1])
    }

    deinit {
        close(wake.read)
        close(wake.write)
    }

    static func connect(_ address: PostgresAddress, _ channels: [String], _ applicationName: String) throws
        -> PostgresConnection
    {
        let connection = try PostgresConnection(address, applicationName: applicationName)
        for channel in channels {
            try connection.executeScript(
                "LISTEN \"" + channel.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
        }
        return connection
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        let onOwnThread = threadID.withLock { $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        if !onOwnThread { ended.wait() }
    }

    func run() {
        threadID.withLock { $0 = pthread_self() }
        defer {
            connection = nil
            ended.signal()
        }
        var delayMilliseconds: Int32 = 100
        while !stopped.load(ordering: .sequentiallyConsistent) {
            guard let connection else {
                // Reconnecting: wait first (or until stopped), longer after each failure.
                if waitForWake(milliseconds: delayMilliseconds) { return }
                delayMilliseconds = min(delayMilliseconds * 2, 5_000)
                if let fresh = try? Self.connect(address, channels, applicationName) {
                    self.connection = fresh
                    delayMilliseconds = 100
                    handler(.resumed)
                }
                continue
            }
            var descriptors = [
                pollfd(fd: PQsocket(connection.handle), events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&descriptors, 2, -1) < 0 {
                if errno != EINTR { lose("poll failed: \(String(cString: strerror(errno)))") }
                continue
            }
            if descriptors[1].revents != 0 { return }
            guard descriptors[0].revents != 0 else { continue }
            let consumed = PQconsumeInput(connection.handle) == 1
            while let notice = PQnotifies(connection.handle) {
                let notification = PostgresNotification(
                    channel: String(cString: notice.pointee.relname),
                    payload: String(cString: notice.pointee.extra),
                    senderPID: notice.pointee.be_pid)
                PQfreemem(notice)
                handler(.notification(notification))
            }
            if !consumed || connection.isBroken {
                lose(
                    String(cString: PQerrorMessage(connection.handle)).trimmingCharacters(
                        in: .whitespacesAndNewlines))
            }
        }
    }

    private func lose(_ reason: String) {
        connection = nil
        handler(.lost(reason: reason.isEmpty ? "the connection to PostgreSQL broke" : reason))
    }

    /// Waits `milliseconds` or until `stop`; true when stopped.
    private func waitForWake(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, milliseconds)
        return stopped.load(ordering: .sequentiallyConsistent)
    }
}
