import Foundation
import Synchronization

/// Actions posted from any thread to the app's loop, with a pipe that wakes the loop's `poll` so it sleeps
/// until something happens instead of waking on a timer.
final class Mailbox: Sendable {
    private let pending = Mutex<(actions: [AppAction], signalled: Bool)>(([], false))
    /// The loop polls `readEnd`; posting writes a byte to `writeEnd` once per batch.
    let readEnd: Int32
    private let writeEnd: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        if pipe(&fds) != 0 {
            throw TerminalError(
                message: "cloudmusic could not make a pipe: \(String(cString: strerror(errno))).")
        }
        for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func post(_ action: AppAction) {
        let wake = pending.withLock { state -> Bool in
            state.actions.append(action)
            defer { state.signalled = true }
            return !state.signalled
        }
        if wake {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
    }

    /// Everything posted since the last call.
    func take() -> [AppAction] {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
        return pending.withLock { state in
            defer { state = ([], false) }
            return state.actions
        }
    }
}
