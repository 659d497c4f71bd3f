import Foundation

/// ffmpeg found on PATH: the one place that starts it, always with an argument array, never a shell.
public struct FFmpeg: Sendable {
    /// The installed ffmpeg, or nil when there is none.
    public static let installed: FFmpeg? = try? FFmpeg()

    public let executable: String

    /// Finds ffmpeg on PATH; throws a message saying how to install it.
    public init() throws(AudioMetadataError) {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where access("\(dir)/ffmpeg", X_OK) == 0 {
            executable = "\(dir)/ffmpeg"
            return
        }
        throw AudioMetadataError(
            path: "ffmpeg",
            reason: "ffmpeg is not installed; run scripts/install-deps (apt-get install ffmpeg)")
    }

    /// Runs ffmpeg to completion (quiet, overwriting its output), killing it after `timeout`
    /// seconds when one is given; throws with its error output when it fails.
    public func run(_ arguments: [String], timeout: TimeInterval? = nil) throws(AudioMetadataError) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw AudioMetadataError(
                path: executable, reason: "could not start ffmpeg: \(error.localizedDescription)")
        }
        let timer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer) }
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let message = String(decoding: output, as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines)
            throw AudioMetadataError(
                path: arguments.last ?? "", reason: "ffmpeg failed: \(message.suffix(300))")
        }
    }
}
