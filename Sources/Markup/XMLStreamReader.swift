import CLibXML2
import Foundation

/// An element's or attribute's name: its namespace URI (nil when none was declared), the prefix it was
/// written with, and its local part.
public struct XMLName: Sendable, Equatable, CustomStringConvertible {
    public var namespace: String?
    public var prefix: String?
    public var local: String

    public init(namespace: String?, prefix: String? = nil, local: String) {
        self.namespace = namespace
        self.prefix = prefix
        self.local = local
    }

    public var description: String { prefix.map { "\($0):\(local)" } ?? local }
}

public struct XMLAttribute: Sendable, Equatable {
    public var name: XMLName
    public var value: String
}

/// Receives a document's events in order. A method that throws stops the reading; `feed` or `finish` then
/// rethrows that error as it is.
public protocol XMLEventHandler: AnyObject {
    func startElement(_ name: XMLName, attributes: [XMLAttribute]) throws
    func endElement(_ name: XMLName) throws
    /// Text (and CDATA) in UTF-8, in pieces: one run of text may come in several calls.
    func characters(_ text: UnsafeRawBufferPointer) throws
}

public struct XMLLimits: Sendable, Equatable {
    /// The most bytes of a document.
    public var maxBytes: Int
    /// The deepest nesting of elements.
    public var maxDepth: Int

    public init(maxBytes: Int = 50_000_000, maxDepth: Int = 64) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }
}

/// Why a document was refused, in words for a person.
public struct XMLError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// libxml2's complaint, and where (1-based).
        case malformed(String, line: Int, column: Int)
        /// The document declares an entity (the billion laughs, XXE): refused before any is used.
        case declaresEntities(String)
        case tooLarge(limit: Int)
        case tooDeep(limit: Int)
        case empty
    }

    public let reason: Reason

    public init(_ reason: Reason) { self.reason = reason }

    /// What is wrong, to follow "The feed " or "The document ".
    public var phrase: String {
        switch reason {
        case .malformed(let complaint, let line, let column):
            "is not well-formed XML: \(complaint) (line \(line), column \(column))"
        case .declaresEntities(let name):
            "declares XML entities (\(name)), which can expand without end or read files, so it was refused"
        case .tooLarge(let limit):
            "is larger than \(limit >= 1_000_000 ? "\(limit / 1_000_000) MB" : "\(limit / 1_000) KB")"
        case .tooDeep(let limit):
            "nests elements deeper than \(limit) levels"
        case .empty:
            "is empty"
        }
    }

    public var message: String { "The document \(phrase)." }

    public var description: String { message }
}

/// Reads an XML document as it arrives, handing its events to a handler: no tree, so a document of any length
/// costs what the handler keeps.
///
/// It never loads anything: no external DTD or entity, no network (XML_PARSE_NONET, and the library's loader
/// is removed). A document that declares any entity is refused at the declaration, so neither XXE nor entity
/// expansion (billion laughs) can happen; the five predefined entities and character references work, and so
/// do HTML's named entities (`&nbsp;`, `&eacute;`), which feeds often use without declaring. Not thread-safe:
/// one document, one task.
public final class XMLStreamReader {
    private let handler: any XMLEventHandler
    private let limits: XMLLimits
    private var context: xmlParserCtxtPtr?
    private var rewriter = EntityRewriter()
    private var rewritten: [UInt8] = []
    private var bytesRead = 0
    private var depth = 0
    private var failure: (any Error)?
    private var fatal: XMLError?
    private var finished = false

    public init(handler: any XMLEventHandler, limits: XMLLimits = XMLLimits()) {
        _ = LibXML.ready
        self.handler = handler
        self.limits = limits
    }

    deinit {
        if let context { xmlFreeParserCtxt(context) }
    }

    public func feed(_ data: Data) throws {
        try data.withUnsafeBytes { try feed($0) }
    }

