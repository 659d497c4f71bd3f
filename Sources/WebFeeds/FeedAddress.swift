import Foundation

/// Addresses found in feeds: trimmed, resolved against the document's address (relative and protocol-relative
/// ones), and kept only when they are http or https with a host, so that nothing the server later fetches or
/// links to can be `javascript:`, `file:` or `data:`.
enum FeedAddress {
    static func resolve(_ text: String?, against base: URL?) -> URL? {
        guard let text, !text.isEmpty, text.utf8.count <= 4096 else { return nil }
        var trimmed = XMLFeedBuilder.trimmed(Array(text.utf8))
        guard !trimmed.isEmpty else { return nil }
        // Browsers drop tabs and line breaks inside an address, and so do we (never spaces: they are encoded).
        if trimmed.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            trimmed.removeAll { $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        }
        var url = URL(string: trimmed, relativeTo: base)
        if url == nil, let encoded = trimmed.addingPercentEncoding(withAllowedCharacters: allowed) {
            url = URL(string: encoded, relativeTo: base)
        }
        guard let absolute = url?.absoluteURL, let scheme = absolute.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = absolute.host, !host.isEmpty
        else { return nil }
        return absolute
    }

    /// What may stay as it is in an address; the rest (spaces, non-ASCII) is percent-encoded.
    private static let allowed = CharacterSet.urlQueryAllowed.union(.urlPathAllowed).union(
        CharacterSet(charactersIn: "#%"))
}
