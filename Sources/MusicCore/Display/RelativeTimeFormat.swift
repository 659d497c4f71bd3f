import Foundation

extension DisplayFormat {
    /// Up to how many whole days ago a time shows as "N天前" / "N days ago"; from then on, a date.
    ///
    /// NetEase Cloud Music's comment and moment lists switch to a date after a week.
    public static let relativeDaysLimit = 7

    /// When something happened, as the apps show it in lists (comments, moments, notifications).
    ///
    /// Chinese: 刚刚 (under a minute), N分钟前, N小时前, N天前 (1 to 6 days), then "MM-dd" within
    /// the current year and "yyyy-MM-dd" before it. English: "just now", "1 min ago", "3 h ago",
    /// "yesterday", "2 days ago", then "Mar 5" / "Mar 5, 2025". Days are whole 24-hour periods;
    /// the year and the date are those in `timeZone`. A time after `now` (clock skew) is "just now".
    public static func relativeTime(
        _ date: Date, now: Date, timeZone: TimeZone, language: DisplayLanguage
    ) -> String {
        let elapsed = now.timeIntervalSince(date)
        // NaN (from NaN dates) falls through to the date; negative is clock skew.
        if elapsed < 60 && !elapsed.isNaN {
            return language == .zh ? "刚刚" : "just now"
        }
        if elapsed < Double(relativeDaysLimit) * 86_400 {
            let minutes = Int(elapsed / 60)
            switch language {
            case .zh:
                if minutes < 60 { return "\(minutes)分钟前" }
                if minutes < 1440 { return "\(minutes / 60)小时前" }
                return "\(minutes / 1440)天前"
            case .en:
                if minutes < 60 { return "\(minutes) min ago" }
                if minutes < 1440 { return "\(minutes / 60) h ago" }
                let days = minutes / 1440
                return days == 1 ? "yesterday" : "\(days) days ago"
            }
        }
        return calendarDate(date, now: now, timeZone: timeZone, language: language)
    }

    /// "MM-dd" / "Mar 5" in the year of `now`, else "yyyy-MM-dd" / "Mar 5, 2025", in `timeZone`.
    public static func calendarDate(
        _ date: Date, now: Date, timeZone: TimeZone, language: DisplayLanguage
    ) -> String {
        guard date.timeIntervalSince1970.isFinite, abs(date.timeIntervalSince1970) < 1e14 else { return "" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let year = parts.year ?? 1970
        let month = parts.month ?? 1
        let day = parts.day ?? 1
        let sameYear = now.timeIntervalSince1970.isFinite && calendar.component(.year, from: now) == year
        switch language {
        case .zh:
            let monthDay = "\(twoDigits(month))-\(twoDigits(day))"
            return sameYear ? monthDay : "\(year)-\(monthDay)"
        case .en:
            let monthDay = "\(englishMonths[month - 1]) \(day)"
            return sameYear ? monthDay : "\(monthDay), \(year)"
        }
    }

    private static let englishMonths = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
}
