import Foundation
import HTTPServer

/// Feeds a child process's standard output into a streamed response.
enum Transcode {
    /// With `exactly`, the body is that many bytes whatever ffmpeg writes: cut, or padded with zero bytes
    /// (which MP3, AAC and Ogg decoders skip while they look for the next frame), so that a length announced
    /// ahead of time holds.
    static func pump(
        executable: String, arguments: [String], into writer: StreamWriter, exactly length: Int? = nil
    ) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let reader = output.fileHandleForReading
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try? reader.close()
        }
        var left = length ?? Int.max
        while left > 0 {
            let chunk: Data = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: (try? reader.read(upToCount: 64 << 10)) ?? Data())
                }
            }
            if chunk.isEmpty { break }
            let sent = chunk.count <= left ? chunk : chunk.prefix(left)
            try await writer.write(sent)
            left -= sent.count
        }
        if length != nil {
            while left > 0 {
                let zeros = Data(count: min(left, 64 << 10))
                try await writer.write(zeros)
                left -= zeros.count
            }
        }
    }
}
