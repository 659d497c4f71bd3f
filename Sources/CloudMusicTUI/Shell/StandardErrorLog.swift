import Foundation

/// While the terminal UI is drawn, the process's standard error goes to a log file: libmpv, ALSA,
/// PulseAudio and libav write their complaints there (`ALSA lib confmisc.c:855:(parse_card) cannot find card
/// '0'`), and on screen they would tear through the frame. It comes back on exit, and on a crash (from the
/// crash handler, so the report is seen).
enum StandardErrorLog {
    /// The log file's name in the state folder.
    static let fileName = "player.log"
    /// A log larger than this is started afresh.
    static let maxBytes: off_t = 1 << 20

    nonisolated(unsafe) private static var saved: Int32 = -1

    /// Sends fd 2 to `path` (appending; a log over `maxBytes` starts again); false when it cannot be opened,
    /// and standard error is then left as it is.
    @discardableResult
    static func redirect(to path: String) -> Bool {
        guard saved < 0 else { return true }
        var info = stat()
        let large = stat(path, &info) == 0 && info.st_size > maxBytes
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (large ? O_TRUNC : O_APPEND), 0o600)
        guard fd >= 0 else { return false }
        let stamp =
            "--- cloudmusic started \(ISO8601DateFormatter().string(from: Date())) (pid \(getpid())) ---\n"
        _ = stamp.withCString { write(fd, $0, strlen($0)) }
        let copy = dup(STDERR_FILENO)
        guard copy >= 0, dup2(fd, STDERR_FILENO) >= 0 else {
            close(fd)
            if copy >= 0 { close(copy) }
            return false
        }
        close(fd)
        saved = copy
        return true
    }

    /// Gives standard error back; safe inside a signal handler.
    static func restoreNow() {
        guard saved >= 0 else { return }
        dup2(saved, STDERR_FILENO)
    }

    /// Gives standard error back for good.
    static func restore() {
        guard saved >= 0 else { return }
        dup2(saved, STDERR_FILENO)
        close(saved)
        saved = -1
    }
}
