import Foundation
import MusicCore
import Testing

@Suite("Display formats")
struct DisplayFormatTests {
    // MARK: Durations

    @Test func durationsUnderAnHour() {
        #expect(DisplayFormat.duration(seconds: 0) == "0:00")
        #expect(DisplayFormat.duration(seconds: 7) == "0:07")
        #expect(DisplayFormat.duration(seconds: 7.99) == "0:07")  // truncated, like a player's clock
        #expect(DisplayFormat.duration(seconds: 60) == "1:00")
        #expect(DisplayFormat.duration(seconds: 185) == "3:05")
        #expect(DisplayFormat.duration(seconds: 3599) == "59:59")
        #expect(DisplayFormat.duration(seconds: 3599.999) == "59:59")
    }

    @Test func durationsFromAnHour() {
        #expect(DisplayFormat.duration(seconds: 3600) == "1:00:00")
        #expect(DisplayFormat.duration(seconds: 3723) == "1:02:03")
        #expect(DisplayFormat.duration(seconds: 36_000) == "10:00:00")
        #expect(DisplayFormat.duration(seconds: 360_000) == "100:00:00")
    }

    @Test func durationsThatCannotBeShown() {
        #expect(DisplayFormat.duration(seconds: -1) == "0:00")
        #expect(DisplayFormat.duration(seconds: -0.0) == "0:00")
        #expect(DisplayFormat.duration(seconds: -.infinity) == "--:--")
        #expect(DisplayFormat.duration(seconds: .infinity) == "--:--")
        #expect(DisplayFormat.duration(seconds: .nan) == "--:--")
        #expect(DisplayFormat.duration(seconds: 1e300) == "--:--")
        #expect(DisplayFormat.duration(seconds: Double.greatestFiniteMagnitude) == "--:--")
    }

    @Test func durationsInMilliseconds() {
        #expect(DisplayFormat.duration(milliseconds: 0) == "0:00")
        #expect(DisplayFormat.duration(milliseconds: 999) == "0:00")
        #expect(DisplayFormat.duration(milliseconds: 185_000) == "3:05")
        #expect(DisplayFormat.duration(milliseconds: 3_599_999) == "59:59")
        #expect(DisplayFormat.duration(milliseconds: 3_600_000) == "1:00:00")
        #expect(DisplayFormat.duration(milliseconds: -5) == "0:00")
        #expect(DisplayFormat.duration(milliseconds: Int.min) == "0:00")
        #expect(!DisplayFormat.duration(milliseconds: Int.max).isEmpty)
    }

    @Test func positionAndDuration() {
        #expect(DisplayFormat.progress(position: 83, duration: 245) == "1:23 / 4:05")
        #expect(DisplayFormat.progress(position: 0, duration: 0) == "0:00 / 0:00")
        #expect(DisplayFormat.progress(position: 83, duration: 3723) == "0:01:23 / 1:02:03")
        #expect(DisplayFormat.progress(position: 83, duration: .nan) == "1:23 / --:--")
        #expect(DisplayFormat.progress(position: .nan, duration: 245) == "--:-- / 4:05")
        #expect(DisplayFormat.progress(position: -3, duration: 245) == "0:00 / 4:05")
        // a position past a short duration (a stale duration) still shows its hours
        #expect(DisplayFormat.progress(position: 3723, duration: 245) == "1:02:03 / 4:05")
    }

    // MARK: Counts

    @Test func chineseCounts() {
        let zh = { DisplayFormat.count($0, language: .zh) }
        #expect(zh(0) == "0")
        #expect(zh(9999) == "9999")
        #expect(zh(10_000) == "1万")
        #expect(zh(10_999) == "1万")  // truncated: 1.0999万 shows 1万, not 1.1万
        #expect(zh(11_000) == "1.1万")
        #expect(zh(12_345) == "1.2万")
        #expect(zh(19_999) == "1.9万")
        #expect(zh(100_000) == "10万")
        #expect(zh(105_000) == "10.5万")
        #expect(zh(9_999_999) == "999.9万")
        #expect(zh(10_000_000) == "1000万")
        #expect(zh(99_999_999) == "9999.9万")  // never "10000万"
        #expect(zh(100_000_000) == "1亿")
        #expect(zh(340_000_000) == "3.4亿")
        #expect(zh(349_999_999) == "3.4亿")
        #expect(zh(1_234_567_890_123) == "12345.6亿")
        #expect(zh(Int.max) == "92233720368.5亿")
        #expect(zh(-5) == "0")
        #expect(zh(Int.min) == "0")
    }

