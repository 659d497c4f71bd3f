import Foundation

/// An episode's length as `itunes:duration` writes it: "1:02:03", "62:03", "3723", "3723.5", and the ISO 8601
/// form some feeds use ("PT1H2M3S").
public enum EpisodeDuration {
    /// Whole seconds (rounded), or nil when `text` is no duration.
    public static func seconds(_ text: String) -> Int? {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.count <= 32 else { return nil }
        if text.uppercased().hasPrefix("PT") { return iso8601(text.uppercased().dropFirst(2)) }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            // Only the last part may have a fraction; later parts are under 60.
            let isLast = index == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                let value = Double(part)
            else { return nil }
            if index > 0, value >= 60 { return nil }
            total = total * 60 + value
        }
        guard total < 10_000_000 else { return nil }
        return Int(total.rounded())
    }

    private static func iso8601(_ text: Substring) -> Int? {
        var total = 0.0
        var number = ""
        for character in text {
            if character.isNumber || character == "." {
                number.append(character)
                continue
            }
            guard let value = Double(number) else { return nil }
            number = ""
            switch character {
            case "H": total += value * 3600
            case "M": total += value * 60
            case "S": total += value
            default: return nil
            }
        }
        guard number.isEmpty, total < 10_000_000 else { return nil }
        return Int(total.rounded())
    }
}
