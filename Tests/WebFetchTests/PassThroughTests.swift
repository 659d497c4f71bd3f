import Foundation
import OriginTestSupport
import ServerTestSupport
import Testing

@testable import WebFetch

@Suite struct PassThroughTests {
    /// The bytes origin.py's /bytes serves: i % 251.
    static func expected(_ range: ClosedRange<Int>) -> Data { Data(range.map { UInt8($0 % 251) }) }

    @Test func aRangeIsForwardedAndTheOriginsAnswerPassedOn() async throws {
        let origin = try await FeedOrigin.start()
        let url = origin.url("/bytes?size=100000")
        let response = try await originFetcher().open(.stream(url, range: "bytes=10-19"))
        #expect(response.status == 206)
        #expect(response.head.headers["Content-Range"] == "bytes 10-19/100000")
        #expect(try await response.body.collect() == Self.expected(10...19))
        let headers = Dictionary(response.head.passThroughHeaders, uniquingKeysWith: { first, _ in first })
        #expect(headers["Content-Type"] == "audio/mpeg")
        #expect(headers["Content-Range"] == "bytes 10-19/100000")
        #expect(headers["Content-Length"] == "10")
        #expect(headers["Accept-Ranges"] == "bytes")
        #expect(headers["X-Content-Type-Options"] == "nosniff")

        let tail = try await originFetcher().open(.stream(url, range: "bytes=-5"))
        #expect(try await tail.body.collect() == Self.expected(99995...99999))
        let beyond = try await originFetcher().open(.stream(url, range: "bytes=200000-"))
        #expect(beyond.status == 416)
    }

    @Test func aStaleIfRangeGetsTheWholeFileAndAnInvalidRangeIsNotForwarded() async throws {
        let origin = try await FeedOrigin.start()
        let url = origin.url("/bytes?size=1000")
        let stale = try await originFetcher().open(.stream(url, range: "bytes=10-19", ifRange: "\"other\""))
        #expect(stale.status == 200)
        #expect(try await stale.body.collect() == Self.expected(0...999))
        let current = try await originFetcher().open(
            .stream(url, range: "bytes=10-19", ifRange: "\"bytes-1000\""))
        #expect(current.status == 206)
        for invalid in ["items=1-2", "bytes=", "bytes=a-b", "bytes=1-2\r\nX: y", "bytes=-"] {
            let response = try await originFetcher().open(.stream(url, range: invalid))
            #expect(response.status == 200, "\(invalid)")
            response.body.cancel()
        }
    }

    @Test func aPageIsNeverPassedOnAsAPage() async throws {
        let origin = try await FeedOrigin.start()
        for type in ["text/html", "image/svg+xml", "application/xhtml+xml", "text/javascript"] {
            let escaped = type.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let response = try await originFetcher().open(
                .stream(origin.url("/bytes?size=10&type=\(escaped)"), range: nil))
            let headers = Dictionary(
                response.head.passThroughHeaders, uniquingKeysWith: { first, _ in first })
            #expect(headers["Content-Type"] == "application/octet-stream", "\(type)")
            response.body.cancel()
        }
    }

    @Test func aLongBodyComesWholeAndInOrderToASlowerReader() async throws {
        let origin = try await FeedOrigin.start()
        let response = try await originFetcher().open(.stream(origin.url("/bytes?size=3000000"), range: nil))
        var received = Data()
        for try await chunk in response.body {
            received.append(chunk)
            await Task.yield()
        }
        #expect(received == Self.expected(0...2_999_999))
    }
}

@Suite struct DownloadTests {
    @Test func aDownloadLandsWholeUnderItsName() async throws {
        let origin = try await FeedOrigin.start()
        let folder = URL(fileURLWithPath: temporaryFolder())
        let head = try await originFetcher().download(
            FetchRequest(origin.url("/bytes?size=200000"), subject: "episode", limits: .download),
            into: folder,
            as: "episode.mp3")
        #expect(head.status == 200)
        #expect(
            try Data(contentsOf: folder.appendingPathComponent("episode.mp3"))
                == PassThroughTests.expected(0...199_999))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["episode.mp3"])
    }

    @Test func aDownloadThatFailsLeavesNothing() async throws {
        let origin = try await FeedOrigin.start()
        let folder = URL(fileURLWithPath: temporaryFolder())
        var request = FetchRequest(
            origin.url("/big?bytes=50000000&length=none"), subject: "episode", limits: .download)
        request.limits.maxBytes = 5_000_000
        let error = await #expect(throws: FetchError.self) {
            _ = try await originFetcher().download(request, into: folder, as: "episode.mp3")
        }
        #expect(error?.message == "The episode is larger than 5 MB.")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test(arguments: ["../escape.mp3", "a/b.mp3", "", "..", ".partial-x"])
    func aNameThatIsNotPlainIsRefused(_ name: String) async throws {
        let origin = try await FeedOrigin.start()
        let folder = URL(fileURLWithPath: temporaryFolder())
        let error = await #expect(throws: FetchError.self) {
            _ = try await originFetcher().download(
                FetchRequest(origin.url("/bytes?size=10")), into: folder, as: name)
        }
        #expect(error.map { if case .file = $0.reason { true } else { false } } == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
