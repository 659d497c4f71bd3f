import Foundation
import Testing

@testable import Payments

@Suite struct PaymentRulesTests {
    @Test func decimalAmountsBecomeCentsExactly() {
        let good: [(String, Int)] = [
            ("0.01", 1), ("88.88", 8888), ("88.8", 8880), ("88", 8800), ("0", 0), ("0.10", 10),
            ("19.99", 1999),
            ("100000000.00", 10_000_000_000), ("00.05", 5),
        ]
        for (text, cents) in good {
            #expect(PaymentAmount.cents(fromDecimal: text) == cents, "\(text)")
        }
        // Each of these would round, overflow or be read differently somewhere.
        for text in [
            "", ".", "1.", ".5", "-1", "+1", "1e2", "1.234", "1,00", " 1", "1 ", "0x10", "１", "100000000.01",
            "99999999999999999999", "NaN", "1.2.3", "٣",
        ] {
            #expect(PaymentAmount.cents(fromDecimal: text) == nil, "\(text)")
        }
        #expect(PaymentAmount(cents: 1).decimalText == "0.01")
        #expect(PaymentAmount(cents: 8880).decimalText == "88.80")
        #expect(PaymentAmount(cents: 10_000_000_000).decimalText == "100000000.00")
        #expect(PaymentAmount(cents: -5).decimalText == "-0.05")
        for cents in [0, 1, 9, 10, 99, 100, 101, 123_456_789] {
            #expect(PaymentAmount.cents(fromDecimal: PaymentAmount(cents: cents).decimalText) == cents)
        }
    }

