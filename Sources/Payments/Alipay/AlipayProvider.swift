import Cryptography
import Foundation

/// What the shop needs to take payments through Alipay (电脑网站支付, page pay).
///
/// Keys are text as pasted (PEM, or the bare base64 the open platform shows); a caller that keeps them in
/// files reads the files first.
public struct AlipayConfiguration: Sendable, Equatable {
    public static let productionGateway = "https://openapi.alipay.com/gateway.do"
    public static let sandboxGateway = "https://openapi-sandbox.dl.alipaydev.com/gateway.do"

    /// The app's id on the open platform (digits, such as 2021000000000000).
    public var appID: String
    /// The merchant's PID (2088 and 12 more digits); when set, notifications must name it as `seller_id`.
    public var sellerID: String?
    /// The app's private key, which signs our requests.
    public var appPrivateKey: String
    /// Alipay's public key (not the app's own), which signs Alipay's notifications and answers.
    public var alipayPublicKey: String
    /// Where Alipay posts notifications: a full http(s) address without a query.
    public var notifyURL: String
    /// Where the payer's browser comes back to after paying (a page that asks the server for the order's
    /// state: the return itself proves nothing).
    public var returnURL: String?
    public var gatewayURL: String

    public init(
        appID: String, sellerID: String? = nil, appPrivateKey: String, alipayPublicKey: String,
        notifyURL: String,
        returnURL: String? = nil, gatewayURL: String = AlipayConfiguration.productionGateway
    ) {
        self.appID = appID
        self.sellerID = sellerID
        self.appPrivateKey = appPrivateKey
        self.alipayPublicKey = alipayPublicKey
        self.notifyURL = notifyURL
        self.returnURL = returnURL
        self.gatewayURL = gatewayURL
    }
}

/// Alipay: page pay, its asynchronous notifications (RSA2 over the sorted form), refunds and refund queries.
public struct AlipayProvider: PaymentProvider {
    public let id = PaymentProviderID.alipay
    let configuration: AlipayConfiguration
    let appKey: Crypto.RSAPrivateKey
    let notifications: AlipayNotifications

    static let refundNode = "alipay_trade_refund_response"
    static let refundQueryNode = "alipay_trade_fastpay_refund_query_response"

    /// A provider from settings that are checked whole: every problem found is in the error.
    public init(_ configuration: AlipayConfiguration) throws(PaymentConfigurationError) {
        var check = ConfigurationCheck()
        check.require(
            configuration.appID.isDigits && configuration.appID.count <= 32,
            "The Alipay app id must be the digits the open platform shows for the app, such as 2021000000000000."
        )
        if let seller = configuration.sellerID {
            check.require(
                seller.isDigits && seller.count == 16 && seller.hasPrefix("2088"),
                "The Alipay seller id must be the merchant's PID (16 digits starting 2088), or unset.")
        }
        let appKey = check.read("Alipay app private key") { () throws(Crypto.KeyError) in
            try Crypto.RSAPrivateKey(text: configuration.appPrivateKey)
        }
        let alipayKey = check.read("Alipay public key") { () throws(Crypto.KeyError) in
            try Crypto.RSAPublicKey(text: configuration.alipayPublicKey)
        }
        if let appKey, let alipayKey {
            check.require(
                appKey.publicKey != alipayKey,
                "The Alipay public key is the app's own public key; use the Alipay public key shown beside it on "
                    + "the open platform.")
        }
        check.requireURL(
            configuration.notifyURL, setting: "Alipay notify URL", schemes: ["http", "https"],
            example: "https://shop.example.com/v1/payments/alipay/notify")
        if let returnURL = configuration.returnURL {
            check.requireURL(
                returnURL, setting: "Alipay return URL", schemes: ["http", "https"],
                example: "https://shop.example.com/orders/paid")
        }
        check.requireURL(
            configuration.gatewayURL, setting: "Alipay gateway URL", schemes: ["https"],
            example: AlipayConfiguration.productionGateway)
        try check.done()
        self.configuration = configuration
        self.appKey = appKey!
        notifications = AlipayNotifications(
            provider: .alipay, appID: configuration.appID, sellerID: configuration.sellerID,
            publicKey: alipayKey!)
    }

    public func payment(for order: PaymentOrder, now: Date) throws(PaymentRequestError) -> PaymentStep {
        try Self.checkNumber(order.number, "order number")
        try PaymentRequestError.checkCNY(order, now: now, provider: "Alipay")
        struct PagePay: Encodable {
            let outTradeNo: String
            let productCode = "FAST_INSTANT_TRADE_PAY"
            let subject: String
            let timeExpire: String
            let totalAmount: String
        }
        let content = PagePay(
            outTradeNo: order.number, subject: order.subject.subject(maximumBytes: 256, banned: "/=&"),
            timeExpire: ProviderTime.beijingText(order.expiresAt), totalAmount: order.amount.decimalText)
        let pairs = try AlipayForm.request(
            method: "alipay.trade.page.pay", appID: configuration.appID, content: content,
            notifyURL: configuration.notifyURL, returnURL: configuration.returnURL, now: now, key: appKey)
        return .start(.redirect(configuration.gatewayURL + "?" + FormEncoding.encode(pairs)))
    }