    @Test func englishCounts() {
        let en = { DisplayFormat.count($0, language: .en) }
        #expect(en(0) == "0")
        #expect(en(999) == "999")
        #expect(en(1000) == "1K")
        #expect(en(1099) == "1K")
        #expect(en(1234) == "1.2K")
        #expect(en(9999) == "9.9K")
        #expect(en(10_000) == "10K")
        #expect(en(12_345) == "12K")
        #expect(en(999_999) == "999K")  // never "1000K"
        #expect(en(1_000_000) == "1M")
        #expect(en(3_456_789) == "3.4M")
        #expect(en(999_999_999) == "999M")
        #expect(en(1_000_000_000) == "1B")
        #expect(en(1_234_567_890) == "1.2B")
        #expect(en(12_345_678_901) == "12B")
        #expect(en(-1) == "0")
    }

    @Test func countsNeverShowATooLargeUnitValue() {
        // Across every unit boundary, the shown number stays below the next unit.
        for boundary in [10_000, 100_000_000] {
            for value in (boundary - 1001)...(boundary + 1) {
                let text = DisplayFormat.count(value, language: .zh)
                #expect(!text.hasPrefix("10000"), "\(value) -> \(text)")
            }
        }
        for boundary in [1000, 1_000_000, 1_000_000_000] {
            for value in (boundary - 1001)...(boundary + 1) {
                let text = DisplayFormat.count(value, language: .en)
                #expect(!text.hasPrefix("1000"), "\(value) -> \(text)")
            }
        }
    }

    // MARK: Languages

    @Test func languageFromLocaleIdentifier() {
        #expect(DisplayLanguage(localeIdentifier: "zh-Hans-CN") == .zh)
        #expect(DisplayLanguage(localeIdentifier: "zh_CN") == .zh)
        #expect(DisplayLanguage(localeIdentifier: "zh-Hant-TW") == .zh)
        #expect(DisplayLanguage(localeIdentifier: "ZH") == .zh)
        #expect(DisplayLanguage(localeIdentifier: "en-US") == .en)
        #expect(DisplayLanguage(localeIdentifier: "ja-JP") == .en)
        #expect(DisplayLanguage(localeIdentifier: "zhx") == .en)
        #expect(DisplayLanguage(localeIdentifier: "") == .en)
    }

    // MARK: ISO 8601

    @Test func parsesTheAPIFormat() throws {
        let date = try #require(ISO8601Timestamp.date(from: "2026-12-01T05:53:16Z"))
        #expect(date.timeIntervalSince1970 == 1_796_104_396)
        #expect(ISO8601Timestamp.date(from: "1970-01-01T00:00:00Z")?.timeIntervalSince1970 == 0)
        #expect(ISO8601Timestamp.date(from: "1969-12-31T23:59:59Z")?.timeIntervalSince1970 == -1)
        #expect(ISO8601Timestamp.date(from: "2024-02-29T12:00:00Z") != nil)
    }

    @Test func parsesFractionalSecondsAndOffsets() throws {
        let base = 1_796_104_396.0
        #expect(ISO8601Timestamp.date(from: "2026-12-01T05:53:16.5Z")?.timeIntervalSince1970 == base + 0.5)
        let millis = try #require(ISO8601Timestamp.date(from: "2026-12-01T05:53:16.123Z"))
        #expect(abs(millis.timeIntervalSince1970 - (base + 0.123)) < 1e-6)
        let micros = try #require(ISO8601Timestamp.date(from: "2026-12-01T05:53:16.123456Z"))
        #expect(abs(micros.timeIntervalSince1970 - (base + 0.123456)) < 1e-6)
        #expect(ISO8601Timestamp.date(from: "2026-12-01T13:53:16+08:00")?.timeIntervalSince1970 == base)
        #expect(ISO8601Timestamp.date(from: "2026-11-30T23:53:16-06:00")?.timeIntervalSince1970 == base)
    }

    @Test func rejectsOtherText() {
        for text in [
            "", "2026-12-01", "2026-12-01T05:53:16", "2026-12-01 05:53:16Z", "2026-13-01T05:53:16Z",
            "2026-00-01T05:53:16Z", "2026-02-29T05:53:16Z", "2026-04-31T05:53:16Z", "2026-12-01T24:00:00Z",
            "2026-12-01T05:60:16Z", "2026-12-01T05:53:60Z", "2026-12-01T05:53:16.Z", "2026-12-01T05:53:16Zx",
            "2026-12-01T05:53:16+0800", "26-12-01T05:53:16Z", "2026-1-01T05:53:16Z", "２026-12-01T05:53:16Z",
        ] {
            #expect(ISO8601Timestamp.date(from: text) == nil, "\(text)")
        }
    }

