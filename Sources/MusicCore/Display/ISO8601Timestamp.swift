import Foundation

/// The API's timestamps: ISO 8601 such as "2026-12-01T05:53:16Z" or "2026-12-01T05:53:16.123Z".
public enum ISO8601Timestamp {
    /// The date of `text`, or nil when it is not `yyyy-MM-ddTHH:mm:ss[.fraction](Z|±hh:mm)`.
    ///
    /// Parsed by hand: exact, allocation-free, and safe on any thread (unlike a shared formatter).
    public static func date(from text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// `date` as the API writes it, in UTC to the second ("2026-12-01T05:53:16Z").
    public static func string(from date: Date) -> String {
        // Clamped to years 0001...9999, which is all the four-digit format can say.
        let interval = date.timeIntervalSince1970
        let seconds =
            interval.isNaN ? 0 : Int(min(max(interval, -62_135_596_800), 253_402_300_799).rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(fromDays: days)
        let yearText = String(year)
        let paddedYear = String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
        return "\(paddedYear)-\(twoDigits(month))-\(twoDigits(day))T\(twoDigits(secondOfDay / 3600)):"
            + "\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60))Z"
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for _ in 0..<digits {
                let byte = bytes[index]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
                index += 1
            }
            return value
        }
        func expect(_ character: UInt8...) -> Bool {
            guard index < bytes.count, character.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2),
            expect(UInt8(ascii: "-")), let day = number(2), expect(UInt8(ascii: "T"), UInt8(ascii: "t")),
            let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2),
            expect(UInt8(ascii: ":")), let second = number(2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }

        var fraction = 0.0
        if expect(UInt8(ascii: ".")) {
            var scale = 0.1
            let first = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > first else { return nil }
        }

        var offsetSeconds = 0
        if expect(UInt8(ascii: "Z"), UInt8(ascii: "z")) {
        } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
        {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let offsetHours = number(2), expect(UInt8(ascii: ":")), let offsetMinutes = number(2),
                offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil  // without a zone the time would be ambiguous
        }
        guard index == bytes.count else { return nil }

        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}

private func isLeapYear(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

private func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
}

// Howard Hinnant's days_from_civil and civil_from_days (proleptic Gregorian, day 0 = 1970-01-01).
private func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
}

private func civilDate(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
}
