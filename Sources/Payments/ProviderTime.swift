import Foundation
import MusicCore

/// The times providers write: Alipay's "yyyy-MM-dd HH:mm:ss" in Beijing time (UTC+8, no daylight saving), and
/// WeChat Pay's RFC 3339 ("2018-06-08T10:34:56+08:00"). Both go through MusicCore's ISO 8601 reader and writer.
enum ProviderTime {
    static let beijingOffset: TimeInterval = 8 * 3600

    /// "yyyy-MM-dd HH:mm:ss" in Beijing time.
    static func beijingText(_ date: Date) -> String {
        String(beijingISO(date).prefix(19)).replacingOccurrences(of: "T", with: " ")
    }

    /// RFC 3339 in Beijing time, whole seconds.
    static func rfc3339(_ date: Date) -> String { String(beijingISO(date).prefix(19)) + "+08:00" }

    /// A time in Alipay's layout, read as Beijing time.
    static func parseBeijing(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 19, bytes[10] == UInt8(ascii: " ") else { return nil }
        return ISO8601Timestamp.date(from: text.replacingOccurrences(of: " ", with: "T") + "+08:00")
    }

    /// An RFC 3339 time with its offset ("Z", "+08:00").
    static func parseRFC3339(_ text: String) -> Date? { ISO8601Timestamp.date(from: text) }

    /// The UTC text of the moment whose wall clock in Beijing reads as `date`'s does.
    private static func beijingISO(_ date: Date) -> String {
        ISO8601Timestamp.string(
            from: Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down) + beijingOffset))
    }
}