    @Test func writesWhatItReads() {
        #expect(
            ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 1_796_104_396.9))
                == "2026-12-01T05:53:16Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let seconds = Int.random(in: -62_135_596_800...253_402_300_799, using: &generator)
            let text = ISO8601Timestamp.string(from: Date(timeIntervalSince1970: Double(seconds)))
            #expect(ISO8601Timestamp.date(from: text)?.timeIntervalSince1970 == Double(seconds), "\(text)")
        }
    }

    // MARK: Relative times

    /// 2026-03-15 12:00:00 in Shanghai (04:00 UTC).
    let now = ISO8601Timestamp.date(from: "2026-03-15T04:00:00Z")!
    let shanghai = TimeZone(identifier: "Asia/Shanghai")!

    func zh(_ secondsAgo: Double) -> String {
        DisplayFormat.relativeTime(
            now.addingTimeInterval(-secondsAgo), now: now, timeZone: shanghai, language: .zh)
    }

    func en(_ secondsAgo: Double) -> String {
        DisplayFormat.relativeTime(
            now.addingTimeInterval(-secondsAgo), now: now, timeZone: shanghai, language: .en)
    }

    @Test func chineseRelativeTimes() {
        #expect(zh(0) == "刚刚")
        #expect(zh(59.9) == "刚刚")
        #expect(zh(60) == "1分钟前")
        #expect(zh(119) == "1分钟前")
        #expect(zh(3599) == "59分钟前")
        #expect(zh(3600) == "1小时前")
        #expect(zh(86_399) == "23小时前")
        #expect(zh(86_400) == "1天前")
        #expect(zh(6 * 86_400 + 86_399) == "6天前")
        #expect(zh(7 * 86_400) == "03-08")
    }

    @Test func englishRelativeTimes() {
        #expect(en(0) == "just now")
        #expect(en(59) == "just now")
        #expect(en(60) == "1 min ago")
        #expect(en(300) == "5 min ago")
        #expect(en(3600) == "1 h ago")
        #expect(en(3 * 3600 + 59) == "3 h ago")
        #expect(en(86_400) == "yesterday")
        #expect(en(2 * 86_400) == "2 days ago")
        #expect(en(6 * 86_400 + 86_399) == "6 days ago")
        #expect(en(7 * 86_400) == "Mar 8")
    }

    @Test func futureTimesAreJustNow() {
        #expect(zh(-1) == "刚刚")
        #expect(zh(-86_400 * 365) == "刚刚")
        #expect(en(-30) == "just now")
    }

    @Test func datesUseTheUsersTimeZoneAndYear() {
        // 2025-12-31T17:00Z is still Dec 31 in UTC but Jan 1 01:00 in Shanghai.
        let newYear = ISO8601Timestamp.date(from: "2025-12-31T17:00:00Z")!
        let utc = TimeZone(identifier: "UTC")!
        #expect(DisplayFormat.relativeTime(newYear, now: now, timeZone: shanghai, language: .zh) == "01-01")
        #expect(DisplayFormat.relativeTime(newYear, now: now, timeZone: utc, language: .zh) == "2025-12-31")
        #expect(DisplayFormat.relativeTime(newYear, now: now, timeZone: shanghai, language: .en) == "Jan 1")
        #expect(DisplayFormat.relativeTime(newYear, now: now, timeZone: utc, language: .en) == "Dec 31, 2025")
        let longAgo = ISO8601Timestamp.date(from: "2019-07-04T03:00:00Z")!
        #expect(
            DisplayFormat.relativeTime(longAgo, now: now, timeZone: shanghai, language: .zh) == "2019-07-04")
        #expect(
            DisplayFormat.relativeTime(longAgo, now: now, timeZone: shanghai, language: .en) == "Jul 4, 2019")
        // The year is the user's: at 2027-01-01 02:00 in Shanghai (still 2026 in UTC), a 2026 date has a year.
        let shanghaiNewYear = ISO8601Timestamp.date(from: "2026-12-31T18:00:00Z")!
        let december = ISO8601Timestamp.date(from: "2026-12-01T05:53:16Z")!
        #expect(
            DisplayFormat.relativeTime(december, now: shanghaiNewYear, timeZone: shanghai, language: .zh)
                == "2026-12-01")
        #expect(
            DisplayFormat.relativeTime(december, now: shanghaiNewYear, timeZone: utc, language: .zh)
                == "12-01")
    }

    @Test func relativeTimeOfAnAPIDate() {
        let created = ISO8601Timestamp.date(from: "2026-03-15T03:55:00.250Z")!
        #expect(DisplayFormat.relativeTime(created, now: now, timeZone: shanghai, language: .zh) == "4分钟前")
    }

    @Test func unrepresentableDatesDoNotCrash() {
        let far = Date(timeIntervalSince1970: -1e300)
        _ = DisplayFormat.relativeTime(far, now: now, timeZone: shanghai, language: .en)
        _ = DisplayFormat.relativeTime(
            Date(timeIntervalSince1970: .nan), now: now, timeZone: shanghai, language: .zh)
        _ = ISO8601Timestamp.string(from: Date(timeIntervalSince1970: .infinity))
    }
}
