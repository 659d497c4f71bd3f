// library-bench-gen: writes a benchmark music library with LibraryGenerator.makeBenchmarkLibrary.
//
//     library-bench-gen <folder> <trackCount>
//
// Small tagged mp3 files (one 2 s template encoded by ffmpeg, copied and retagged with TagLib),
// ten per album, ten albums per artist, about one title in three Chinese. Prints progress on
// stderr and, at the end, one line on stdout: "generated N tracks in S s (R tracks/s)".
// Exit status: 0 done, 1 generation failed, 2 bad usage.
import AudioMetadata
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else {
    FileHandle.standardError.write(Data("usage: library-bench-gen <folder> <trackCount>\n".utf8))
    exit(2)
}
let folder = arguments[1]
let started = Date()
var lastPrinted = Date.distantPast
do {
    try LibraryGenerator.makeBenchmarkLibrary(at: folder, trackCount: count) { done, total in
        let now = Date()
        guard done == total || now.timeIntervalSince(lastPrinted) >= 1 else { return }
        lastPrinted = now
        let elapsed = now.timeIntervalSince(started)
        let rate = Double(done) / max(elapsed, 0.001)
        let eta = rate > 0 ? Double(total - done) / rate : 0
        FileHandle.standardError.write(
            Data(
                String(format: "\r  %d/%d tracks  %.0f tracks/s  ETA %.0f s ", done, total, rate, eta).utf8))
    }
} catch {
    FileHandle.standardError.write(Data("\nlibrary-bench-gen: \(error)\n".utf8))
    exit(1)
}
let seconds = Date().timeIntervalSince(started)
FileHandle.standardError.write(Data("\n".utf8))
print(
    String(
        format: "generated %d tracks in %.1f s (%.0f tracks/s)", count, seconds,
        Double(count) / max(seconds, 0.001)))
