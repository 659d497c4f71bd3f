import Foundation

/// Addresses in articles, as browsers would read them (tabs and line breaks inside dropped, entities already
/// decoded by the HTML reader), kept only with an allowed scheme: `javascript:`, `data:`, `vbscript:` and
/// anything else unknown never pass.
enum SafeURL {
    static let web: Set<String> = ["http", "https"]
    static let links: Set<String> = ["http", "https", "mailto"]

    static func resolve(_ raw: String?, against base: URL?, schemes: Set<String>) -> URL? {
        guard let raw, raw.utf8.count <= 4096 else { return nil }
        var text = raw.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }.map(String.init)
            .joined()
        text = text.trimmingCharacters(in: CharacterSet(charactersIn: " \u{0C}").union(.controlCharacters))
        guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            return nil
        }
        if let scheme = scheme(of: text) {
            guard schemes.contains(scheme) else { return nil }
        } else if base == nil {
            return nil
        }
        let url =
            URL(string: text, relativeTo: base)
            ?? text.addingPercentEncoding(withAllowedCharacters: allowed).flatMap {
                URL(string: $0, relativeTo: base)
            }
        guard let absolute = url?.absoluteURL, let scheme = absolute.scheme?.lowercased(),
            schemes.contains(scheme)
        else { return nil }
        if scheme != "mailto" {
            guard let host = absolute.host, !host.isEmpty else { return nil }
        }
        return absolute
    }

    /// The scheme as a browser reads it: a letter, then letters, digits, `+`, `-` or `.`, then `:` before any
    /// `/`, `?` or `#`. Nil for a relative address.
    private static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let candidate = text[..<colon]
        guard let first = candidate.first, first.isASCII, first.isLetter,
            candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else {
            // A `:` after a `/`, `?` or `#` belongs to a relative address; anything else is no address.
            return nil
        }
        return candidate.lowercased()
    }

    private static let allowed = CharacterSet.urlQueryAllowed.union(.urlPathAllowed).union(
        CharacterSet(charactersIn: "#%"))
}
