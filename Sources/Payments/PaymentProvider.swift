import Foundation

/// The payment providers the shop can take money through.
public enum PaymentProviderID: String, Sendable, Hashable, CaseIterable, Codable {
    case alipay
    case wechatPay = "wechatpay"
    /// Ours: a clearly marked payment page on the server, for demos and tests.
    case sandbox
}

/// What a payment provider does for the shop: starts payments, verifies and decodes its notifications,
/// answers them as it expects, and refunds.
///
/// A provider checks; it decides nothing. What to do with a notice (store it before acknowledging, refuse a
/// replay by its `PaymentNotice.replayKey`, record a late payment of an expired order for refund) is the shop
/// service's. Nothing here does I/O: calls to the provider are `ProviderRequest`s that the caller sends, and
/// their answers come back as `ProviderMessage`s.
public protocol PaymentProvider: Sendable {
    var id: PaymentProviderID { get }

    /// What starts the payment of `order`: where the payer goes, or a call to make first.
    func payment(for order: PaymentOrder, now: Date) throws(PaymentRequestError) -> PaymentStep

    /// Where the payer goes, from the provider's answer to the request `payment(for:now:)` asked to send.
    func paymentStart(from answer: ProviderMessage, for order: PaymentOrder, now: Date) throws(PaymentRefusal)
        -> PaymentStart

    /// The notice in a notification, once its signature, freshness and the merchant it names are checked.
    /// The same notification verifies each time it comes: idempotency and replay refusal are the caller's.
    func notice(from notification: ProviderMessage, now: Date) throws(PaymentRefusal) -> PaymentNotice

    /// The answer once the notice is stored: the provider stops sending it.
    var acceptedAnswer: NotificationAnswer { get }

    /// The answer to a refused notification (`refusal`), or to one the shop could not store (nil): the provider
    /// sends it again later.
    func failedAnswer(_ refusal: PaymentRefusal?) -> NotificationAnswer

    /// What refunds `refund`: done at once, or a call to make.
    func refund(_ refund: RefundRequest, now: Date) throws(PaymentRequestError) -> RefundStep

    /// What asks how a refund stands, when its result was `processing`.
    func refundQuery(_ refund: RefundRequest, now: Date) throws(PaymentRequestError) -> RefundStep

    /// The result of a refund, from the provider's answer to the request `refund(_:now:)` or
    /// `refundQuery(_:now:)` asked to send.
    func refundResult(from answer: ProviderMessage, for refund: RefundRequest, now: Date)
        throws(PaymentRefusal)
        -> RefundResult
}

extension PaymentProvider {
    /// Providers whose payments start without a call have no answer to read.
    public func paymentStart(from answer: ProviderMessage, for order: PaymentOrder, now: Date)
        throws(PaymentRefusal) -> PaymentStart
    {
        throw .malformed("\(id.rawValue) starts payments without a call, so it has no answer to read")
    }
}

/// An order as a provider needs it to take its payment.
public struct PaymentOrder: Sendable, Equatable {
    /// Our order number (the providers' `out_trade_no`), never reused. Digits only suit every provider.
    public var number: String
    public var amount: PaymentAmount
    /// What the payer sees in their app (the products' titles); shortened and cleaned to each provider's rules.
    public var subject: String
    /// When the provider must stop taking the payment: the order's own expiry.
    public var expiresAt: Date

    public init(number: String, amount: PaymentAmount, subject: String, expiresAt: Date) {
        self.number = number
        self.amount = amount
        self.subject = subject
        self.expiresAt = expiresAt
    }
}

/// A request for the caller to send to a provider over HTTPS (with its own timeouts and size limits).
public struct ProviderRequest: Sendable, Equatable {
    public var method: String
    public var url: String
    public var headers: [String: String]
    public var body: [UInt8]
}

/// What came from a provider: a notification posted to the notify URL, or its answer to a `ProviderRequest`.
public struct ProviderMessage: Sendable, Equatable {
    public var status: Int
    /// Header names in lower case.
    public let headers: [String: String]
    public var body: [UInt8]

