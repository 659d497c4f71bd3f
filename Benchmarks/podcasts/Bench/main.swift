import Foundation

// podcast-bench: the feed side's figures. Each benchmark lives in its own file and registers here.
//   swift run -c release podcast-bench <name> [options]
let benchmarks: [String: ([String]) async throws -> Void] = [
    "generate": FeedGenerator.run,
    "parse": ParseBench.run,
    "refresh": RefreshBench.run,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let run = benchmarks[name] else {
    print("usage: podcast-bench <\(benchmarks.keys.sorted().joined(separator: "|"))> [options]")
    exit(2)
}
try await run(Array(arguments.dropFirst()))

/// The value after `name` in `arguments`.
func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func format(_ value: Double) -> String { String(format: "%.2f", value) }

/// CPU seconds (user and system) this process has used so far.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// The process's peak resident set so far, in MiB.
func peakResidentMiB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
