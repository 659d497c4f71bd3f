import Foundation

// client-bench: the SDK's figures. Each benchmark lives in its own file and registers here.
//   swift run -c release client-bench <name> [options]
let benchmarks: [String: ([String]) async throws -> Void] = [
    "lyric-sync": LyricSyncBench.run,
    "play-latency": PlayerBench.run,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let run = benchmarks[name] else {
    print("usage: client-bench <\(benchmarks.keys.sorted().joined(separator: "|"))> [options]")
    exit(2)
}
try await run(Array(arguments.dropFirst()))
