import Foundation
import OriginTestSupport
import ServerTestSupport
import Testing

@testable import WebFetch

/// A fetcher that may reach the test origin (127.0.0.2) and nothing else restricted.
func originFetcher(_ configure: (inout Fetcher.Configuration) -> Void = { _ in }) -> Fetcher {
    var configuration = Fetcher.Configuration(
        addressRules: AddressRules(allowed: [NetworkRange(FeedOrigin.host)!]))
    configure(&configuration)
    return Fetcher(configuration)
}

extension FetchRequest {
    /// Without its total time limit: for tests of other limits, which must hold however busy the machine is.
    var untimed: FetchRequest {
        var request = self
        request.limits.totalTimeout = nil
        return request
    }
}

func unique(_ name: String) -> String { "\(UUID().uuidString.prefix(8))-\(name)" }

@Suite struct FetcherTests {
    @Test func loopbackIsRefusedUnlessTheAllowListPermitsIt() async throws {
        let origin = try await FeedOrigin.start()
        let name = unique("feed.xml")
        let url = try origin.put(name, "<rss/>")
        let error = await #expect(throws: FetchError.self) { _ = try await Fetcher().open(.feed(url)) }
        #expect(error?.reason == .restrictedAddress(IPAddress("127.0.0.2")!, .loopback))
        #expect(
            error?.message
                == "The feed's address points to this machine (127.0.0.2); an administrator can allow it.")
        #expect(try await origin.stats().requests("/docs/\(name)") == 0)

