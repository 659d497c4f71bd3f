/// Extended M3U playlists: read what other players write, write what they read.
public enum M3U {
    public struct Entry: Equatable, Sendable {
        /// A path or URL, exactly as written.
        public var location: String
        /// The `#EXTINF` title, usually "Artist - Title".
        public var title: String?
        /// Seconds, or nil when unknown (-1 in the file).
        public var duration: Int?

        public init(location: String, title: String? = nil, duration: Int? = nil) {
            self.location = location
            self.title = title
            self.duration = duration
        }
    }

    /// The entries of an M3U or M3U8 text. Comments and unknown directives are skipped; an
    /// `#EXTINF` line describes the location that follows it.
    public static func parse(_ text: String) -> [Entry] {
        var entries: [Entry] = []
        var pending: (title: String?, duration: Int?)?
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        for rawLine in body.split(
            omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
        {
            let line = rawLine.trimmingSpaces()
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if line.hasPrefix("#EXTINF:") {
                    let info = line.dropFirst("#EXTINF:".count)
                    // Attributes (tvg-id="..." and the like) may follow the duration before the comma, and
                    // their quoted values may hold commas of their own.
                    let comma = info.firstUnquotedComma() ?? info.firstIndex(of: ",")
                    let head = comma.map { info[..<$0] } ?? info
                    let durationText = head.split(separator: " ", maxSplits: 1).first.map(String.init) ?? ""
                    let seconds = Double(durationText).flatMap {
                        $0 >= 0 && $0 < 1e9 ? Int($0.rounded()) : nil
                    }
                    let title = comma.map { String(info[info.index(after: $0)...]).trimmingSpaces() }
                    pending = (title?.isEmpty == false ? title : nil, seconds)
                }
                continue
            }
            entries.append(Entry(location: line, title: pending?.title, duration: pending?.duration))
            pending = nil
        }
        return entries
    }

    /// An extended M3U text (UTF-8, so `.m3u8` by content) with one `#EXTINF` per entry.
    public static func format(_ entries: [Entry]) -> String {
        var out = "#EXTM3U\n"
        for entry in entries {
            let title = (entry.title ?? "").replacingNewlines()
            out += "#EXTINF:\(entry.duration ?? -1),\(title)\n"
            out += entry.location.replacingNewlines() + "\n"
        }
        return out
    }
}

extension StringProtocol {
    fileprivate func trimmingSpaces() -> String {
        var scalars = Substring(self).unicodeScalars[...]
        while let first = scalars.first, first.properties.isWhitespace { scalars = scalars.dropFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }

    /// The first comma outside a double-quoted value, or nil (also when a quote is never closed).
    fileprivate func firstUnquotedComma() -> Index? {
        var quoted = false
        for index in indices {
            switch self[index] {
            case "\"": quoted.toggle()
            case "," where !quoted: return index
            default: continue
            }
        }
        return nil
    }

    fileprivate func replacingNewlines() -> String {
        String(map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }
}