    /// Reads the next bytes of the document.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(!finished, "feed after finish")
        if let failure { throw failure }
        guard !bytes.isEmpty else { return }
        bytesRead += bytes.count
        guard bytesRead <= limits.maxBytes else { throw stop(XMLError(.tooLarge(limit: limits.maxBytes))) }
        rewritten.removeAll(keepingCapacity: true)
        rewriter.rewrite(bytes, into: &rewritten)
        try parse(terminate: false)
    }

    /// Reads the end of the document; throws if it is incomplete.
    public func finish() throws {
        precondition(!finished, "finish twice")
        if let failure { throw failure }
        finished = true
        guard bytesRead > 0 else { throw XMLError(.empty) }
        rewritten.removeAll(keepingCapacity: true)
        rewriter.flush(into: &rewritten)
        try parse(terminate: true)
    }

    private func parse(terminate: Bool) throws {
        let context = try self.context ?? makeContext()
        let code = rewritten.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                xmlParseChunk(context, $0.baseAddress, Int32($0.count), terminate ? 1 : 0)
            }
        }
        if let failure { throw failure }
        if let fatal { throw stop(fatal) }
        if code != 0 || context.pointee.wellFormed == 0 {
            throw stop(XMLError(.malformed("the parser stopped (\(code))", line: 0, column: 0)))
        }
    }

    private func makeContext() throws -> xmlParserCtxtPtr {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = startElement
        sax.endElementNs = endElement
        sax.characters = characters
        sax.cdataBlock = characters
        sax.entityDecl = entityDeclaration
        sax.unparsedEntityDecl = unparsedEntityDeclaration
        sax.serror = structuredError
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard let context = xmlCreatePushParserCtxt(&sax, me, nil, 0, "document") else {
            throw XMLError(.malformed("libxml2 could not start", line: 0, column: 0))
        }
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue))
        self.context = context
        return context
    }

    /// Records why reading stopped and stops libxml2 (no more events).
    @discardableResult
    private func stop(_ error: any Error) -> any Error {
        if failure == nil { failure = error }
        if let context { xmlStopParser(context) }
        return failure!
    }

    // MARK: Events (called by libxml2 during xmlParseChunk)

    fileprivate func started(
        _ local: UnsafePointer<UInt8>?, _ prefix: UnsafePointer<UInt8>?, _ uri: UnsafePointer<UInt8>?,
        _ count: Int32, _ attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    ) {
        guard failure == nil else { return }
        depth += 1
        guard depth <= limits.maxDepth else {
            stop(XMLError(.tooDeep(limit: limits.maxDepth)))
            return
        }
        var list: [XMLAttribute] = []
        if let attributes, count > 0 {
            list.reserveCapacity(Int(count))
            for index in 0..<Int(count) {
                let base = attributes + index * 5
                guard let valueStart = base[3], let valueEnd = base[4] else { continue }
                let bytes = UnsafeBufferPointer(start: valueStart, count: valueEnd - valueStart)
                // Without entity substitution libxml2 leaves every `&` of a value as "&#38;" (nothing else).
                let value =
                    bytes.contains(UInt8(ascii: "&"))
                    ? String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "&#38;", with: "&")
                    : String(decoding: bytes, as: UTF8.self)
                list.append(XMLAttribute(name: Self.name(base[0], base[1], base[2]), value: value))
            }
        }
        do {
            try handler.startElement(Self.name(local, prefix, uri), attributes: list)
        } catch {
            stop(error)
        }
    }

    fileprivate func ended(
        _ local: UnsafePointer<UInt8>?, _ prefix: UnsafePointer<UInt8>?, _ uri: UnsafePointer<UInt8>?
    ) {
        guard failure == nil else { return }
        depth -= 1
        do { try handler.endElement(Self.name(local, prefix, uri)) } catch { stop(error) }
    }

    fileprivate func text(_ bytes: UnsafePointer<UInt8>?, _ count: Int32) {
        guard failure == nil, let bytes, count > 0 else { return }
        do { try handler.characters(UnsafeRawBufferPointer(start: bytes, count: Int(count))) } catch {
            stop(error)
        }
    }

    fileprivate func declaredEntity(_ name: UnsafePointer<UInt8>?) {
        stop(XMLError(.declaresEntities(name.map { String(cString: $0) } ?? "")))
    }

    fileprivate func complained(_ error: UnsafePointer<xmlError>) {
        let error = error.pointee
        guard error.level == XML_ERR_FATAL, fatal == nil else { return }
        var message = error.message.map { String(cString: $0) } ?? "error \(error.code)"
        message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        if message.hasSuffix(".") { message.removeLast() }
        fatal = XMLError(.malformed(message, line: Int(error.line), column: Int(error.int2)))
    }

    private static func name(
        _ local: UnsafePointer<UInt8>?, _ prefix: UnsafePointer<UInt8>?, _ uri: UnsafePointer<UInt8>?
    )
        -> XMLName
    {
        XMLName(
            namespace: uri.map { String(cString: $0) }, prefix: prefix.map { String(cString: $0) },
            local: local.map { String(cString: $0) } ?? "")
    }

    fileprivate static func reader(_ context: UnsafeMutableRawPointer?) -> XMLStreamReader {
        Unmanaged<XMLStreamReader>.fromOpaque(context!).takeUnretainedValue()
    }
}

// libxml2's SAX2 callbacks: plain C functions that find their reader through the user data.

private let startElement: startElementNsSAX2Func = {
    context, local, prefix, uri, _, _, count, _, attributes in
    XMLStreamReader.reader(context).started(local, prefix, uri, count, attributes)
}

private let endElement: endElementNsSAX2Func = { context, local, prefix, uri in
    XMLStreamReader.reader(context).ended(local, prefix, uri)
}

private let characters: charactersSAXFunc = { context, bytes, count in
    XMLStreamReader.reader(context).text(bytes, count)
}

private let entityDeclaration: entityDeclSAXFunc = { context, name, _, _, _, _ in
    XMLStreamReader.reader(context).declaredEntity(name)
}

private let unparsedEntityDeclaration: unparsedEntityDeclSAXFunc = { context, name, _, _, _ in
    XMLStreamReader.reader(context).declaredEntity(name)
}

private let structuredError: xmlStructuredErrorFunc = { context, error in
    guard let context, let error else { return }
    XMLStreamReader.reader(context).complained(error)
}
