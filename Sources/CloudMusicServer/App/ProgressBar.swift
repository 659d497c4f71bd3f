import Foundation
import MusicCore

/// A one-line progress bar on standard error, redrawn at most ten times a second.
final class ProgressBar: @unchecked Sendable {
    private var lastDraw = Date.distantPast
    private let lock = NSLock()
    private let isTerminal = isatty(STDERR_FILENO) == 1

    func show(_ progress: ScanProgress) {
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) >= 0.1 || progress.read == progress.toRead else { return }
        lastDraw = now
        let line: String
        if progress.toRead > 0 {
            let fraction = Double(progress.read) / Double(progress.toRead)
            let filled = Int(fraction * 30)
            line =
                "\(progress.phase) [" + String(repeating: "#", count: filled)
                + String(repeating: ".", count: 30 - filled)
                + "] \(progress.read)/\(progress.toRead) (\(progress.filesSeen) files seen)"
        } else {
            line = "\(progress.phase): \(progress.filesSeen) files seen"
        }
        FileHandle.standardError.write(
            Data(((isTerminal ? "\r\u{1B}[K" : "") + line + (isTerminal ? "" : "\n")).utf8))
    }

    func finish() {
        if isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
