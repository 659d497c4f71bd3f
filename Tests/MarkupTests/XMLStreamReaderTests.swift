import Foundation
import OriginTestSupport
import Testing

@testable import Markup

/// Records a document's events as lines: "<prefix:name ns attr=value>", "text", "</name>".
final class Recorder: XMLEventHandler {
    var events: [String] = []
    private var text = ""
    var failAt: String?

    struct Stop: Error, Equatable {}

    func startElement(_ name: XMLName, attributes: [XMLAttribute]) throws {
        flush()
        if name.local == failAt { throw Stop() }
        var line = "<\(name)"
        if let namespace = name.namespace { line += " {\(namespace)}" }
        for attribute in attributes { line += " \(attribute.name)=\(attribute.value)" }
        events.append(line + ">")
    }

    func endElement(_ name: XMLName) throws {
        flush()
        events.append("</\(name)>")
    }

    func characters(_ bytes: UnsafeRawBufferPointer) throws { text += String(decoding: bytes, as: UTF8.self) }

    private func flush() {
        if !text.isEmpty { events.append(text) }
        text = ""
    }

    /// Reads `document` in chunks of `chunk` bytes.
    static func read(_ document: Data, chunk: Int = 1 << 20, limits: XMLLimits = XMLLimits()) throws
        -> [String]
    {
        let recorder = Recorder()
        let reader = XMLStreamReader(handler: recorder, limits: limits)
        var offset = 0
        while offset < document.count {
            try reader.feed(document.subdata(in: offset..<min(document.count, offset + chunk)))
            offset += chunk
        }
        try reader.finish()
        recorder.flush()
        return recorder.events
    }

    static func read(_ document: String, chunk: Int = 1 << 20) throws -> [String] {
        try read(Data(document.utf8), chunk: chunk)
    }
}

@Suite struct XMLStreamReaderTests {
    static let sample = """
        <?xml version="1.0" encoding="UTF-8"?>
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
        <channel><title>A &amp; B &lt;3 &#233;</title>
        <itunes:image href="http://x.example/a.jpg?a=1&amp;b=2"/>
        <description><![CDATA[<p>Hello & <b>world</b></p>]]></description>
        </channel></rss>
        """

