import CLibXML2

/// Receives an HTML fragment's events: elements always balanced (libxml2 closes what the HTML left open),
/// names in lower case, entities decoded, comments and processing instructions left out.
public protocol HTMLEventHandler: AnyObject {
    /// `value` is nil for an attribute written without one (`<video controls>`).
    func startElement(_ name: String, attributes: [(name: String, value: String?)])
    func endElement(_ name: String)
    /// Text, including the raw text of `script` and `style`.
    func text(_ text: String)
}

/// Reads HTML as browsers would (libxml2's HTML parser: tag soup mended, no network, no encoding switch by a
/// `<meta>`), handing its events to a handler.
public enum HTMLReader {
    public static func read(_ html: String, into handler: some HTMLEventHandler) {
        _ = LibXML.ready
        guard !html.isEmpty else { return }
        let box = Box(handler)
        var bytes = Array(html.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                guard let context = htmlCreateMemoryParserCtxt(chars.baseAddress, Int32(chars.count)) else {
                    return
                }
                defer { htmlFreeParserCtxt(context) }
                if let sax = context.pointee.sax {
                    sax.pointee = htmlSAXHandler()
                    sax.pointee.startElement = startElement
                    sax.pointee.endElement = endElement
                    sax.pointee.characters = characters
                    sax.pointee.cdataBlock = characters
                    sax.pointee.ignorableWhitespace = characters
                }
                context.pointee.userData = Unmanaged.passUnretained(box).toOpaque()
                let options =
                    HTML_PARSE_NONET.rawValue | HTML_PARSE_NOIMPLIED.rawValue | HTML_PARSE_NOERROR.rawValue
                    | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_IGNORE_ENC.rawValue
                htmlCtxtUseOptions(context, Int32(options))
                xmlSwitchEncoding(context, XML_CHAR_ENCODING_UTF8)
                htmlParseDocument(context)
            }
        }
    }

    /// The handler, behind one pointer for libxml2's user data.
    fileprivate final class Box {
        let handler: any HTMLEventHandler
        init(_ handler: any HTMLEventHandler) { self.handler = handler }

        static func from(_ context: UnsafeMutableRawPointer?) -> any HTMLEventHandler {
            Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue().handler
        }
    }
}

private let startElement: startElementSAXFunc = { context, name, attributes in
    var list: [(name: String, value: String?)] = []
    var index = 0
    while let attributes, let attribute = attributes[index] {
        list.append((String(cString: attribute), attributes[index + 1].map { String(cString: $0) }))
        index += 2
    }
    HTMLReader.Box.from(context).startElement(name.map { String(cString: $0) } ?? "", attributes: list)
}

private let endElement: endElementSAXFunc = { context, name in
    HTMLReader.Box.from(context).endElement(name.map { String(cString: $0) } ?? "")
}

private let characters: charactersSAXFunc = { context, bytes, count in
    guard let bytes, count > 0 else { return }
    HTMLReader.Box.from(context).text(
        String(decoding: UnsafeBufferPointer(start: bytes, count: Int(count)), as: UTF8.self))
}
