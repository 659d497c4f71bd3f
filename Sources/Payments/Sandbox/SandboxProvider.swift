import Cryptography
import Foundation

/// Our own provider for demos and tests: a clearly marked payment page on the server, whose notifications are
/// signed like Alipay's with a key made at the sandbox's first start, so they go through the same verification.
public struct SandboxConfiguration: Sendable, Equatable {
    /// The app id the sandbox's notifications name.
    public static let appID = "cloudmusic-sandbox"

    /// The sandbox's RSA private key (PEM), made once by `newPrivateKey()` and stored by the caller (mode 0600).
    public var privateKey: String
    /// The server's sandbox payment page: a path on the server ("/shop/sandbox/pay") or a full http(s) address.
    public var pageURL: String

    public init(privateKey: String, pageURL: String = "/shop/sandbox/pay") {
        self.privateKey = privateKey
        self.pageURL = pageURL
    }

    /// A new sandbox key as PEM, for the caller to store at first start.
    public static func newPrivateKey() throws(PaymentConfigurationError) -> String {
        do {
            return try Crypto.RSAPrivateKey.generate().pkcs8PEM()
        } catch {
            throw PaymentConfigurationError(problems: [
                "The sandbox key could not be made: \(error.description)"
            ])
        }
    }
}

/// The sandbox: payments start on our page, which posts a signed notification when the payer presses "pay";
/// refunds complete at once. Money never moves.
public struct SandboxProvider: PaymentProvider {
    public let id = PaymentProviderID.sandbox
    let configuration: SandboxConfiguration
    let key: Crypto.RSAPrivateKey
    let notifications: AlipayNotifications
    /// Keys the page links' tokens; derived from the private key, so nothing more needs storing.
    let pageKey: [UInt8]

    public init(_ configuration: SandboxConfiguration) throws(PaymentConfigurationError) {
        var check = ConfigurationCheck()
        let key = check.read("sandbox private key") { () throws(Crypto.KeyError) in
            try Crypto.RSAPrivateKey(text: configuration.privateKey)
        }
        if !configuration.pageURL.hasPrefix("/") || configuration.pageURL.hasPrefix("//") {
            check.requireURL(
                configuration.pageURL, setting: "sandbox page URL", schemes: ["http", "https"],
                example: "/shop/sandbox/pay")
        }
        // The page key comes from the private key's secret bytes (its PKCS#8 text), never from public ones.
        let secret = key.flatMap { try? $0.pkcs8PEM() }
        check.require(
            key == nil || secret != nil, "The sandbox private key cannot be exported to derive its page key.")
        try check.done()
        self.configuration = configuration
        self.key = key!
        notifications = AlipayNotifications(
            provider: .sandbox, appID: SandboxConfiguration.appID, sellerID: nil, publicKey: key!.publicKey)
        pageKey = Crypto.keyedHash(
            "cloudmusic sandbox payment page", key: Crypto.unhex(Crypto.tokenHash(secret!))!)
    }

    public func payment(for order: PaymentOrder, now: Date) throws(PaymentRequestError) -> PaymentStep {
        guard order.number.isCode(maximum: 64, extras: "_-") else {
            throw PaymentRequestError("The sandbox takes order numbers of 1 to 64 letters, digits, _ and -.")
        }
        guard order.amount.cents > 0, order.amount.cents <= PaymentAmount.maximumCents,
            order.amount.currency.isCode(maximum: 3, minimum: 3)
        else {
            throw PaymentRequestError(
                "The sandbox takes amounts from 0.01 to 100000000.00 in a 3-letter currency.")
        }
        guard order.expiresAt > now else {
            throw PaymentRequestError("The order has expired; it cannot be paid.")
        }
        let query = FormEncoding.encode([("order", order.number), ("token", pageToken(for: order))])
        let separator = configuration.pageURL.contains("?") ? "&" : "?"
        return .start(.redirect(configuration.pageURL + separator + query))
    }

