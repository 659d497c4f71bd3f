import Foundation

/// Dates as the API writes them: ISO 8601 in UTC, to the second.
enum APIDate {
    static func string(_ unixSeconds: Int64) -> String {
        var time = time_t(unixSeconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        // By hand: String(format:) costs microseconds, and lists carry two dates per item.
        var text = [UInt8](repeating: 0, count: 20)
        func put(_ value: Int32, at index: Int, digits: Int) {
            var value = value
            for position in stride(from: index + digits - 1, through: index, by: -1) {
                text[position] = UInt8(48 + value % 10)
                value /= 10
            }
        }
        put(parts.tm_year + 1900, at: 0, digits: 4)
        put(parts.tm_mon + 1, at: 5, digits: 2)
        put(parts.tm_mday, at: 8, digits: 2)
        put(parts.tm_hour, at: 11, digits: 2)
        put(parts.tm_min, at: 14, digits: 2)
        put(parts.tm_sec, at: 17, digits: 2)
        text[4] = UInt8(ascii: "-")
        text[7] = UInt8(ascii: "-")
        text[10] = UInt8(ascii: "T")
        text[13] = UInt8(ascii: ":")
        text[16] = UInt8(ascii: ":")
        text[19] = UInt8(ascii: "Z")
        return String(decoding: text, as: UTF8.self)
    }
}