    /// A message; header names are matched ignoring case.
    public init(status: Int = 200, headers: [String: String] = [:], body: [UInt8]) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        self.body = body
    }

    /// The value of a header, whatever the case of its name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The body as text for the audit log (invalid UTF-8 shows as U+FFFD).
    var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// The exact HTTP answer a provider expects to a notification.
public struct NotificationAnswer: Sendable, Equatable {
    public var status: Int
    public var contentType: String?
    public var body: [UInt8]
}

/// How the payer goes on to pay.
public enum PaymentStart: Sendable, Equatable {
    /// Send the payer's browser to this address (Alipay's cashier, our sandbox's page).
    case redirect(String)
    /// Show this text as a QR code for the payer to scan with their app (WeChat Pay's `code_url`).
    case qrCode(String)
}

/// What to do next to start a payment.
public enum PaymentStep: Sendable, Equatable {
    /// Nothing to ask the provider first.
    case start(PaymentStart)
    /// Send this to the provider, then read its answer with `PaymentProvider.paymentStart(from:for:now:)`.
    case callProvider(ProviderRequest)
}

/// A refund to ask a provider for.
public struct RefundRequest: Sendable, Equatable {
    public var orderNumber: String
    /// Our number for this refund (Alipay's `out_request_no`, WeChat Pay's `out_refund_no`): asking again with
    /// the same number refunds once.
    public var refundNumber: String
    public var amount: PaymentAmount
    /// What the order was paid in all (WeChat Pay wants it).
    public var orderTotal: PaymentAmount
    public var reason: String

    public init(
        orderNumber: String, refundNumber: String, amount: PaymentAmount, orderTotal: PaymentAmount,
        reason: String
    ) {
        self.orderNumber = orderNumber
        self.refundNumber = refundNumber
        self.amount = amount
        self.orderTotal = orderTotal
        self.reason = reason
    }
}

/// What to do next for a refund.
public enum RefundStep: Sendable, Equatable {
    /// Nothing to ask (the sandbox).
    case done(RefundResult)
    /// Send this to the provider, then read its answer with `PaymentProvider.refundResult(from:for:now:)`.
    case callProvider(ProviderRequest)
}

/// The outcome of a refund, as the provider said it.
public struct RefundResult: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        case succeeded
        /// Accepted or unknown for now: ask again later with the same refund number.
        case processing
        /// Refused by the provider, in its words.
        case failed(String)
    }

    public var status: Status
    public var refundNumber: String
    /// The provider's number for the refund (or for the trade, where it has none for refunds).
    public var providerRefundNumber: String?
    public var refunded: PaymentAmount?
    /// The provider's answer as received, for the audit log.
    public var payload: String
}

/// A payment or refund that cannot be asked for as it stands, with a sentence saying why.
public struct PaymentRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension PaymentRequestError {
    /// Refuses an order the Chinese providers cannot take: not in CNY, outside 0.01 to 100,000,000.00, or
    /// already expired.
    static func checkCNY(_ order: PaymentOrder, now: Date, provider: String) throws(PaymentRequestError) {
        try checkCNY(order.amount, upTo: PaymentAmount(cents: PaymentAmount.maximumCents), provider: provider)
        guard order.expiresAt > now else {
            throw PaymentRequestError("The order has expired; it cannot be paid.")
        }
    }

    /// Refuses a refund not in CNY, or outside 0.01 to the order's total.
    static func checkCNY(_ refund: RefundRequest, provider: String) throws(PaymentRequestError) {
        try checkCNY(refund.amount, upTo: refund.orderTotal, provider: provider)
    }

    private static func checkCNY(_ amount: PaymentAmount, upTo limit: PaymentAmount, provider: String)
        throws(PaymentRequestError)
    {
        guard amount.currency == "CNY", limit.currency == "CNY" else {
            throw PaymentRequestError("\(provider) takes amounts in CNY, not \(amount.currency).")
        }
        guard amount.cents > 0, amount.cents <= limit.cents else {
            throw PaymentRequestError(
                "\(provider) takes amounts of 0.01 to \(limit.decimalText) CNY, not \(amount.decimalText).")
        }
    }
}
