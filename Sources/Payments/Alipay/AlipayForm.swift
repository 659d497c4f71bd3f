import Cryptography
import Foundation

/// Alipay's signed forms: the requests we send, and the notifications it posts (our sandbox signs its own the
/// same way, so both go through one verification).
enum AlipayForm {
    /// The only signature type taken: SHA256withRSA, which Alipay calls RSA2.
    static let signType = "RSA2"

    /// What Alipay signs: the pairs sorted by name (byte order), empty values left out, without `excluded`,
    /// written `name=value` and joined by `&`, values as they are (not escaped).
    static func signingText(_ pairs: [(name: String, value: String)], excluding excluded: Set<String>)
        -> [UInt8]
    {
        let text =
            pairs
            .filter { !$0.value.isEmpty && !excluded.contains($0.name) }
            .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
            .map { "\($0.name)=\($0.value)" }
            .joined(separator: "&")
        return Array(text.utf8)
    }

    /// `pairs` with their `sign_type` and `sign` added. A request's `sign_type` is part of what is signed; a
    /// notification's is not (see `AlipayNotifications`).
    static func signed(
        _ pairs: [(name: String, value: String)], with key: Crypto.RSAPrivateKey, asNotification: Bool = false
    ) throws(PaymentRequestError) -> [(name: String, value: String)] {
        let typed = pairs + [("sign_type", signType)]
        do {
            let text = signingText(asNotification ? pairs : typed, excluding: ["sign"])
            return typed + [("sign", Crypto.base64(try key.signature(of: text)))]
        } catch {
            throw PaymentRequestError("The request could not be signed: \(error.description)")
        }
    }

    /// An Alipay OpenAPI request: the common parameters, then `biz_content` as JSON, signed.
    static func request(
        method: String, appID: String, content: some Encodable, notifyURL: String?, returnURL: String?,
        now: Date,
        key: Crypto.RSAPrivateKey
    ) throws(PaymentRequestError) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = [
            ("app_id", appID), ("method", method), ("format", "JSON"), ("charset", "utf-8"),
            ("timestamp", ProviderTime.beijingText(now)), ("version", "1.0"),
        ]
        if let notifyURL { pairs.append(("notify_url", notifyURL)) }
        if let returnURL { pairs.append(("return_url", returnURL)) }
        pairs.append(("biz_content", ProviderJSON.text(content)))
        return try signed(pairs, with: key)
    }
}

/// Reads notifications in Alipay's format (form-encoded, RSA2-signed), for Alipay and for our sandbox.
struct AlipayNotifications: Sendable {
    let provider: PaymentProviderID
    let appID: String
    let sellerID: String?
    let publicKey: Crypto.RSAPublicKey

    /// Alipay's notifications are a few KiB; anything far larger is not one.
    static let maximumBytes = 64 << 10

    func notice(from notification: ProviderMessage) throws(PaymentRefusal) -> PaymentNotice {
        guard notification.body.count <= Self.maximumBytes else { throw .tooLarge(bytes: Self.maximumBytes) }
        if let type = notification.header("content-type"),
            !type.lowercased().hasPrefix("application/x-www-form-urlencoded")
        {
            throw .malformed("its Content-Type is \(type), not a form")
        }
        guard let pairs = FormEncoding.decode(notification.body) else {
            throw .malformed("its form encoding or UTF-8 is broken")
        }
        var fields: [String: String] = [:]
        for (name, value) in pairs {
            // One name twice could mean one thing to the signature and another to us.
            guard fields.updateValue(value, forKey: name) == nil else {
                throw .malformed("it has \(name) twice")
            }
        }
        // Empty values are not signed, so they are not read either.
        fields = fields.filter { !$0.value.isEmpty }
        guard let sign = fields["sign"] else { throw .unsigned }
        guard fields["sign_type"] == AlipayForm.signType else {
            throw .unsupportedSignatureType(fields["sign_type"].map { "sign_type \($0)" } ?? "no sign_type")
        }
        if let charset = fields["charset"], !["utf-8", "utf8"].contains(charset.lowercased()) {
            throw .malformed("its charset is \(charset), where our requests ask for utf-8")
        }
        guard let signature = Crypto.unbase64(sign),
            publicKey.isValidSignature(
                signature, of: AlipayForm.signingText(pairs, excluding: ["sign", "sign_type"]))
        else { throw .badSignature }
        return try decode(fields, payload: notification.bodyText)
    }

    private func decode(_ fields: [String: String], payload: String) throws(PaymentRefusal) -> PaymentNotice {
        func field(_ name: String) throws(PaymentRefusal) -> String {
            guard let value = fields[name], !value.isEmpty else { throw .malformed("it has no \(name)") }
            return value
        }
        func amount(_ name: String, currency: String) throws(PaymentRefusal) -> PaymentAmount {
            let text = try field(name)
            guard let cents = PaymentAmount.cents(fromDecimal: text) else {
                throw .malformed("its \(name) \(text) is not an amount with at most two decimals")
            }
            return PaymentAmount(cents: cents, currency: currency)
        }
        let app = try field("app_id")
        guard app == appID else { throw .wrongApp(app) }
        let seller = fields["seller_id"]
        if let sellerID, seller != sellerID { throw .wrongMerchant(seller ?? "(none)") }
        let orderNumber = try field("out_trade_no")
        guard orderNumber.utf8.count <= 64 else {
            throw .malformed("its out_trade_no is longer than 64 bytes")
        }
        let currency = fields["trans_currency"] ?? "CNY"
        guard currency.isCode(maximum: 3, minimum: 3), currency == currency.uppercased() else {
            throw .malformed("its trans_currency \(currency) is not a currency code")
        }
        let tradeStatus = try field("trade_status")
        var status: PaymentStatus =
            switch tradeStatus {
            case "TRADE_SUCCESS", "TRADE_FINISHED": .paid
            case "TRADE_CLOSED": .closed
            case "WAIT_BUYER_PAY": .pending
            default: .other
            }
        // Refunds are announced with the trade's state and the refunded total.
        var refunded: PaymentAmount?
        if fields["refund_fee"] != nil {
            let value = try amount("refund_fee", currency: currency)
            if value.cents > 0 {
                refunded = value
                status = .refunded
            }
        }
        var paidAt: Date?
        if let text = fields["gmt_payment"], !text.isEmpty {
            guard let date = ProviderTime.parseBeijing(text) else {
                throw .malformed("its gmt_payment \(text) is not a time")
            }
            paidAt = date
        }
        return PaymentNotice(
            provider: provider, notificationID: try field("notify_id"), orderNumber: orderNumber,
            providerTradeNumber: try field("trade_no"),
            amount: try amount("total_amount", currency: currency),
            status: status, providerStatus: tradeStatus, paidAt: paidAt, appID: app, merchantID: seller,
            refunded: refunded, refundNumber: fields["out_biz_no"], payload: payload, decryptedResource: nil)
    }

    static let accepted = NotificationAnswer(
        status: 200, contentType: "text/plain; charset=utf-8", body: Array("success".utf8))
    static let failed = NotificationAnswer(
        status: 200, contentType: "text/plain; charset=utf-8", body: Array("failure".utf8))
}
