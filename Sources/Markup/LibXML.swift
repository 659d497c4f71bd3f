import CLibXML2

/// libxml2, wrapped once: this module is the only importer of CLibXML2.
///
/// `XMLStreamReader` reads XML as it arrives, refusing what makes XML dangerous (entity declarations, external
/// DTDs, network access); `HTMLReader` turns tag soup into balanced element events. Neither builds a tree.
enum LibXML {
    /// Initialises libxml2 once (before any thread parses) and removes its way to load external entities, so
    /// that nothing in any document can make it open a file or a URL, whatever options a parser gets.
    static let ready: Void = {
        xmlInitParser()
        xmlSetExternalEntityLoader { _, _, _ in nil }
    }()

    /// The character an HTML 4 entity name stands for (`nbsp` gives U+00A0), or nil.
    static func htmlEntity(_ name: UnsafePointer<UInt8>) -> UInt32? {
        htmlEntityLookup(name).map { UInt32($0.pointee.value) }
    }
}
