/// The languages the server writes its sentences in, picked per request from `Accept-Language`.
public enum Language: String, Sendable, CaseIterable {
    case english = "en"
    /// Simplified Chinese; readers of Traditional Chinese get it too (closer to them than English).
    case chinese = "zh-CN"

    /// The language for an `Accept-Language` header: the supported one the reader ranks highest (q-values
    /// honoured, `q=0` meaning "not this"), English when the header is absent or names none of ours.
    public static func preferred(by acceptLanguage: String?) -> Language {
        guard let header = acceptLanguage, !header.isEmpty else { return .english }
        var best: (language: Language, quality: Double)?
        for entry in header.split(separator: ",").prefix(32) {
            let parts = entry.split(separator: ";")
            guard let tag = parts.first?.trimmingCharacters(in: .whitespaces).lowercased(), !tag.isEmpty
            else {
                continue
            }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "q" {
                    quality = Double(pair[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            guard quality > 0, let language = Language(tag: tag) else { continue }
            // The first of equal quality wins, as the reader listed them.
            if best == nil || quality > best!.quality { best = (language, quality) }
        }
        return best?.language ?? .english
    }

    /// The language of a BCP 47 tag (`zh`, `zh-CN`, `zh-Hans-CN`, `zh-TW`, `en-GB`, `*`), nil for others.
    init?(tag: String) {
        let primary = tag.split(separator: "-").first.map(String.init) ?? tag
        switch primary {
        case "zh", "cmn": self = .chinese
        case "en", "*": self = .english
        default: return nil
        }
    }
}

extension Language {
    /// This language's sentences by English template (empty for English, whose sentences are the templates).
    public var sentences: [String: String] { self == .chinese ? ChineseText.sentences : [:] }

    /// This language's words for `word:` arguments.
    public var words: [String: String] { self == .chinese ? ChineseText.words : [:] }
}
