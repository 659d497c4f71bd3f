/// A sum of money in integer cents (fen) of a currency with two minor digits, such as CNY.
///
/// Providers write amounts as decimal text ("88.80", Alipay) or as integer fen (WeChat Pay); both convert
/// here exactly, never through floating point.
public struct PaymentAmount: Sendable, Hashable, CustomStringConvertible {
    public var cents: Int
    /// ISO 4217 code, upper case.
    public var currency: String

    public init(cents: Int, currency: String = "CNY") {
        self.cents = cents
        self.currency = currency
    }

    /// The largest amount a provider takes in one payment: 100,000,000.00 (Alipay's limit).
    public static let maximumCents = 10_000_000_000

    /// The cents of decimal text with at most two decimals and no sign ("88", "88.8", "88.88"); nil for
    /// anything else (a sign, an exponent, a third decimal, spaces, more than 100,000,000.00).
    public static func cents(fromDecimal text: String) -> Int? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard (1...11).contains(whole.count), parts.count == 1 || (1...2).contains(fraction.count),
            (whole + fraction).allSatisfy({ $0.isASCII && $0.isNumber }),
            let units = Int(whole)
        else { return nil }
        let hundredths = fraction.isEmpty ? 0 : Int(fraction)! * (fraction.count == 1 ? 10 : 1)
        let cents = units * 100 + hundredths
        return cents <= maximumCents ? cents : nil
    }

    /// The amount as decimal text with two decimals ("88.80"), as Alipay writes it.
    public var decimalText: String {
        let magnitude = cents.magnitude
        let fraction = magnitude % 100
        return (cents < 0 ? "-" : "") + "\(magnitude / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    public var description: String { "\(decimalText) \(currency)" }
}
