import Foundation

/// The times providers write: Alipay's "yyyy-MM-dd HH:mm:ss" in Beijing time (UTC+8, no daylight saving), and
/// WeChat Pay's RFC 3339 ("2018-06-08T10:34:56+08:00"). Computed by hand, so no formatter or locale is involved.
enum ProviderTime {
    static let beijingOffset = 8 * 3600

    /// "yyyy-MM-dd HH:mm:ss" in Beijing time.
    static func beijingText(_ date: Date) -> String { text(date, offset: beijingOffset, separator: " ") }

    /// RFC 3339 in Beijing time, whole seconds.
    static func rfc3339(_ date: Date) -> String {
        text(date, offset: beijingOffset, separator: "T") + "+08:00"
    }

    /// A time in Alipay's layout, read as Beijing time.
    static func parseBeijing(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 19, bytes[10] == UInt8(ascii: " ") else { return nil }
        return parse(bytes, offset: beijingOffset)
    }

    /// An RFC 3339 time with its offset ("Z", "+08:00"); fractions of a second are dropped.
    static func parseRFC3339(_ text: String) -> Date? {
        var bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else {
            return nil
        }
        var rest = Array(bytes[19...])
        bytes.removeLast(bytes.count - 19)
        if rest.first == UInt8(ascii: ".") {
            let digits = rest.dropFirst().prefix { (0x30...0x39).contains($0) }
            guard !digits.isEmpty else { return nil }
            rest.removeFirst(1 + digits.count)
        }
        let offset: Int
        if rest == Array("Z".utf8) || rest == Array("z".utf8) {
            offset = 0
        } else {
            guard rest.count == 6, rest[0] == UInt8(ascii: "+") || rest[0] == UInt8(ascii: "-"),
                rest[3] == UInt8(ascii: ":"), let hours = number(rest[1...2]),
                let minutes = number(rest[4...5]),
                hours < 24, minutes < 60
            else { return nil }
            offset = (rest[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        return parse(bytes, offset: offset)
    }

    private static func text(_ date: Date, offset: Int, separator: String) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + offset
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = civil(fromDays: days)
        let time = seconds - days * 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(year)-\(two(month))-\(two(day))\(separator)\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))"
    }

    /// "yyyy-MM-dd?HH:mm:ss" (19 bytes) at `offset` seconds east of UTC.
    private static func parse(_ bytes: [UInt8], offset: Int) -> Date? {
        guard bytes.count == 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(bytes[0...3]), let month = number(bytes[5...6]), let day = number(bytes[8...9]),
            let hour = number(bytes[11...12]), let minute = number(bytes[14...15]),
            let second = number(bytes[17...18]),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = days(fromCivil: year, month, day)
        // 31 February comes back as another date: refused.
        guard civil(fromDays: days) == (year, month, day) else { return nil }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard (0x30...0x39).contains(digit) else { return nil }
            value = value * 10 + Int(digit - 0x30)
        }
        return value
    }

    // Howard Hinnant's days_from_civil and civil_from_days (proleptic Gregorian calendar, day 0 = 1970-01-01).
    private static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
