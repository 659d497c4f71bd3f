/// The language a client shows its text in, chosen by the user.
public enum DisplayLanguage: String, Codable, Sendable, CaseIterable {
    case zh
    case en

    /// `.zh` for any Chinese locale identifier ("zh", "zh-Hans-CN", "zh_TW"), else `.en`.
    public init(localeIdentifier: String) {
        let language = localeIdentifier.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? ""
        self = language.lowercased() == "zh" ? .zh : .en
    }
}

/// Text the apps show for durations, counts and times; every function is pure and thread-safe.
public enum DisplayFormat {}
