import Foundation
import HTTPServer

/// Feeds a child process's standard output into a streamed response.
enum Transcode {
    static func pump(executable: String, arguments: [String], into writer: StreamWriter) async throws {
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
        while true {
            let chunk: Data = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: (try? reader.read(upToCount: 64 << 10)) ?? Data())
                }
            }
            if chunk.isEmpty { break }
            try await writer.write(chunk)
        }
    }
}
