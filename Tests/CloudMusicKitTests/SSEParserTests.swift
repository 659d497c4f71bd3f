import Foundation
import MusicCore
import Testing

@testable import CloudMusicKit

/// Server-Sent Events as the HTML standard reads them, and the HTTP/1.1 framing under them.
@Suite struct SSEParserTests {
    typealias Event = SSEParser.Event

    static func parse(_ text: String, chunk: Int? = nil) throws -> (events: [Event], parser: SSEParser) {
        var parser = SSEParser()
        let bytes = Array(text.utf8)
        var events: [Event] = []
        let size = chunk ?? max(1, bytes.count)
        for start in stride(from: 0, to: bytes.count, by: size) {
            events += try parser.feed(bytes[start..<min(bytes.count, start + size)])
        }
        return (events, parser)
    }

    @Test func fieldsMakeEventsAtBlankLines() throws {
        let (events, parser) = try Self.parse(
            "retry: 2000\n\nid: 7\nevent: message\ndata: {\"a\":1}\n\nid: 8\nevent: ready\ndata: {}\n\n")
        #expect(
            events == [
                Event(type: "message", data: #"{"a":1}"#, lastEventID: "7"),
                Event(type: "ready", data: "{}", lastEventID: "8"),
            ])
        #expect(parser.retry == 2000)
        #expect(parser.lastEventID == "8")
    }

    @Test func dataLinesJoinWithLineFeedsAndTheTypeDefaultsToMessage() throws {
        let (events, _) = try Self.parse("data: first\ndata:second\ndata:  third\ndata\n\n")
        #expect(events == [Event(type: "message", data: "first\nsecond\n third\n")])
    }

    @Test func everyLineEndingAndAnyCutGiveTheSameEvents() throws {
        let lf = "id: 1\nevent: read\ndata: x\n\n: ping\n\nevent: queue\ndata: y\ndata: z\n\n"
        let expected = try Self.parse(lf).events
        #expect(expected.count == 2)
        for text in [
            lf, lf.replacingOccurrences(of: "\n", with: "\r\n"),
            lf.replacingOccurrences(of: "\n", with: "\r"),
        ] {
            for chunk in [1, 2, 3, 5, 7, 1000] {
                #expect(try Self.parse(text, chunk: chunk).events == expected, "chunk \(chunk)")
            }
        }
        // A CR that ends one read and the LF that starts the next are one line end, not a blank line.
        var parser = SSEParser()
        #expect(try parser.feed(Array("data: a\r".utf8)) == [])
        #expect(try parser.feed(Array("\ndata: b\r\n\r\n".utf8)) == [Event(data: "a\nb")])
    }

    @Test func commentsAreCountedAndIgnored() throws {
        let (events, parser) = try Self.parse(": ping\n\n:\n\n: another\ndata: after\n\n")
        #expect(events == [Event(data: "after")])
        #expect(parser.comments == 3)
    }

    @Test func theLastEventIDStaysUntilChangedAndAnIDWithNULIsIgnored() throws {
        let (events, parser) = try Self.parse(
            "id: 5\ndata: a\n\ndata: b\n\nid: 6\u{0}x\ndata: c\n\nid\ndata: d\n\n")
        #expect(events.map(\.lastEventID) == ["5", "5", "5", ""])
        #expect(parser.lastEventID == "")
    }

    @Test func anEventWithoutDataIsNotDispatchedButItsIDCounts() throws {
        let (events, parser) = try Self.parse("id: 9\nevent: ready\n\n")
        #expect(events.isEmpty)
        #expect(parser.lastEventID == "9")
    }

    @Test func retryTakesOnlyDigitsAndUnknownFieldsAreIgnored() throws {
        #expect(try Self.parse("retry: 1500\n\n").parser.retry == 1500)
        #expect(try Self.parse("retry: 15s\n\n").parser.retry == nil)
        #expect(try Self.parse("retry:\n\n").parser.retry == nil)
        #expect(try Self.parse("colour: red\ndata: x\n\n").events == [Event(data: "x")])
    }

