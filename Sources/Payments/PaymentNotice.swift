import Foundation

/// Where a trade stands, in the shop's words.
public enum PaymentStatus: String, Sendable, Equatable {
    /// The payer paid (Alipay TRADE_SUCCESS or TRADE_FINISHED, WeChat Pay SUCCESS).
    case paid
    /// The trade was closed unpaid (Alipay TRADE_CLOSED, WeChat Pay CLOSED or REVOKED).
    case closed
    /// Not paid yet (Alipay WAIT_BUYER_PAY, WeChat Pay NOTPAY or USERPAYING).
    case pending
    /// Money went back to the payer (refund notices).
    case refunded
    /// A state the shop has no use for (WeChat Pay PAYERROR, a state added later).
    case other
}

/// What a verified notification says, decoded.
public struct PaymentNotice: Sendable, Equatable {
    public var provider: PaymentProviderID
    /// The provider's id of this notification (Alipay's `notify_id`, WeChat Pay's event `id`): the same each
    /// time it is sent again, so the shop refuses a replay by it.
    public var notificationID: String
    public var orderNumber: String
    /// The provider's number for the trade (Alipay's `trade_no`, WeChat Pay's `transaction_id`).
    public var providerTradeNumber: String
    /// The order's amount as the provider charged it.
    public var amount: PaymentAmount
    public var status: PaymentStatus
    /// The provider's own word for the state (TRADE_SUCCESS, SUCCESS, REFUND.SUCCESS, ...).
    public var providerStatus: String
    public var paidAt: Date?
    /// The app the notification is for; WeChat Pay's refund notices name none.
    public var appID: String?
    /// The merchant it is for (Alipay's `seller_id`, WeChat Pay's `mchid`).
    public var merchantID: String?
    /// For refund notices: how much went back, and our number for the refund.
    public var refunded: PaymentAmount?
    public var refundNumber: String?
    /// The notification's body as received, for the audit log.
    public var payload: String
    /// WeChat Pay's decrypted resource, for the audit log; it holds the payer's openid, so keep it as personal data.
    public var decryptedResource: String?

    /// What the shop keys replay refusal on: the provider and its notification id.
    public var replayKey: String { "\(provider.rawValue):\(notificationID)" }

    /// What the notice means for our order `orderNumber` of `amount`: paid, closed or ignored when it matches
    /// the order; refused when the order number or the amount (currency included) differ.
    ///
    /// Whether the order may still be paid (an expired one is recorded for refund) is the shop's to decide.
    public func verdict(orderNumber expectedNumber: String, amount expected: PaymentAmount) -> PaymentVerdict
    {
        guard orderNumber == expectedNumber else { return .refused(.wrongOrder(orderNumber)) }
        switch status {
        case .paid, .closed:
            guard amount == expected else {
                return .refused(.amountMismatch(expected: expected, notified: amount))
            }
            return status == .paid ? .paid : .closed
        case .pending: return .ignored("The trade is still waiting for the payer (\(providerStatus)).")
        case .refunded: return .ignored("A refund notice (\(providerStatus)) changes no payment.")
        case .other: return .ignored("The trade's state \(providerStatus) needs nothing from the shop.")
        }
    }
}

/// What a notice means for the order it names.
public enum PaymentVerdict: Sendable, Equatable {
    case paid
    case closed
    /// Verified, and nothing to do; the sentence says why.
    case ignored(String)
    case refused(PaymentRefusal)
}

/// Why a notification (or a provider's answer) is not believed, or does not fit the order.
public enum PaymentRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    case tooLarge(bytes: Int)
    /// Not in the provider's format; the text says what is wrong.
    case malformed(String)
    /// No signature at all.
    case unsigned
    /// Signed another way than RSA2 / WECHATPAY2-SHA256-RSA2048.
    case unsupportedSignatureType(String)
    /// The signature does not match the content and the provider's key.
    case badSignature
    /// Signed with a WeChat Pay platform certificate that is not configured.
    case unknownCertificate(serial: String)
    /// Signed with a platform certificate outside its validity.
    case certificateNotValid(serial: String)
    /// A WeChat Pay timestamp more than five minutes from now (`seconds` late, or early when negative).
    case staleTimestamp(seconds: Int)
    /// Signed by the provider, but for another app.
    case wrongApp(String)
    /// Signed by the provider, but for another merchant (seller).
    case wrongMerchant(String)
    /// WeChat Pay's resource does not decrypt under the APIv3 key (a corrupted tag, a wrong key).
    case notDecryptable
    /// A WeChat Pay event the shop does not handle.
    case unsupportedEvent(String)
    /// A notice about another order than the one it was checked against.
    case wrongOrder(String)
    /// A notice whose amount differs from the order's.
    case amountMismatch(expected: PaymentAmount, notified: PaymentAmount)
    /// The provider answered a request with an error of its own.
    case providerDeclined(code: String, message: String)

    /// A stable word for logs and metrics.
    public var code: String {
        switch self {
        case .tooLarge: "too_large"
        case .malformed: "malformed"
        case .unsigned: "unsigned"
        case .unsupportedSignatureType: "unsupported_signature_type"
        case .badSignature: "bad_signature"
        case .unknownCertificate: "unknown_certificate"
        case .certificateNotValid: "certificate_not_valid"
        case .staleTimestamp: "stale_timestamp"
        case .wrongApp: "wrong_app"
        case .wrongMerchant: "wrong_merchant"
        case .notDecryptable: "not_decryptable"
        case .unsupportedEvent: "unsupported_event"
        case .wrongOrder: "wrong_order"
        case .amountMismatch: "amount_mismatch"
        case .providerDeclined: "provider_declined"
        }
    }

    public var description: String {
        switch self {
        case .tooLarge(let bytes): "The message is larger than \(bytes) bytes."
        case .malformed(let detail): "The message is not in the provider's format: \(detail)."
        case .unsigned: "The message carries no signature."
        case .unsupportedSignatureType(let type): "The message is signed with \(type), which is not taken."
        case .badSignature: "The signature does not match the message and the provider's key."
        case .unknownCertificate(let serial):
            "The message is signed with platform certificate \(serial), which is not configured."
        case .certificateNotValid(let serial): "The platform certificate \(serial) is not valid now."
        case .staleTimestamp(let seconds):
            "The message's timestamp is \(seconds.magnitude) seconds \(seconds < 0 ? "ahead" : "old") (at most 300)."
        case .wrongApp(let app): "The message is for app \(app), not this shop's."
        case .wrongMerchant(let merchant): "The message is for merchant \(merchant), not this shop's."
        case .notDecryptable: "The resource does not decrypt with the APIv3 key."
        case .unsupportedEvent(let event): "The event \(event) is not one the shop handles."
        case .wrongOrder(let number): "The notice is for order \(number), not this one."
        case .amountMismatch(let expected, let notified):
            "The notice says \(notified) where the order is \(expected)."
        case .providerDeclined(let code, let message): "The provider declined (\(code)): \(message)"
        }
    }
}