    @Test func eventsComeInOrderWithNamespacesAndDecodedValues() throws {
        let events = try Recorder.read(Self.sample)
        #expect(
            events.contains(
                "<itunes:image {http://www.itunes.com/dtds/podcast-1.0.dtd} href=http://x.example/a.jpg?a=1&b=2>"
            ))
        #expect(events.contains("A & B <3 é"))
        #expect(events.contains("<p>Hello & <b>world</b></p>"))
        #expect(events.first == "<rss version=2.0>")
        #expect(events.last == "</rss>")
    }

    @Test func chunkBoundariesChangeNothing() throws {
        let whole = try Recorder.read(Self.sample)
        for size in [1, 2, 3, 7, 64] {
            #expect(try Recorder.read(Data(Self.sample.utf8), chunk: size) == whole, "chunks of \(size)")
        }
    }

    @Test func htmlEntitiesThatXMLDoesNotDefineAreRead() throws {
        let document =
            "<rss><title>a&nbsp;b &eacute;t&eacute; &mdash; &hellip;&amp;</title><x a=\"&copy;\"/></rss>"
        for size in [1, 3, 1000] {
            let events = try Recorder.read(Data(document.utf8), chunk: size)
            #expect(events.contains("a\u{A0}b été — …&"), "chunks of \(size)")
            #expect(events.contains("<x a=©>"))
        }
    }

    @Test func anUnknownEntityIsRefusedWithWhereItIs() {
        let error = #expect(throws: XMLError.self) {
            _ = try Recorder.read("<rss>\n<title>a &bogus; b</title></rss>")
        }
        #expect(
            error?.message
                == "The document is not well-formed XML: Entity 'bogus' not defined (line 2, column 17).")
    }

    @Test func malformedDocumentsAreRefusedWithWhereAndWhy() {
        let mismatch = #expect(throws: XMLError.self) {
            _ = try Recorder.read("<rss><channel>\n<item></channel></rss>")
        }
        #expect(
            mismatch?.message.hasPrefix(
                "The document is not well-formed XML: Opening and ending tag mismatch") == true)
        #expect(mismatch?.message.contains("(line 2,") == true)
        let truncated = #expect(throws: XMLError.self) { _ = try Recorder.read("<rss><channel><title>cut") }
        #expect(truncated.map { if case .malformed = $0.reason { true } else { false } } == true)
        #expect(#expect(throws: XMLError.self) { _ = try Recorder.read("") }?.reason == .empty)
        #expect(
            #expect(throws: XMLError.self) { _ = try Recorder.read("not xml at all") }.map {
                if case .malformed = $0.reason { true } else { false }
            } == true)
    }

    @Test func billionLaughsIsRefusedAtItsFirstDeclaration() throws {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [
             <!ENTITY lol "lol">
             <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
             <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
             <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
             <!ENTITY lol9 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
            ]>
            """
        // Refused while the declarations are read: the document that would use them never arrives.
        let recorder = Recorder()
        let reader = XMLStreamReader(handler: recorder)
        let error = #expect(throws: XMLError.self) { try reader.feed(Data(laughs.utf8)) }
        #expect(error?.reason == .declaresEntities("lol"))
        #expect(error?.message.contains("declares XML entities (lol)") == true)
        #expect(recorder.events.isEmpty)
    }

    @Test func externalEntitiesAreRefusedAndNeverRead() throws {
        let xxe = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <rss><channel><title>&xxe;</title></channel></rss>
            """
        #expect(
            #expect(throws: XMLError.self) { _ = try Recorder.read(xxe) }?.reason == .declaresEntities("xxe"))
        let unparsed = "<!DOCTYPE x [<!ENTITY pic SYSTEM \"file:///etc/passwd\" NDATA gif>]><x/>"
        #expect(
            #expect(throws: XMLError.self) { _ = try Recorder.read(unparsed) }?.reason
                == .declaresEntities("pic"))
    }

    @Test func externalDTDsAndParameterEntitiesAreNeverFetched() async throws {
        let origin = try await FeedOrigin.start()
        let dtdName = "\(UUID().uuidString.prefix(8)).dtd"
        let dtd = try origin.put(dtdName, "<!ENTITY secret SYSTEM \"file:///etc/passwd\">")
        let withDTD = "<!DOCTYPE rss SYSTEM \"\(dtd.absoluteString)\"><rss><title>a &secret; b</title></rss>"
        let events = try Recorder.read(withDTD)
        // The DTD is not read, so the entity it would declare is unknown (skipped, as the DTD might have said).
        #expect(events == ["<rss>", "<title>", "a  b", "</title>", "</rss>"])
        let parameter = "<!DOCTYPE rss [<!ENTITY % remote SYSTEM \"\(dtd.absoluteString)\"> %remote;]><rss/>"
        #expect(
            #expect(throws: XMLError.self) { _ = try Recorder.read(parameter) }?.reason
                == .declaresEntities("remote"))
        let local = "<!DOCTYPE rss SYSTEM \"file:///etc/passwd\"><rss><t>&x;</t></rss>"
        #expect(try Recorder.read(local).joined().contains("root:") == false)
        #expect(try await origin.stats().requests("/docs/\(dtdName)") == 0)
    }

    @Test func xincludeIsJustAnElement() throws {
        let document =
            "<rss xmlns:xi=\"http://www.w3.org/2001/XInclude\"><xi:include href=\"file:///etc/passwd\" parse=\"text\"/></rss>"
        let events = try Recorder.read(document)
        #expect(events.count == 4)
        #expect(!events.joined().contains("root:"))
    }

    @Test func depthAndSizeAreLimited() {
        let deep = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        #expect(#expect(throws: XMLError.self) { _ = try Recorder.read(deep) }?.reason == .tooDeep(limit: 64))
        let large = Data(("<rss>" + String(repeating: "<i>x</i>", count: 200_000) + "</rss>").utf8)
        let error = #expect(throws: XMLError.self) {
            _ = try Recorder.read(large, chunk: 65_536, limits: XMLLimits(maxBytes: 1_000_000))
        }
        #expect(error?.reason == .tooLarge(limit: 1_000_000))
        #expect(error?.message == "The document is larger than 1 MB.")
    }

    @Test func declaredEncodingsAreRead() throws {
        let chinese = "<?xml version=\"1.0\" encoding=\"GB2312\"?><rss><title>中文播客：第一集</title></rss>"
        let gb = try #require(chinese.data(using: String.Encoding(rawValue: 0x8000_0632)))  // GB 18030
        #expect(try Recorder.read(gb, chunk: 5).contains("中文播客：第一集"))
        let latin =
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss><title>Caf\u{E9} &amp; cr\u{E8}me</title></rss>"
        #expect(
            try Recorder.read(try #require(latin.data(using: .isoLatin1)), chunk: 3).contains("Café & crème"))
        let utf16 = try #require(
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss><t>日本&amp;語</t></rss>".data(using: .utf16))
        #expect(try Recorder.read(utf16, chunk: 7).contains("日本&語"))
    }

    @Test func aHandlersErrorStopsTheReadingAndComesBackAsItIs() {
        let recorder = Recorder()
        recorder.failAt = "stop"
        let reader = XMLStreamReader(handler: recorder)
        #expect(throws: Recorder.Stop()) { try reader.feed(Data("<a><b/><stop/><c/></a>".utf8)) }
        #expect(recorder.events == ["<a>", "<b>", "</b>"])
    }
}

@Suite struct HTMLReaderTests {
    final class Recorder: HTMLEventHandler {
        var events: [String] = []
        func startElement(_ name: String, attributes: [(name: String, value: String?)]) {
            events.append(
                "<\(name)" + attributes.map { " \($0.name)=\($0.value ?? "(none)")" }.joined() + ">")
        }
        func endElement(_ name: String) { events.append("</\(name)>") }
        func text(_ text: String) { events.append(text) }
    }

    @Test func tagSoupComesBalancedAndDecoded() {
        let recorder = Recorder()
        HTMLReader.read("<P CLASS=x>one<B>two<p>three &amp; &eacute; 中<video controls>", into: recorder)
        #expect(
            recorder.events == [
                "<p class=x>", "one", "<b>", "two", "</b>", "</p>", "<p>", "three ", "&", " ", "é", " 中",
                "<video controls=(none)>", "</video>", "</p>",
            ])
    }

    @Test func emptyInputHasNoEvents() {
        let recorder = Recorder()
        HTMLReader.read("", into: recorder)
        #expect(recorder.events.isEmpty)
    }

    @Test func aMetaCharsetCannotSwitchTheEncoding() {
        let recorder = Recorder()
        HTMLReader.read("<meta charset=\"iso-8859-1\"><p>中文</p>", into: recorder)
        #expect(recorder.events.contains("中文"))
    }
}