    @Test func aByteOrderMarkAtTheStartIsDroppedAndUTF8CutAnywhereReadsWhole() throws {
        let text = "\u{FEFF}data: 晴天 🎵\n\n"
        for chunk in 1...4 {
            #expect(try Self.parse(text, chunk: chunk).events == [Event(data: "晴天 🎵")])
        }
        var parser = SSEParser()
        #expect(
            try parser.feed([0x64, 0x61, 0x74, 0x61, 0x3A, 0xFF, 0x0A, 0x0A]) == [Event(data: "\u{FFFD}")])
    }

    @Test func anEventCutOffByTheEndIsDroppedAfterAReset() throws {
        var parser = SSEParser()
        #expect(try parser.feed(Array("id: 3\ndata: half".utf8)) == [])
        parser.reset()
        #expect(try parser.feed(Array("data: whole\n\n".utf8)) == [Event(data: "whole", lastEventID: "")])
        // The id of a completed event survives a reset; the half-read one's does not count.
        var second = SSEParser()
        _ = try second.feed(Array("id: 4\ndata: x\n\nid: 5\ndata: cut".utf8))
        second.reset()
        #expect(second.lastEventID == "4")
    }

    @Test func aLineOrEventTooLargeIsRefused() {
        var parser = SSEParser(maximumSize: 16)
        #expect(throws: SSEParser.TooLarge.self) {
            try parser.feed(Array(String(repeating: "x", count: 40).utf8))
        }
        var data = SSEParser(maximumSize: 16)
        #expect(throws: SSEParser.TooLarge.self) {
            try data.feed(Array("data: 0123456789\ndata: 0123456789\n".utf8))
        }
    }

    // MARK: HTTP framing

    static func read(_ text: String, chunk: Int) throws -> [HTTPResponseReader.Output] {
        var reader = HTTPResponseReader()
        let bytes = Array(text.utf8)
        var outputs: [HTTPResponseReader.Output] = []
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            outputs += try reader.feed(bytes[start..<min(bytes.count, start + chunk)])
        }
        return outputs
    }

    static func body(_ outputs: [HTTPResponseReader.Output]) -> String {
        String(
            decoding: outputs.flatMap { output -> [UInt8] in
                if case .body(let bytes) = output { return bytes }
                return []
            }, as: UTF8.self)
    }

    @Test func aChunkedBodyIsJoinedWhateverTheCuts() throws {
        let answer =
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "d\r\nretry: 2000\n\n\r\n" + "1D;ext=1\r\nid: 1\nevent: ready\ndata: {}\n\n\r\n" + "0\r\n\r\n"
        for chunk in [1, 2, 3, 10, 1000] {
            let outputs = try Self.read(answer, chunk: chunk)
            guard case .head(let head) = outputs.first else {
                Issue.record("no head")
                return
            }
            #expect(head.status == 200)
            #expect(head.headers["content-type"] == "text/event-stream")
            #expect(
                Self.body(outputs) == "retry: 2000\n\nid: 1\nevent: ready\ndata: {}\n\n", "chunk \(chunk)")
            #expect(outputs.last == .end)
        }
    }

    @Test func aLengthEndsTheBodyAndAnInformationalAnswerIsSkipped() throws {
        let answer =
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 401 Unauthorized\r\nContent-Length: 13\r\n\r\n"
            + #"{"status":401}"#.prefix(13)
        let outputs = try Self.read(String(answer), chunk: 4)
        #expect(outputs.first == .head(.init(status: 401, headers: ["content-length": "13"])))
        #expect(Self.body(outputs) == #"{"status":401"#)
        #expect(outputs.last == .end)
        var reader = HTTPResponseReader()
        #expect(throws: HTTPResponseReader.Failure.self) { try reader.feed(Array("SMTP ready\r\n\r\n".utf8)) }
        var chunks = HTTPResponseReader()
        #expect(throws: HTTPResponseReader.Failure.self) {
            try chunks.feed(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n".utf8))
        }
    }

    // MARK: Typed events

    @Test func eventsDecodeToTheirPayloadsAndUnknownOnesAreSkipped() throws {
        let message = try #require(
            EventStream.decode(
                Event(
                    type: "message",
                    data:
                        #"{"message":{"content":"hi","conversationId":"1","createdAt":"2026-12-01T21:57:09Z","id":"1","kind":"text","sender":{"id":"1","nickname":"ann"},"updatedAt":"2026-12-01T21:57:09Z"},"unreadCount":1}"#,
                    lastEventID: "1")))
        guard case .message(let event) = message else {
            Issue.record("not a message: \(message)")
            return
        }
        #expect(
            event.message.content == "hi" && event.unreadCount == 1 && event.message.sender.nickname == "ann")
        #expect(
            EventStream.decode(Event(type: "ready", data: #"{"lastEventId":"6"}"#))
                == .ready(lastEventID: "6"))
        #expect(EventStream.decode(Event(type: "reload", data: "{}")) == .reload)
        #expect(EventStream.decode(Event(type: "replaced", data: "{}")) == .replaced)
        #expect(
            EventStream.decode(Event(type: "likes", data: #"{"songId":"4","liked":true}"#))
                == .likes(LikesEvent(songId: "4", liked: true)))
        #expect(EventStream.decode(Event(type: "party", data: "{}")) == nil)
        #expect(EventStream.decode(Event(type: "read", data: "not json")) == nil)
    }

    @Test func reconnectionsWaitLongerEachTimeWithJitterUpToTheCap() {
        var configuration = EventStream.Configuration()
        configuration.retryDelay = 1
        configuration.maxRetryDelay = 30
        let stream = EventStream(
            client: APIClient(baseURL: URL(string: "http://127.0.0.1:9/")!), configuration: configuration)
        for failures in 0..<12 {
            let full = min(30, pow(2, Double(failures)))
            for _ in 0..<20 {
                let delay = stream.retryDelay(after: failures)
                #expect(delay >= full / 2 && delay <= full, "after \(failures): \(delay)")
            }
        }
        let delays = Set((0..<50).map { _ in stream.retryDelay(after: 3) })
        #expect(delays.count > 10)
    }
}