    /// The token in the page link of `order`: only whoever started the payment has it.
    public func pageToken(for order: PaymentOrder) -> String {
        let text =
            "\(order.number)\n\(order.amount.cents)\n\(order.amount.currency)\n"
            + "\(Int(order.expiresAt.timeIntervalSince1970))"
        return Crypto.hex(Crypto.keyedHash(text, key: pageKey))
    }

    /// Whether `token` (from the page's link) is the one made for `order`, compared in constant time.
    public func isValidPageToken(_ token: String, for order: PaymentOrder) -> Bool {
        guard let given = Crypto.unhex(token) else { return false }
        return Crypto.constantTimeEqual(given, Crypto.unhex(pageToken(for: order))!)
    }

    /// The notification the page posts to the notify URL when the payer presses "pay" (`.paid`) or "cancel"
    /// (`.closed`): Alipay's format, signed with the sandbox key.
    public func notification(for order: PaymentOrder, status: PaymentStatus = .paid, now: Date)
        throws(PaymentRequestError) -> ProviderMessage
    {
        let tradeStatus =
            switch status {
            case .paid: "TRADE_SUCCESS"
            case .closed: "TRADE_CLOSED"
            default: "WAIT_BUYER_PAY"
            }
        var pairs: [(name: String, value: String)] = [
            ("notify_id", Crypto.hex(Crypto.randomBytes(16))), ("notify_time", ProviderTime.beijingText(now)),
            ("notify_type", "trade_status_sync"), ("app_id", SandboxConfiguration.appID),
            ("charset", "utf-8"),
            ("version", "1.0"), ("out_trade_no", order.number), ("trade_no", tradeNumber(for: order)),
            ("trade_status", tradeStatus), ("total_amount", order.amount.decimalText),
            ("subject", order.subject.subject(maximumBytes: 256)),
        ]
        if order.amount.currency != "CNY" { pairs.append(("trans_currency", order.amount.currency)) }
        if status == .paid { pairs.append(("gmt_payment", ProviderTime.beijingText(now))) }
        let signed = try AlipayForm.signed(pairs, with: key, asNotification: true)
        return ProviderMessage(
            headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"],
            body: Array(FormEncoding.encode(signed).utf8))
    }

    /// The sandbox's trade number for an order: the same each time, like a provider's.
    func tradeNumber(for order: PaymentOrder) -> String {
        "SB"
            + Crypto.hex(Array(Crypto.keyedHash("trade \(order.number)", key: pageKey).prefix(12)))
            .uppercased()
    }

    public func notice(from notification: ProviderMessage, now: Date) throws(PaymentRefusal) -> PaymentNotice
    {
        try notifications.notice(from: notification)
    }

    public var acceptedAnswer: NotificationAnswer { AlipayNotifications.accepted }

    public func failedAnswer(_ refusal: PaymentRefusal?) -> NotificationAnswer { AlipayNotifications.failed }

    public func refund(_ refund: RefundRequest, now: Date) throws(PaymentRequestError) -> RefundStep {
        guard refund.amount.cents > 0, refund.amount.cents <= refund.orderTotal.cents,
            refund.amount.currency == refund.orderTotal.currency
        else { throw PaymentRequestError("A refund is 0.01 up to the order's total, in its currency.") }
        return .done(
            RefundResult(
                status: .succeeded, refundNumber: refund.refundNumber,
                providerRefundNumber: "SBR" + Crypto.hex(Crypto.randomBytes(8)).uppercased(),
                refunded: refund.amount,
                payload:
                    "sandbox refund \(refund.refundNumber) of \(refund.amount) for order \(refund.orderNumber)"
            ))
    }

    public func refundQuery(_ refund: RefundRequest, now: Date) throws(PaymentRequestError) -> RefundStep {
        try self.refund(refund, now: now)
    }

    public func refundResult(from answer: ProviderMessage, for refund: RefundRequest, now: Date)
        throws(PaymentRefusal) -> RefundResult
    {
        throw .malformed("the sandbox refunds at once, so it has no answer to read")
    }
}