    @Test func providerTimesAgreeWithFoundation() {
        #expect(
            ProviderTime.parseBeijing("2015-04-27 15:45:58") == Date(timeIntervalSince1970: 1_430_120_758))
        #expect(
            ProviderTime.parseRFC3339("2018-06-08T10:34:56+08:00")
                == Date(timeIntervalSince1970: 1_528_425_296))
        #expect(
            ProviderTime.parseRFC3339("2018-06-08T02:34:56Z") == Date(timeIntervalSince1970: 1_528_425_296))
        #expect(
            ProviderTime.parseRFC3339("2018-06-08T02:34:56.5Z")
                == Date(timeIntervalSince1970: 1_528_425_296.5))
        #expect(
            ProviderTime.parseRFC3339("2018-06-07T21:34:56-05:00")
                == Date(timeIntervalSince1970: 1_528_425_296))
        for bad in [
            "2015-02-29 00:00:00", "2015-04-27T15:45:58", "2015-04-27 24:00:00", "2015-13-01 00:00:00",
            "2015-4-27 15:45:58", "", "2015-04-27 15:45:5x",
        ] {
            #expect(ProviderTime.parseBeijing(bad) == nil, "\(bad)")
        }
        for bad in [
            "2018-06-08T10:34:56", "2018-06-08T10:34:56+0800", "2018-06-08 10:34:56+08:00",
            "2018-06-08T10:34:56.Z",
        ] {
            #expect(ProviderTime.parseRFC3339(bad) == nil, "\(bad)")
        }
        // Leap days, year ends and times before 1970, checked against Foundation's formatter.
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: 8 * 3600)
        var generator = SystemRandomNumberGenerator()
        let samples =
            [-86_400 * 365 * 30, 951_782_400, 951_868_799, 1_704_038_399, 1_704_067_200, 4_102_444_799]
            + (0..<200).map { _ in Int.random(in: -2_000_000_000...4_000_000_000, using: &generator) }
        for seconds in samples {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let ours = ProviderTime.rfc3339(date)
            #expect(ours == formatter.string(from: date), "\(seconds)")
            #expect(ProviderTime.parseRFC3339(ours) == date)
            #expect(
                ProviderTime.beijingText(date) == ours.prefix(19).replacingOccurrences(of: "T", with: " "))
            #expect(ProviderTime.parseBeijing(ProviderTime.beijingText(date)) == date)
        }
    }

    @Test func formsDecodeStrictlyAndRoundTrip() {
        let decoded = FormEncoding.decode(Array("a=1&b=%E4%B8%AD+x&c=&d&&e=%3D%26".utf8))
        #expect(decoded?.map(\.name) == ["a", "b", "c", "d", "e"])
        #expect(decoded?.map(\.value) == ["1", "中 x", "", "", "=&"])
        for broken in ["a=%E4%B8", "a=%zz", "a=%4", "a=%", "a=%FF"] {
            #expect(FormEncoding.decode(Array(broken.utf8)) == nil, "\(broken)")
        }
        let pairs = [
            ("subject", "会员 / VIP & 更多 +1"), ("empty", ""), ("json", #"{"a":"b"}"#), ("~._-", "~._-"),
        ]
        let encoded = FormEncoding.encode(pairs)
        #expect(encoded.allSatisfy(\.isASCII) && !encoded.contains(" ") && !encoded.contains("+"))
        #expect(
            FormEncoding.decode(Array(encoded.utf8))?.map { [$0.name, $0.value] }
                == pairs.map { [$0.0, $0.1] })
        #expect(encoded == String(decoding: formBody(pairs), as: UTF8.self))
    }

    @Test func aMembersExactTextIsFoundWhateverSurroundsIt() {
        let text =
            #"{ "other" : {"sign":"x}\"{"}, "alipay_trade_refund_response" : {"code":"10000","msg":"Su\"c}cess","list":[1,{"a":[]}]} ,"sign":"abc="}"#
        let member = ProviderJSON.member("alipay_trade_refund_response", in: Array(text.utf8))
        #expect(
            member.map { String(decoding: $0, as: UTF8.self) }
                == #"{"code":"10000","msg":"Su\"c}cess","list":[1,{"a":[]}]}"#)
        #expect(
            ProviderJSON.member("sign", in: Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
                == #""abc=""#)
        #expect(ProviderJSON.member("missing", in: Array(text.utf8)) == nil)
        #expect(
            ProviderJSON.member("a", in: Array(#"{"a":tru"#.utf8)).map { String(decoding: $0, as: UTF8.self) }
                == "tru")
        // Only the text up to the member is read: the caller decodes the whole answer as JSON too.
        for broken in ["", "[]", "{\"a\"", "{\"a\":{\"b\":1", "{\"a\":\"x", "{\"b\" 1, \"a\":2}"] {
            #expect(ProviderJSON.member("a", in: Array(broken.utf8)) == nil, "\(broken)")
        }
    }

    @Test func subjectsAreCleanedAndCutAtACharacter() {
        #expect("会员 / VIP & more=1".subject(maximumBytes: 256, banned: "/=&") == "会员   VIP   more 1")
        #expect("a\u{0}b\nc".subject(maximumBytes: 256) == "a b c")
        let cut = String(repeating: "会", count: 50).subject(maximumBytes: 127)
        #expect(cut.utf8.count == 126)
        #expect(cut == String(repeating: "会", count: 42))
        #expect("   ".subject(maximumBytes: 10) == "CloudMusic")
    }

    @Test func everyRefusalHasACodeAndASentence() {
        let refusals: [PaymentRefusal] = [
            .tooLarge(bytes: 1), .malformed("x"), .unsigned, .unsupportedSignatureType("RSA"), .badSignature,
            .unknownCertificate(serial: "AB"), .certificateNotValid(serial: "AB"),
            .staleTimestamp(seconds: 400),
            .wrongApp("a"), .wrongMerchant("m"), .notDecryptable, .unsupportedEvent("E"), .wrongOrder("1"),
            .amountMismatch(expected: PaymentAmount(cents: 1), notified: PaymentAmount(cents: 2)),
            .providerDeclined(code: "C", message: "M"),
        ]
        #expect(Set(refusals.map(\.code)).count == refusals.count)
        for refusal in refusals {
            #expect(refusal.description.hasPrefix("The "))
        }
        #expect(
            PaymentRefusal.amountMismatch(
                expected: PaymentAmount(cents: 8888), notified: PaymentAmount(cents: 1)
            ).description
                == "The notice says 0.01 CNY where the order is 88.88 CNY.")
    }
}