        let allowed = try await originFetcher().open(.feed(url))
        #expect(allowed.status == 200)
        #expect(try await allowed.body.collect() == Data("<rss/>".utf8))
    }

    @Test func anUnchangedDocumentCostsA304WithoutABody() async throws {
        let origin = try await FeedOrigin.start()
        let fetcher = originFetcher()
        let name = unique("feed.xml")
        let url = try origin.put(name, "<rss version='2.0'>first</rss>")
        var received = Data()
        let first = try await fetcher.fetch(.feed(url)) { received.append($0) }
        #expect(first.status == 200)
        #expect(received == Data("<rss version='2.0'>first</rss>".utf8))
        let validators = first.validators
        #expect(validators.etag?.isEmpty == false)
        #expect(validators.lastModified == "Tue, 14 Nov 2023 22:13:20 GMT")

        var again = Data()
        let second = try await fetcher.fetch(.feed(url, validators: validators)) { again.append($0) }
        #expect(second.notModified)
        #expect(again.isEmpty)
        let byDate = try await fetcher.fetch(
            .feed(url, validators: Validators(lastModified: validators.lastModified))
        ) {
            _ in
        }
        #expect(byDate.notModified)

        try origin.put(name, "<rss version='2.0'>second</rss>")
        var changed = Data()
        let third = try await fetcher.fetch(.feed(url, validators: validators)) { changed.append($0) }
        #expect(third.status == 200)
        #expect(changed == Data("<rss version='2.0'>second</rss>".utf8))
        #expect(third.validators.etag != validators.etag)
        #expect(try await origin.stats().requests("/docs/\(name)") == 4)
    }

    @Test func aValidatorThatWouldAddHeadersIsNotSent() async throws {
        let origin = try await FeedOrigin.start()
        let url = try origin.put(unique("feed.xml"), "<rss/>")
        let fetcher = originFetcher()
        let first = try await fetcher.fetch(.feed(url)) { _ in }
        let forged = Validators(etag: first.validators.etag! + "\r\nX-Injected: 1")
        let second = try await fetcher.fetch(.feed(url, validators: forged)) { _ in }
        #expect(second.status == 200)
    }

    @Test func connectionsAreReused() async throws {
        let origin = try await FeedOrigin.start()
        let name = unique("feed.xml")
        let url = try origin.put(name, "<rss/>")
        let fetcher = originFetcher()
        for _ in 0..<20 { _ = try await fetcher.fetch(.feed(url)) { _ in } }
        #expect(try await origin.stats().connections("/docs/\(name)") == 1)
    }

    @Test func manyFetchesAtOnceWaitTheirTurn() async throws {
        let origin = try await FeedOrigin.start()
        let name = unique("feed.xml")
        let url = try origin.put(name, String(repeating: "<item/>", count: 1000))
        let fetcher = originFetcher { $0.maxConcurrentTransfers = 4 }
        let sizes = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<200 {
                group.addTask { try await fetcher.open(.feed(url)).body.collect().count }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(sizes.count == 200 && sizes.allSatisfy { $0 == 7000 })
        let stats = try await origin.stats()
        #expect(stats.requests("/docs/\(name)") == 200)
        #expect(
            stats.connections("/docs/\(name)") <= 4,
            "200 fetches, 4 at a time, used \(stats.connections("/docs/\(name)")) connections")
    }

    @Test func redirectsAreFollowedAndCounted() async throws {
        let origin = try await FeedOrigin.start()
        let fetcher = originFetcher()
        let response = try await fetcher.open(.feed(origin.url("/chain/3")))
        #expect(response.status == 200)
        #expect(response.head.url == origin.url("/chain/0"))
        #expect(response.head.movedTo == nil)

        let error = await #expect(throws: FetchError.self) {
            _ = try await fetcher.open(.feed(origin.url("/chain/6")))
        }
        #expect(error?.reason == .tooManyRedirects(6))
        #expect(error?.message == "Too many redirects (6) for the feed; at most 5 are followed.")
        let five = try await fetcher.open(.feed(origin.url("/chain/5")))
        #expect(five.status == 200)

        let loop = await #expect(throws: FetchError.self) {
            _ = try await fetcher.open(.feed(origin.url("/loop/a")))
        }
        #expect(loop?.reason == .redirectLoop(origin.url("/loop/a")))
    }

    @Test func aPermanentMoveIsReported() async throws {
        let origin = try await FeedOrigin.start()
        let fetcher = originFetcher()
        let target = try origin.put(unique("moved.xml"), "<rss/>")
        let permanent = try await fetcher.open(
            .feed(origin.url("/redirect?status=301&to=\(target.path)")))
        #expect(permanent.head.movedTo == target)
        #expect(permanent.head.url == target)
        let temporary = try await fetcher.open(.feed(origin.url("/redirect?status=302&to=\(target.path)")))
        #expect(temporary.head.movedTo == nil)
        // Permanent, then temporary: the feed moved to the first target, which now redirects for a while.
        let first = "/redirect?status=302%26to=\(target.path)"
        let mixed = try await fetcher.open(.feed(origin.url("/redirect?status=308&to=\(first)")))
        #expect(mixed.head.movedTo == origin.url("/redirect?status=302&to=\(target.path)"))
        #expect(mixed.head.url == target)
    }

    @Test(arguments: [
        ("http://127.0.0.1:PORT/x", AddressRules.Restriction.loopback),
        ("http://localhost:PORT/x", .loopback),
        ("http://[::ffff:127.0.0.1]:PORT/x", .loopback),
        ("http://2130706433:PORT/x", .loopback),
        ("http://169.254.169.254/latest/meta-data/", .metadata),
        ("http://10.0.0.5/feed", .privateNetwork),
        ("http://[fd00::5]/feed", .privateNetwork),
    ])
    func aRedirectIntoARestrictedAddressIsRefused(_ target: String, _ restriction: AddressRules.Restriction)
        async throws
    {
        let origin = try await FeedOrigin.start()
        let to = target.replacingOccurrences(of: "PORT", with: String(origin.forbiddenPort))
        let escaped = to.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let before = try await origin.stats().forbiddenRequests
        let error = await #expect(throws: FetchError.self) {
            _ = try await originFetcher().open(.feed(origin.url("/redirect?status=302&to=\(escaped)")))
        }
        guard case .restrictedAddress(let address, let found) = error?.reason else {
            Issue.record("refused for another reason: \(String(describing: error))")
            return
        }
        #expect(found == restriction)
        #expect(error?.message.contains("(\(address)); an administrator can allow it.") == true)
        #expect(try await origin.stats().forbiddenRequests == before)
    }

    @Test(arguments: [
        "file:///etc/passwd", "gopher://127.0.0.2:70/x", "ftp://example.com/feed", "dict://x:11211/",
    ])
    func onlyHttpAndHttpsAreFetchedEvenAfterARedirect(_ target: String) async throws {
        let origin = try await FeedOrigin.start()
        let scheme = String(target.prefix { $0 != ":" })
        let direct = await #expect(throws: FetchError.self) {
            _ = try await originFetcher().open(.feed(URL(string: target)!))
        }
        #expect(direct?.reason == .unsupportedScheme(scheme))
        let escaped = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let redirected = await #expect(throws: FetchError.self) {
            _ = try await originFetcher().open(.feed(origin.url("/redirect?to=\(escaped)")))
        }
        #expect(redirected?.reason == .unsupportedScheme(scheme))
        #expect(
            redirected?.message
                == "The feed's address uses \(scheme):, and only http and https addresses are fetched.")
    }

    @Test(arguments: ["true", "none", "chunked"])
    func aBodyPastTheLimitIsCutOff(_ length: String) async throws {
        let origin = try await FeedOrigin.start()
        let error = await #expect(throws: FetchError.self) {
            _ = try await originFetcher().fetch(
                .feed(origin.url("/big?bytes=50000000&length=\(length)")).untimed
            ) {
                _ in
            }
        }
        #expect(error?.reason == .tooLarge(limit: 10_000_000))
        #expect(error?.message == "The feed is larger than 10 MB.")
    }

    @Test func aCompressedBombIsCountedAsItUnpacks() async throws {
        let origin = try await FeedOrigin.start()
        var received = 0
        let error = await #expect(throws: FetchError.self) {
            _ = try await originFetcher().fetch(.feed(origin.url("/bomb?bytes=50000000")).untimed) {
                received += $0.count
            }
        }
        #expect(error?.reason == .tooLarge(limit: 10_000_000))
        #expect(received <= 10_000_000)
    }

    @Test func aContentLengthThatLiesShortGivesOnlyWhatItAnnounced() async throws {
        let origin = try await FeedOrigin.start()
        var received = 0
        _ = try await originFetcher().fetch(.feed(origin.url("/big?bytes=5000000&length=small")).untimed) {
            received += $0.count
        }
        #expect(received == 1000)
    }

    @Test func headersPastTheLimitAreRefused() async throws {
        let origin = try await FeedOrigin.start()
        let error = await #expect(throws: FetchError.self) {
            _ = try await originFetcher().open(.feed(origin.url("/fatheaders")))
        }
        #expect(error?.reason == .headersTooLarge(limit: 64_000))
    }

    @Test func aServerThatDripsIsCutOffByTheLowSpeedLimit() async throws {
        let origin = try await FeedOrigin.start()
        var request = FetchRequest.feed(origin.url("/slow?bytes=100000&rate=100"))
        request.limits.lowSpeed = .init(bytesPerSecond: 1_000, seconds: 2)
        let error = await #expect(throws: FetchError.self) {
            _ = try await originFetcher().fetch(request) { _ in }
        }
        #expect(error?.reason == .tooSlow(bytesPerSecond: 1_000, seconds: 2))
        #expect(error?.message == "The feed's server (127.0.0.2) sent less than 1 KB/s for 2 s.")

        var stalled = FetchRequest.feed(origin.url("/stall?after=head"))
        stalled.limits.lowSpeed = .init(bytesPerSecond: 1_000, seconds: 2)
        let stall = await #expect(throws: FetchError.self) {
            _ = try await originFetcher().fetch(stalled) { _ in }
        }
        #expect(stall?.reason == .tooSlow(bytesPerSecond: 1_000, seconds: 2))
    }

    @Test func aServerThatNeverAnswersHitsTheTotalLimit() async throws {
        let origin = try await FeedOrigin.start()
        var request = FetchRequest.feed(origin.url("/stall?after=nothing"))
        request.limits.totalTimeout = 2
        request.limits.lowSpeed = nil
        let error = await #expect(throws: FetchError.self) {
            _ = try await originFetcher().fetch(request) { _ in }
        }
        #expect(error?.reason == .timeout(seconds: 2))
        #expect(error?.message == "The feed took longer than 2 s to download from 127.0.0.2.")
    }

    @Test func aServerThatNeverAcceptsHitsTheConnectLimit() async throws {
        let listener = try FullListener()
        defer { listener.close() }
        var request = FetchRequest.feed(URL(string: "http://\(FeedOrigin.host):\(listener.port)/feed")!)
        request.limits.connectTimeout = 1
        let error = await #expect(throws: FetchError.self) { _ = try await originFetcher().open(request) }
        #expect(error?.reason == .connectTimeout(seconds: 1))
    }

    @Test func statusesAreReturnedByOpenAndThrownByFetch() async throws {
        let origin = try await FeedOrigin.start()
        let response = try await originFetcher().open(.feed(origin.url("/status/404")))
        #expect(response.status == 404)
        let error = await #expect(throws: FetchError.self) {
            _ = try await originFetcher().fetch(.feed(origin.url("/status/404"))) { _ in }
        }
        #expect(error?.message == "The feed's server (127.0.0.2) answered 404 (Not Found).")
    }

    @Test func addressesThatAreNotWebAddressesAreRefusedBeforeAnyConnection() async throws {
        let noHost = await #expect(throws: FetchError.self) {
            _ = try await Fetcher().open(.feed(URL(string: "http:///feed")!))
        }
        #expect(noHost.map { if case .invalidAddress = $0.reason { true } else { false } } == true)
        let unknown = await #expect(throws: FetchError.self) {
            _ = try await Fetcher().open(.feed(URL(string: "http://no-such-host.invalid/")!))
        }
        // A machine whose DNS server does not answer times out looking the name up instead.
        #expect(
            unknown?.reason == .unknownHost("no-such-host.invalid")
                || unknown?.reason == .connectTimeout(seconds: 10))
    }

    @Test func aReaderThatStopsEndsTheTransfer() async throws {
        let origin = try await FeedOrigin.start()
        let fetcher = originFetcher()
        let response = try await fetcher.open(.feed(origin.url("/stall?after=head")))
        var iterator = response.body.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first == Data("<rss>".utf8))
        let reading = Task { try await iterator.next() }
        reading.cancel()
        await #expect(throws: CancellationError.self) { try await reading.value }
    }
}

/// A listener whose queue is full, so that a connection to it is never accepted (its SYNs are dropped).
struct FullListener {
    let descriptor: Int32
    let port: Int
    private let fillers: [Int32]

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, FeedOrigin.host, &address.sin_addr)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 0) == 0 else { throw FixtureError(message: "listen failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        self.port = port
        // Two connections fill a queue of length 0 (Linux takes one more than asked).
        var fillers: [Int32] = []
        for _ in 0..<3 {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            fillers.append(filler)
        }
        self.fillers = fillers
    }

    func close() {
        for filler in fillers { _ = Glibc.close(filler) }
        _ = Glibc.close(descriptor)
    }
}
