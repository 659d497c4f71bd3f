import Foundation

/// Reads a Podcasting 2.0 transcript (WebVTT, SRT, JSON or plain text) as the words alone.
public enum PodcastTranscript {
    /// The spoken text, one cue a line: WebVTT and SRT lose their header, cue numbers and timings; JSON keeps
    /// each segment's `body`. HTML is the caller's to reduce (it has a sanitizer).
    public static func text(_ data: Data, type: String?) -> String {
        let text = String(decoding: data, as: UTF8.self)
        let kind = type?.lowercased() ?? ""
        if kind.contains("json") { return jsonText(data) ?? text }
        let cues = kind.contains("vtt") || kind.contains("srt") || kind.contains("subrip")
        guard cues || text.hasPrefix("WEBVTT") || text.contains("-->") else { return text }
        var lines: [String] = []
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("WEBVTT") || line.hasPrefix("NOTE") || line.contains("-->")
                || line.allSatisfy(\.isNumber)
            {
                continue
            }
            if lines.last != line { lines.append(line) }
        }
        return lines.joined(separator: "\n")
    }

    private static func jsonText(_ data: Data) -> String? {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let segments = root["segments"] as? [[String: Any]]
        else { return nil }
        return segments.compactMap { $0["body"] as? String }.joined(separator: "\n")
    }
}
