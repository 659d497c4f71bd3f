extension DisplayFormat {
    /// A play, like or follower count as the apps show it.
    ///
    /// Chinese: as is below 10,000 ("9999"), then 万 ("1.2万", "10万", "9999.9万"), then 亿 ("3.4亿").
    /// English: as is below 1,000 ("999"), then K, M, B with one decimal below 10 ("1.2K") and none
    /// from 10 up ("12K", "999K"). Digits beyond those shown are truncated, never rounded, like the
    /// apps: a count is never shown larger than it is, and 99,999,999 is "9999.9万", never "10000万".
    /// A trailing ".0" is dropped. Negative counts show "0".
    public static func count(_ value: Int, language: DisplayLanguage) -> String {
        let value = max(0, value)
        switch language {
        case .zh:
            if value < 10_000 { return String(value) }
            if value < 100_000_000 { return scaled(value, unit: 10_000, decimalsBelow: Int.max) + "万" }
            return scaled(value, unit: 100_000_000, decimalsBelow: Int.max) + "亿"
        case .en:
            if value < 1000 { return String(value) }
            if value < 1_000_000 { return scaled(value, unit: 1000, decimalsBelow: 10) + "K" }
            if value < 1_000_000_000 { return scaled(value, unit: 1_000_000, decimalsBelow: 10) + "M" }
            return scaled(value, unit: 1_000_000_000, decimalsBelow: 10) + "B"
        }
    }

    /// `value / unit` truncated to one decimal (none from `decimalsBelow` units up), without ".0".
    private static func scaled(_ value: Int, unit: Int, decimalsBelow: Int) -> String {
        let whole = value / unit
        if whole >= decimalsBelow { return String(whole) }
        let tenth = (value % unit) / (unit / 10)
        return tenth == 0 ? String(whole) : "\(whole).\(tenth)"
    }
}
