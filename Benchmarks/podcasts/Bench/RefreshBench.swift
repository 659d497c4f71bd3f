import Foundation
import WebFeeds
import WebFetch

/// refresh: refreshes every feed a web server serves from `--root` (nginx in run.sh, which answers 304 to a
/// matching If-None-Match), parsing each that changed, with one `Fetcher`. Before each conditional round,
/// `--changed` feeds get a new episode; the baseline, alternating with it in the same run, fetches and parses
/// every feed without validators (what a reader without conditional GET does). Time, CPU of this process
/// (fetcher thread and parsing), answers by status.
///
///     podcast-bench refresh --base http://127.0.0.2:PORT/ --root DIR [--feeds 1000] [--changed 10] [--rounds 3]
enum RefreshBench {
    struct Pass {
        var seconds = 0.0
        var cpu = 0.0
        var ok = 0
        var notModified = 0
        var items = 0
    }

    static func run(_ arguments: [String]) async throws {
        guard let base = option("--base", in: arguments).flatMap(URL.init(string:)),
            let root = option("--root", in: arguments)
        else {
            print(
                "usage: podcast-bench refresh --base URL --root DIR [--feeds 1000] [--changed 10] [--rounds 3]"
            )
            exit(2)
        }
        let feeds = option("--feeds", in: arguments).flatMap { Int($0) } ?? 1_000
        let changed = option("--changed", in: arguments).flatMap { Int($0) } ?? 10
        let rounds = option("--rounds", in: arguments).flatMap { Int($0) } ?? 3
        let episodes = option("--episodes", in: arguments).flatMap { Int($0) } ?? 50
        let fetcher = Fetcher(
            Fetcher.Configuration(addressRules: AddressRules(allowed: [NetworkRange("127.0.0.0/8")!])))
        let urls = (0..<feeds).map { base.appendingPathComponent("\($0).xml") }
        var validators = [Validators?](repeating: nil, count: feeds)

        // Warm-up: every feed once, for the validators (and the server's and the page cache's warmth).
        _ = try await pass(urls, validators: &validators, fetcher: fetcher, conditional: false)
        var conditionals: [Pass] = []
        var fulls: [Pass] = []
        var revision = 0
        for round in 0..<max(1, rounds) {
            revision += 1
            for index in 0..<changed {
                let number = (round * changed + index) % feeds
                try FeedGenerator.write(
                    FeedGenerator.feed(number: number, episodes: episodes, revision: revision),
                    to: "\(root)/\(number).xml")
            }
            conditionals.append(
                try await pass(urls, validators: &validators, fetcher: fetcher, conditional: true))
            var ignored = validators
            fulls.append(try await pass(urls, validators: &ignored, fetcher: fetcher, conditional: false))
        }
        func median(_ passes: [Pass], _ value: (Pass) -> Double) -> Double {
            let sorted = passes.map(value).sorted()
            return sorted[sorted.count / 2]
        }
        let conditionalTime = median(conditionals, \.seconds)
        let fullTime = median(fulls, \.seconds)
        let conditionalCPU = median(conditionals, \.cpu)
        let fullCPU = median(fulls, \.cpu)
        for (index, conditional) in conditionals.enumerated() {
            print(
                "  round \(index + 1): conditional \(format(conditional.seconds * 1000)) ms, CPU \(format(conditional.cpu * 1000)) ms, "
                    + "\(conditional.notModified) x 304, \(conditional.ok) x 200 (\(conditional.items) items); "
                    + "full \(format(fulls[index].seconds * 1000)) ms, CPU \(format(fulls[index].cpu * 1000)) ms, "
                    + "\(fulls[index].ok) x 200 (\(fulls[index].items) items)")
        }
        print(
            "refresh: \(feeds) feeds, \(changed) changed per round; median of \(rounds): conditional \(format(conditionalTime * 1000)) ms "
                + "(CPU \(format(conditionalCPU * 1000)) ms), full \(format(fullTime * 1000)) ms (CPU \(format(fullCPU * 1000)) ms), "
                + "\(format(fullTime / conditionalTime))x faster, \(format(fullCPU / conditionalCPU))x less CPU"
        )
        let last = conditionals.last!
        print(
            "{\"benchmark\":\"refresh\",\"feeds\":\(feeds),\"changedPerRound\":\(changed),\"rounds\":\(rounds),"
                + "\"conditionalMs\":\(format(conditionalTime * 1000)),\"conditionalCpuMs\":\(format(conditionalCPU * 1000)),"
                + "\"fullMs\":\(format(fullTime * 1000)),\"fullCpuMs\":\(format(fullCPU * 1000)),"
                + "\"speedup\":\(format(fullTime / conditionalTime)),\"cpuRatio\":\(format(fullCPU / conditionalCPU)),"
                + "\"lastRound304\":\(last.notModified),\"lastRound200\":\(last.ok),\"lastRoundItems\":\(last.items)}"
        )
    }

    /// Every feed at once (the fetcher runs 32 at a time); a feed that changed is parsed as it arrives.
    static func pass(_ urls: [URL], validators: inout [Validators?], fetcher: Fetcher, conditional: Bool)
        async throws -> Pass
    {
        let cpuBefore = cpuSeconds()
        let start = ContinuousClock.now
        let sent = validators
        let results = try await withThrowingTaskGroup(of: (Int, FetchHead, Int).self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask {
                    var items = 0
                    let parser = WebFeedParser(url: url) { _ in items += 1 }
                    let head = try await fetcher.fetch(
                        .feed(url, validators: conditional ? sent[index] : nil)
                    ) {
                        try parser.feed($0)
                    }
                    if !head.notModified { _ = try parser.finish() }
                    return (index, head, items)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        var result = Pass()
        result.seconds = seconds(start.duration(to: .now))
        result.cpu = cpuSeconds() - cpuBefore
        for (index, head, items) in results {
            if head.notModified {
                result.notModified += 1
            } else {
                result.ok += 1
                result.items += items
                validators[index] = head.validators
            }
        }
        return result
    }
}
