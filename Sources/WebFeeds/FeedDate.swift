import Foundation

/// Dates as feeds write them: RFC 822 in its real-world forms (with or without the weekday, seconds, a zone
/// name or offset, two-digit years, full month names) and RFC 3339 / ISO 8601 (with a fraction, an offset or
/// Z, a space for the T, or the date alone). No DateFormatter: it is slow and depends on the locale.
public enum FeedDate {
    /// The instant `text` names, or nil when it names none.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 100 else { return nil }
        let bytes = Array(trimmed.utf8)
        if bytes.count >= 10, bytes[0..<4].allSatisfy(isDigit), bytes[4] == UInt8(ascii: "-") {
            return iso8601(bytes)
        }
        return rfc822(trimmed)
    }

    // MARK: RFC 3339

    private static func iso8601(_ bytes: [UInt8]) -> Date? {
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count, bytes[index..<(index + digits)].allSatisfy(isDigit) else {
                return nil
            }
            defer { index += digits }
            return bytes[index..<(index + digits)].reduce(0) { $0 * 10 + Int($1 - 48) }
        }
        func take(_ byte: Character) -> Bool {
            guard index < bytes.count, bytes[index] == byte.asciiValue! else { return false }
            index += 1
            return true
        }
        guard let year = number(4), take("-"), let month = number(2), take("-"), let day = number(2) else {
            return nil
        }
        var hour = 0
        var minute = 0
        var second = 0.0
        var offset = 0
        if index < bytes.count {
            guard take("T") || take("t") || take(" "), let h = number(2), take(":"), let m = number(2) else {
                return nil
            }
            hour = h
            minute = m
            if take(":") {
                guard let s = number(2) else { return nil }
                second = Double(s)
                if take(".") || take(",") {
                    let start = index
                    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
                    guard index > start else { return nil }
                    second += Double("0." + String(decoding: bytes[start..<index], as: UTF8.self)) ?? 0
                }
            }
            if take("Z") || take("z") {
                offset = 0
            } else if index < bytes.count,
                bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
            {
                let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
                guard let oh = number(2) else { return nil }
                _ = take(":")
                let om = number(2) ?? 0
                offset = sign * (oh * 3600 + om * 60)
            }
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
            guard index == bytes.count else { return nil }
        }
        return date(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    // MARK: RFC 822

    /// "Mon, 02 Jan 2006 15:04:05 -0700", "2 January 2006 15:04 GMT", "Jan 2, 2006 3:04:05 PM EST" ...; read
    /// as bytes (a feed has thousands of dates, and String's and Foundation's splitting cost more than the XML).
    private static func rfc822(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var words: [ArraySlice<UInt8>] = []
        var start: Int?
        for index in 0...bytes.count {
            let separator =
                index == bytes.count || bytes[index] == 0x20 || bytes[index] == 0x2C || bytes[index] == 0x09
            if separator {
                if let first = start { words.append(bytes[first..<index]) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        // A comment after the zone: "+0000 (UTC)".
        if let comment = words.firstIndex(where: { $0.first == UInt8(ascii: "(") }) {
            words.removeSubrange(comment...)
        }
        if let first = words.first, first.count >= 3, isWeekday(first) { words.removeFirst() }
        guard words.count >= 3 else { return nil }
        let day: Int
        let monthNumber: Int
        if let d = integer(words[0]), let m = month(words[1]) {
            (day, monthNumber) = (d, m)
        } else if let m = month(words[0]), let d = integer(words[1]) {
            (day, monthNumber) = (d, m)
        } else {
            return nil
        }
        guard var year = integer(words[2]) else { return nil }
        if words[2].count == 2 { year += year < 50 ? 2000 : 1900 }
        var rest = words.dropFirst(3)
        var hour = 0
        var minute = 0
        var second = 0.0
        if let time = rest.first, time.contains(UInt8(ascii: ":")) {
            rest.removeFirst()
            let parts = time.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard parts.count == 2 || parts.count == 3, let h = integer(parts[0]), let m = integer(parts[1])
            else {
                return nil
            }
            (hour, minute) = (h, m)
            if parts.count == 3 {
                guard let s = Double(String(decoding: parts[2], as: UTF8.self)) else { return nil }
                second = s
            }
            if let meridiem = rest.first.map({ String(decoding: $0, as: UTF8.self).uppercased() }),
                meridiem == "AM" || meridiem == "PM"
            {
                rest.removeFirst()
                guard (1...12).contains(hour) else { return nil }
                hour = hour % 12 + (meridiem == "PM" ? 12 : 0)
            }
        }
        var offset = 0
        if let zone = rest.first {
            guard let seconds = zoneOffset(String(decoding: zone, as: UTF8.self)) else { return nil }
            offset = seconds
        }
        return date(
            year: year, month: monthNumber, day: day, hour: hour, minute: minute, second: second,
            offset: offset)
    }

    private static let weekdays: [[UInt8]] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map {
        Array($0.utf8)
    }

    private static let monthNames: [[UInt8]] = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ].map { Array($0.utf8) }

    /// ASCII letters in lower case; nil when the word has anything else (a trailing "." is dropped).
    private static func lowercaseLetters(_ word: ArraySlice<UInt8>) -> [UInt8]? {
        var letters: [UInt8] = []
        letters.reserveCapacity(word.count)
        for (index, byte) in zip(word.indices, word) {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"): letters.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): letters.append(byte + 32)
            case UInt8(ascii: ".") where index == word.index(before: word.endIndex): break
            default: return nil
            }
        }
        return letters
    }

    private static func isWeekday(_ word: ArraySlice<UInt8>) -> Bool {
        guard let letters = lowercaseLetters(word), letters.count >= 3 else { return false }
        return weekdays.contains { $0.elementsEqual(letters.prefix(3)) }
    }

    /// "Jan", "January", "Sept" (not "Marchx").
    private static func month(_ word: ArraySlice<UInt8>) -> Int? {
        guard let letters = lowercaseLetters(word), letters.count >= 3 else { return nil }
        for (index, name) in monthNames.enumerated() where name.starts(with: letters.prefix(3)) {
            return name.starts(with: letters) || letters == Array("sept".utf8) ? index + 1 : nil
        }
        return nil
    }

    private static func integer(_ word: ArraySlice<UInt8>) -> Int? {
        guard !word.isEmpty, word.count <= 9 else { return nil }
        var value = 0
        for byte in word {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    /// Zone names feeds use (RFC 822's and a few common ones), and numeric offsets.
    private static let zones: [String: Int] = [
        "UT": 0, "UTC": 0, "GMT": 0, "Z": 0, "WET": 0,
        "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
        "AKST": -9, "AKDT": -8, "HST": -10, "AST": -4, "ADT": -3, "NST": -3, "NDT": -2,
        "BST": 1, "IST": 1, "CET": 1, "CEST": 2, "MET": 1, "MEST": 2, "WEST": 1, "EET": 2, "EEST": 3,
        "MSK": 3,
        "JST": 9, "KST": 9, "HKT": 8, "SGT": 8, "AWST": 8, "ACST": 9, "AEST": 10, "AEDT": 11, "NZST": 12,
        "NZDT": 13,
    ].mapValues { $0 * 3600 }

    private static func zoneOffset(_ zone: String) -> Int? {
        let upper = zone.uppercased()
        if let hours = zones[upper] { return hours }
        var digits = Substring(upper)
        if digits.hasPrefix("GMT") || digits.hasPrefix("UTC") { digits = digits.dropFirst(3) }
        guard let sign = digits.first, sign == "+" || sign == "-" else {
            // Military letters (and unknown names): RFC 1123 says to take them as +0000.
            return upper.count <= 5 && upper.allSatisfy(\.isLetter) ? 0 : nil
        }
        let number = digits.dropFirst().replacingOccurrences(of: ":", with: "")
        guard !number.isEmpty, number.count <= 4, number.allSatisfy(\.isNumber), let value = Int(number)
        else {
            return nil
        }
        let (hours, minutes) = number.count <= 2 ? (value, 0) : (value / 100, value % 100)
        guard hours <= 14, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    // MARK: Arithmetic

    private static func date(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double, offset: Int
    ) -> Date? {
        guard (1..<10_000).contains(year), (1...12).contains(month), (1...daysIn(month, year)).contains(day),
            (0...24).contains(hour), (0...59).contains(minute), second >= 0, second < 61
        else { return nil }
        let days = daysFromCivil(year, month, day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 - offset) + min(second, 59.999)
        return Date(timeIntervalSince1970: seconds)
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    private static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
}