    public func notice(from notification: ProviderMessage, now: Date) throws(PaymentRefusal) -> PaymentNotice
    {
        try notifications.notice(from: notification)
    }

    public var acceptedAnswer: NotificationAnswer { AlipayNotifications.accepted }

    public func failedAnswer(_ refusal: PaymentRefusal?) -> NotificationAnswer { AlipayNotifications.failed }

    public func refund(_ refund: RefundRequest, now: Date) throws(PaymentRequestError) -> RefundStep {
        try Self.checkNumber(refund.orderNumber, "order number")
        try Self.checkNumber(refund.refundNumber, "refund number")
        try PaymentRequestError.checkCNY(refund, provider: "Alipay")
        struct Refund: Encodable {
            let outTradeNo: String
            let outRequestNo: String
            let refundAmount: String
            let refundReason: String
        }
        let content = Refund(
            outTradeNo: refund.orderNumber, outRequestNo: refund.refundNumber,
            refundAmount: refund.amount.decimalText, refundReason: refund.reason.subject(maximumBytes: 256))
        return .callProvider(try call("alipay.trade.refund", content, now: now))
    }

    /// Asks how a refund stands (the refund's own answer may leave it open: `fund_change` N).
    public func refundQuery(_ refund: RefundRequest, now: Date) throws(PaymentRequestError) -> RefundStep {
        struct Query: Encodable {
            let outTradeNo: String
            let outRequestNo: String
        }
        let content = Query(outTradeNo: refund.orderNumber, outRequestNo: refund.refundNumber)
        return .callProvider(try call("alipay.trade.fastpay.refund.query", content, now: now))
    }

    public func refundResult(from answer: ProviderMessage, for refund: RefundRequest, now: Date)
        throws(PaymentRefusal) -> RefundResult
    {
        var result = RefundResult(
            status: .processing, refundNumber: refund.refundNumber, providerRefundNumber: nil, refunded: nil,
            payload: answer.bodyText)
        // The gateway itself failing says nothing about the refund: ask again.
        guard (200..<300).contains(answer.status) else { return result }
        let (node, fields, signed) = try answerNode(
            answer, [Self.refundNode, Self.refundQueryNode, "error_response"])
        let code = fields["code"] as? String ?? ""
        let subCode = fields["sub_code"] as? String
        guard code == "10000" else {
            if code == "20000" || subCode == "ACQ.SYSTEM_ERROR" { return result }
            let message = fields["sub_msg"] as? String ?? fields["msg"] as? String ?? "no reason given"
            result.status = .failed("\(message) (\(subCode ?? code))")
            return result
        }
        guard signed else { throw .unsigned }
        if let number = fields["out_trade_no"] as? String, number != refund.orderNumber {
            throw .wrongOrder(number)
        }
        if let number = fields["out_request_no"] as? String, number != refund.refundNumber {
            throw .malformed("it answers for refund \(number), not \(refund.refundNumber)")
        }
        let done =
            node == Self.refundQueryNode
            ? fields["refund_status"] as? String == "REFUND_SUCCESS" : fields["fund_change"] as? String == "Y"
        if done {
            result.status = .succeeded
            result.refunded = refund.amount
        }
        result.providerRefundNumber = fields["trade_no"] as? String
        return result
    }

    /// A signed call to the gateway, its parameters in a form body.
    private func call(_ method: String, _ content: some Encodable, now: Date) throws(PaymentRequestError)
        -> ProviderRequest
    {
        let pairs = try AlipayForm.request(
            method: method, appID: configuration.appID, content: content, notifyURL: nil, returnURL: nil,
            now: now,
            key: appKey)
        return ProviderRequest(
            method: "POST", url: configuration.gatewayURL,
            headers: [
                "Content-Type": "application/x-www-form-urlencoded;charset=utf-8",
                "Accept": "application/json",
            ],
            body: Array(FormEncoding.encode(pairs).utf8))
    }

    /// The first of `nodes` in a gateway answer, with whether Alipay's signature of its exact text was there
    /// (and valid: an invalid one is refused).
    private func answerNode(_ answer: ProviderMessage, _ nodes: [String]) throws(PaymentRefusal)
        -> (node: String, fields: [String: Any], signed: Bool)
    {
        guard answer.body.count <= AlipayNotifications.maximumBytes else {
            throw .tooLarge(bytes: AlipayNotifications.maximumBytes)
        }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(answer.body))) as? [String: Any],
            let node = nodes.first(where: { object[$0] != nil }),
            let fields = object[node] as? [String: Any], let text = ProviderJSON.member(node, in: answer.body)
        else { throw .malformed("the answer is not JSON with \(nodes[0])") }
        guard let sign = object["sign"] as? String, !sign.isEmpty else { return (node, fields, false) }
        guard let signature = Crypto.unbase64(sign),
            notifications.publicKey.isValidSignature(signature, of: Array(text))
        else { throw .badSignature }
        return (node, fields, true)
    }

    /// Alipay's numbers: up to 64 letters, digits and underscores.
    private static func checkNumber(_ number: String, _ name: String) throws(PaymentRequestError) {
        guard number.isCode(maximum: 64, extras: "_") else {
            throw PaymentRequestError(
                "Alipay takes an \(name) of 1 to 64 letters, digits and underscores, not \"\(number)\".")
        }
    }
}
