import Foundation
import MusicCore

/// lyric-sync: the cost per call of following a long word-timed lyric with `LyricSync`, against
/// `Lyric.position(at:)` (a binary search per call) measured in the same run.
///
///     swift run -c release client-bench lyric-sync [--lines 5000] [--seeks 1000000] [--rounds 5]
enum LyricSyncBench {
    static func run(_ arguments: [String]) async throws {
        let lineCount = option("--lines", in: arguments) ?? 5000
        let seekCount = option("--seeks", in: arguments) ?? 1_000_000
        let rounds = option("--rounds", in: arguments) ?? 5

        let lyric = LyricParser.parseKSC(script(lines: lineCount))
        guard lyric.issues.isEmpty, lyric.lines.count == lineCount else {
            print("lyric-sync: the generated KSC did not parse cleanly: \(lyric.issues.prefix(3))")
            exit(1)
        }
        let end = lyric.lines.last!.end
        let wordCount = lyric.lines.reduce(0) { $0 + $1.words.count }
        // 60 fps from before the first line to after the last, as a player's clock reports it.
        let frames = (0...((end + 2000) * 60 / 1000)).map { $0 * 1000 / 60 }
        var random = SystemRandomNumberGenerator()
        let seeks = (0..<seekCount).map { _ in Int.random(in: -1000...(end + 1000), using: &random) }

        // Both ways must agree before their speeds mean anything.
        var check = LyricSync(lyric: lyric)
        for ms in frames.prefix(20_000) + seeks.prefix(20_000)
        where check.update(milliseconds: ms) != lyric.position(at: ms) {
            print("lyric-sync: LyricSync and Lyric.position(at:) disagree at \(ms) ms")
            exit(1)
        }

        print(
            "lyric-sync: \(lineCount) lines, \(wordCount) words, \(format(Double(end) / 60_000)) min; "
                + "\(frames.count) frames at 60 fps, \(seeks.count) random seeks; best of \(rounds) rounds")
        // Rounds alternate the two ways, so that a busy moment on the machine hits both alike.
        var frameSync = Double.infinity
        var frameBaseline = Double.infinity
        var seekSync = Double.infinity
        var seekBaseline = Double.infinity
        for _ in 0..<max(1, rounds) {
            frameSync = min(frameSync, syncCost(lyric, frames))
            frameBaseline = min(frameBaseline, baselineCost(lyric, frames))
            seekSync = min(seekSync, syncCost(lyric, seeks))
            seekBaseline = min(seekBaseline, baselineCost(lyric, seeks))
        }

        print("  frames  LyricSync.update      \(format(frameSync)) ns/call")
        print(
            "  frames  Lyric.position(at:)   \(format(frameBaseline)) ns/call  (\(format(frameBaseline / frameSync))x)"
        )
        print("  seeks   LyricSync.update      \(format(seekSync)) ns/call")
        print(
            "  seeks   Lyric.position(at:)   \(format(seekBaseline)) ns/call  (\(format(seekBaseline / seekSync))x)"
        )
        print(
            "{\"benchmark\":\"lyric-sync\",\"lines\":\(lineCount),\"words\":\(wordCount),"
                + "\"frames\":\(frames.count),\"seeks\":\(seeks.count),"
                + "\"frameSyncNs\":\(format(frameSync)),\"frameBaselineNs\":\(format(frameBaseline)),"
                + "\"frameSpeedup\":\(format(frameBaseline / frameSync)),"
                + "\"seekSyncNs\":\(format(seekSync)),\"seekBaselineNs\":\(format(seekBaseline)),"
                + "\"seekSpeedup\":\(format(seekBaseline / seekSync))}")
    }

    /// Nanoseconds per `LyricSync.update` over `times`, starting from a fresh sync.
    private static func syncCost(_ lyric: Lyric, _ times: [Int]) -> Double {
        var sync = LyricSync(lyric: lyric)
        var checksum = 0
        let start = ContinuousClock.now
        for ms in times {
            let position = sync.update(milliseconds: ms)
            checksum &+= (position?.lineIndex ?? 0) &+ (position?.wordIndex ?? 0)
        }
        return nanoseconds(since: start, calls: times.count, checksum: checksum)
    }

    /// Nanoseconds per `Lyric.position(at:)` over `times`.
    private static func baselineCost(_ lyric: Lyric, _ times: [Int]) -> Double {
        var checksum = 0
        let start = ContinuousClock.now
        for ms in times {
            let position = lyric.position(at: ms)
            checksum &+= (position?.lineIndex ?? 0) &+ (position?.wordIndex ?? 0)
        }
        return nanoseconds(since: start, calls: times.count, checksum: checksum)
    }

    private static func nanoseconds(since start: ContinuousClock.Instant, calls: Int, checksum: Int) -> Double
    {
        let elapsed = ContinuousClock.now - start
        // Using the checksum keeps the optimizer from dropping the loop.
        if checksum == 42 { print("", terminator: "") }
        let (seconds, attoseconds) = elapsed.components
        return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(max(1, calls))
    }

    /// A KSC script of `lines` lines of 4 to 14 words (CJK characters and `[latin]` words), some
    /// zero-length words, gaps between some lines, like a long karaoke track.
    private static func script(lines: Int) -> String {
        let characters = Array("一时失志不免怨叹爱拼才会赢三分天注定七分靠打拼")
        var random = SplitMix64(seed: 5000)
        var text = "karaoke := CreateKaraokeObject;\n"
        var time = 1000
        for _ in 0..<lines {
            var words = ""
            var durations: [Int] = []
            for _ in 0..<Int.random(in: 4...14, using: &random) {
                if Int.random(in: 0..<8, using: &random) == 0 {
                    words += "[love]"
                } else {
                    words.append(characters[Int.random(in: 0..<characters.count, using: &random)])
                }
                let zero = Int.random(in: 0..<20, using: &random) == 0
                durations.append(zero ? 0 : Int.random(in: 120...600, using: &random))
            }
            let end = time + durations.reduce(0, +)
            text +=
                "karaoke.add('\(clock(time))', '\(clock(end))', '\(words)', "
                + "'\(durations.map(String.init).joined(separator: ","))');\n"
            time = end + [0, 0, 200, 1500][Int.random(in: 0..<4, using: &random)]
        }
        return text
    }

    private static func clock(_ ms: Int) -> String {
        let minutes = ms / 60_000
        let rest = ms % 60_000
        return "\(minutes):" + String(format: "%02d.%03d", rest / 1000, rest % 1000)
    }

    private static func option(_ name: String, in arguments: [String]) -> Int? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return Int(arguments[index + 1])
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    /// A seeded generator, so every run times the same lyric.
    private struct SplitMix64: RandomNumberGenerator {
        var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
