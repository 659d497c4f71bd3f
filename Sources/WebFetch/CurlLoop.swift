import CCurl
import Foundation
import Synchronization

/// One thread driving a libcurl multi handle: every transfer of a `Fetcher` runs here, so a thousand feeds
/// cost one thread, reuse connections (per host) and run at most `maxRunning` at once; the others wait in
/// order.
///
/// `@unchecked Sendable`: other threads only touch `inbox` (behind its lock) and call `curl_multi_wakeup`,
/// which libcurl allows from any thread; everything else belongs to the loop's thread.
final class CurlLoop: @unchecked Sendable {
    private struct Inbox {
        var commands: [Command] = []
        /// Set once the multi handle is gone: nothing more may wake it.
        var closed = false
    }

    private enum Command {
        case start(CurlTransfer)
        case resume(UInt64)
        case stop(UInt64)
        case shutDown
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    private let nextID = Atomic<UInt64>(1)
    private let maxRunning: Int

    // The loop thread's own.
    private var running: [UInt64: CurlTransfer] = [:]
    private var byHandle: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private var waiting: [CurlTransfer] = []

    private static let globalInit: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    init(maxRunning: Int, maxPerHost: Int) {
        precondition(Self.globalInit, "libcurl failed to initialise")
        multi = curl_multi_init()
        self.maxRunning = max(1, maxRunning)
        _ = cm_curl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(1, maxPerHost))
        _ = cm_curl_multi_set_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, self.maxRunning)
        _ = cm_curl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, max(16, self.maxRunning))
        let thread = Thread { [self] in run() }
        thread.name = "WebFetch transfers"
        thread.start()
    }

    func makeID() -> UInt64 { nextID.wrappingAdd(1, ordering: .relaxed).oldValue }

    func start(_ transfer: CurlTransfer) { send(.start(transfer)) }
    func resume(_ id: UInt64) { send(.resume(id)) }
    func stop(_ id: UInt64) { send(.stop(id)) }

    /// Ends every transfer (their readers get CancellationError), then the thread. Does not wait: the last
    /// reference to a fetcher may go on this very thread.
    func shutDown() { send(.shutDown) }

    private func send(_ command: Command) {
        let accepted = inbox.withLock { inbox in
            guard !inbox.closed else { return false }
            inbox.commands.append(command)
            // Under the lock, so the loop cannot free the multi handle in between.
            curl_multi_wakeup(multi)
            return true
        }
        if !accepted, case .start(let transfer) = command { transfer.fail(nil) }
    }

    private func run() {
        var shuttingDown = false
        while !shuttingDown {
            let commands = inbox.withLock { inbox in
                defer { inbox.commands.removeAll(keepingCapacity: true) }
                return inbox.commands
            }
            for command in commands {
                switch command {
                case .start(let transfer):
                    if transfer.urgent { waiting.insert(transfer, at: 0) } else { waiting.append(transfer) }
                case .resume(let id):
                    if let transfer = running[id], transfer.pausedForReader, let easy = transfer.easy {
                        transfer.resumed(at: .now)
                        // Hands the chunk it held straight to the write callback, which may pause again, or
                        // refuse it (past the size limit): then the transfer ends here, not in the multi handle.
                        let code = curl_easy_pause(easy, CURLPAUSE_CONT)
                        if code != CURLE_OK {
                            remove(transfer)
                            transfer.complete(code)
                        }
                    }
                case .stop(let id):
                    if let transfer = running[id] {
                        remove(transfer)
                        transfer.fail(nil)
                    } else if let index = waiting.firstIndex(where: { $0.id == id }) {
                        waiting.remove(at: index).fail(nil)
                    }
                case .shutDown:
                    shuttingDown = true
                }
            }
            if shuttingDown { break }
            admit()
            var stillRunning: Int32 = 0
            curl_multi_perform(multi, &stillRunning)
            collectFinished()
            checkTimes()
            if !waiting.isEmpty, running.count < maxRunning { continue }
            var timeout = -1
            curl_multi_timeout(multi, &timeout)
            // A tick a second while transfers run, for the time limits; idle, only a command wakes it.
            let wait = running.isEmpty ? 60_000 : (timeout < 0 ? 1_000 : min(timeout, 1_000))
            curl_multi_poll(multi, nil, 0, Int32(wait), nil)
        }
        let late = inbox.withLock { inbox in
            inbox.closed = true
            return inbox.commands
        }
        for case .start(let transfer) in late { waiting.append(transfer) }
        for transfer in Array(running.values) {
            remove(transfer)
            transfer.fail(nil)
        }
        for transfer in waiting { transfer.fail(nil) }
        waiting = []
        curl_multi_cleanup(multi)
    }

    private func admit() {
        while running.count < maxRunning, !waiting.isEmpty {
            let transfer = waiting.removeFirst()
            guard let easy = transfer.prepare(now: .now) else { continue }
            running[transfer.id] = transfer
            byHandle[easy] = transfer
            curl_multi_add_handle(multi, easy)
        }
    }

    private func remove(_ transfer: CurlTransfer) {
        running[transfer.id] = nil
        if let easy = transfer.easy {
            byHandle[easy] = nil
            curl_multi_remove_handle(multi, easy)
        }
    }

    private func collectFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = byHandle[easy]
            else { continue }
            let code = message.pointee.data.result
            remove(transfer)
            transfer.complete(code)
        }
    }

    /// Ends transfers past their total time, or that received less than their low-speed limit over its
    /// window; time their reader held them back does not count.
    private func checkTimes() {
        let now = ContinuousClock.now
        for transfer in Array(running.values) {
            if let left = transfer.remaining(at: now), left <= .zero {
                remove(transfer)
                transfer.fail(.timeout(seconds: transfer.request.limits.totalTimeout ?? 0))
                continue
            }
            guard let lowSpeed = transfer.request.limits.lowSpeed, !transfer.pausedForReader else { continue }
            let window = Duration.seconds(lowSpeed.seconds)
            guard transfer.speedWindowStart.duration(to: now) >= window else { continue }
            let received = transfer.receivedBytes - transfer.speedWindowBytes
            if Double(received) < Double(lowSpeed.bytesPerSecond) * lowSpeed.seconds {
                remove(transfer)
                transfer.fail(.tooSlow(bytesPerSecond: lowSpeed.bytesPerSecond, seconds: lowSpeed.seconds))
            } else {
                transfer.speedWindowStart = now
                transfer.speedWindowBytes = transfer.receivedBytes
            }
        }
    }
}
