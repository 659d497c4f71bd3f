import MusicCore

/// A song's lyric as OpenSubsonic `structuredLyrics` (the songLyrics extension).
///
/// Version 1: synced lines (`start` in ms), or unsynced lines of plain text. Version 2 (`enhanced=true`)
/// adds `kind="main"` and, for word-timed lines (KSC, enhanced LRC), a `cueLine` per line with one `cue` per
/// word: its start and end in ms and its place in the line as inclusive UTF-8 byte offsets. KSC's `[...]`
/// Latin words arrive without their brackets (the parser removes them), so the offsets are into the text as
/// shown. A word's trailing space is not part of its cue. LRC `[offset:]` is already applied to the times.
enum SubsonicLyrics {
    static func structured(
        _ lyric: SongLyric, songTitle: String, songArtist: String?, enhanced: Bool
    ) -> SubsonicElement? {
        var element = SubsonicElement()
        element.add("displayArtist", lyric.tags["ar"] ?? songArtist)
        element.add("displayTitle", lyric.tags["ti"] ?? songTitle)
        element.add("lang", "und")
        if enhanced { element.add("kind", "main") }
        if !lyric.lines.isEmpty {
            element.add("synced", true)
            element.add(
                "line",
                many: lyric.lines.map { line in
                    SubsonicElement([("start", .int(Int64(max(line.start, 0))))], text: line.text)
                })
            if enhanced {
                let cueLines = lyric.lines.enumerated().compactMap { index, line in
                    cueLine(line, index: index)
                }
                element.add("cueLine", many: cueLines)
            }
            return element
        }
        // No timed lines: the text as unsynced lines (embedded lyrics are often plain text).
        let lines = lyric.raw.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let text = Array(lines.drop { $0.isEmpty }.reversed().drop { $0.isEmpty }.reversed())
        guard !text.isEmpty else { return nil }
        element.add("synced", false)
        element.add("line", many: text.map { SubsonicElement([], text: $0) })
        return element
    }

    /// The cues of a word-timed line; nil for a line without word times.
    static func cueLine(_ line: LyricLine, index: Int) -> SubsonicElement? {
        guard !line.words.isEmpty else { return nil }
        var cues: [SubsonicElement] = []
        var offset = 0
        let words = line.words
        for (position, word) in words.enumerated() {
            let bytes = Array(word.text.utf8)
            defer { offset += bytes.count }
            var length = bytes.count
            while length > 0, bytes[length - 1] == 0x20 || bytes[length - 1] == 0x09 { length -= 1 }
            var leading = 0
            while leading < length, bytes[leading] == 0x20 || bytes[leading] == 0x09 { leading += 1 }
            guard length > leading else { continue }
            var end = word.end
            // Cues may not overlap: a word ends by the time the next one starts.
            if position + 1 < words.count { end = min(end, words[position + 1].start) }
            let start = max(word.start, 0)
            cues.append(
                SubsonicElement(
                    [
                        ("start", .int(Int64(start))), ("end", .int(Int64(max(end, start)))),
                        ("byteStart", .int(Int64(offset + leading))),
                        ("byteEnd", .int(Int64(offset + length - 1))),
                    ], text: String(decoding: bytes[leading..<length], as: UTF8.self)))
        }
        guard !cues.isEmpty else { return nil }
        var element = SubsonicElement()
        element.add("index", index)
        element.add("start", max(line.start, 0))
        element.add("end", max(line.end, line.start, 0))
        element.add("value", line.words.map(\.text).joined())
        element.add("cue", many: cues)
        return element
    }

    /// Plain text of a lyric (for the old `getLyrics`): its lines' text, else the raw text.
    static func plainText(_ lyric: SongLyric) -> String {
        lyric.lines.isEmpty ? lyric.raw : lyric.lines.map(\.text).joined(separator: "\n")
    }
}
