import Cryptography
import Foundation

/// What the shop needs to take payments through WeChat Pay API v3 (Native: a QR code the payer scans).
///
/// Keys and certificates are text as pasted (PEM); a caller that keeps them in files reads the files first.
public struct WeChatPayConfiguration: Sendable, Equatable {
    public static let productionAPI = "https://api.mch.weixin.qq.com"

    /// The merchant id (`mchid`, digits).
    public var merchantID: String
    /// The app id bound to the merchant (`appid`, "wx" and 16 more characters).
    public var appID: String
    /// The merchant API private key (apiclient_key.pem), which signs our requests.
    public var merchantPrivateKey: String
    /// The serial number of the merchant API certificate (apiclient_cert.pem), in hex.
    public var merchantSerialNumber: String
    /// The 32-character APIv3 key set in the merchant platform: it decrypts notifications' resources.
    public var apiV3Key: String
    /// WeChat Pay's platform certificates (PEM, one or more), which sign its notifications and answers.
    public var platformCertificates: String?
    /// Or WeChat Pay's public key (the newer "WeChat Pay public key" mode) and its id (PUB_KEY_ID_...).
    public var platformPublicKey: String?
    public var platformPublicKeyID: String?
    /// Where WeChat Pay posts notifications: a full https address without a query.
    public var notifyURL: String
    public var apiBaseURL: String

    public init(
        merchantID: String, appID: String, merchantPrivateKey: String, merchantSerialNumber: String,
        apiV3Key: String, platformCertificates: String? = nil, platformPublicKey: String? = nil,
        platformPublicKeyID: String? = nil, notifyURL: String,
        apiBaseURL: String = WeChatPayConfiguration.productionAPI
    ) {
        self.merchantID = merchantID
        self.appID = appID
        self.merchantPrivateKey = merchantPrivateKey
        self.merchantSerialNumber = merchantSerialNumber
        self.apiV3Key = apiV3Key
        self.platformCertificates = platformCertificates
        self.platformPublicKey = platformPublicKey
        self.platformPublicKeyID = platformPublicKeyID
        self.notifyURL = notifyURL
        self.apiBaseURL = apiBaseURL
    }
}

/// WeChat Pay API v3: Native payments, notifications (platform signature on the headers, resource in
/// AES-256-GCM), domestic refunds and their queries.
public struct WeChatPayProvider: PaymentProvider {
    public let id = PaymentProviderID.wechatPay
    let configuration: WeChatPayConfiguration
    let signatures: WeChatPaySignatures

    /// A provider from settings checked whole (every problem found is in the error); certificates that have
    /// all expired by `now` are one of them.
    public init(_ configuration: WeChatPayConfiguration, now: Date = Date()) throws(PaymentConfigurationError)
    {
        var check = ConfigurationCheck()
        check.require(
            configuration.merchantID.isDigits && configuration.merchantID.count <= 32,
            "The WeChat Pay merchant id must be the digits of the merchant's mchid, such as 1900000109.")
        check.require(
            configuration.appID.hasPrefix("wx") && configuration.appID.isCode(maximum: 32),
            "The WeChat Pay app id must be the appid bound to the merchant, starting wx.")
        let merchantKey = check.read("WeChat Pay merchant private key") { () throws(Crypto.KeyError) in
            try Crypto.RSAPrivateKey(text: configuration.merchantPrivateKey)
        }
        let serial = configuration.merchantSerialNumber
        check.require(
            (1...64).contains(serial.count) && serial.allSatisfy(\.isHexDigit),
            "The WeChat Pay merchant serial number must be the hex serial of the merchant API certificate, as "
                + "openssl x509 -in apiclient_cert.pem -noout -serial prints it.")
        check.require(
            configuration.apiV3Key.utf8.count == 32
                && configuration.apiV3Key.utf8.allSatisfy { (0x21...0x7E).contains($0) },
            "The WeChat Pay APIv3 key must be the 32 characters set in the merchant platform's API security page "
                + "(this one has \(configuration.apiV3Key.count)).")
        let platformKeys = Self.platformKeys(configuration, merchantKey: merchantKey, now: now, check: &check)
        check.requireURL(
            configuration.notifyURL, setting: "WeChat Pay notify URL", schemes: ["https"],
            example: "https://shop.example.com/v1/payments/wechatpay/notify")
        check.requireURL(
            configuration.apiBaseURL, setting: "WeChat Pay API address", schemes: ["https"],
            example: WeChatPayConfiguration.productionAPI)
        check.require(
            ["", "/"].contains(URLComponents(string: configuration.apiBaseURL)?.path ?? ""),
            "The WeChat Pay API address is a host only, such as \(WeChatPayConfiguration.productionAPI).")
        try check.done()
        self.configuration = configuration
        signatures = WeChatPaySignatures(
            merchantID: configuration.merchantID, merchantSerialNumber: serial, merchantKey: merchantKey!,
            platformKeys: platformKeys)
    }

    /// The keys WeChat Pay signs with, by serial: its platform certificates' and its public key, with the
    /// problems of those settings noted.
    private static func platformKeys(
        _ configuration: WeChatPayConfiguration, merchantKey: Crypto.RSAPrivateKey?, now: Date,
        check: inout ConfigurationCheck
    ) -> [String: WeChatPaySignatures.PlatformKey] {
        var platformKeys: [String: WeChatPaySignatures.PlatformKey] = [:]
        if let text = configuration.platformCertificates {
            let certificates =
                check.read("WeChat Pay platform certificates") { () throws(Crypto.KeyError) in
                    try Crypto.Certificate.all(in: text)
                } ?? []
            for certificate in certificates {
                platformKeys[WeChatPaySignatures.serialKey(certificate.serialNumber)] = .init(
                    key: certificate.publicKey, validity: certificate.notBefore...certificate.notAfter)
            }
            if let newest = certificates.map(\.notAfter).max(), newest < now {
                check.note(
                    "Every WeChat Pay platform certificate has expired (the newest on "
                        + "\(ProviderTime.beijingText(newest))); download the current ones.")
            }
            check.require(
                !certificates.contains {
                    WeChatPaySignatures.serialKey($0.serialNumber)
                        == WeChatPaySignatures.serialKey(configuration.merchantSerialNumber)
                },
                "The WeChat Pay merchant serial number is a platform certificate's; use the serial of the "
                    + "merchant's own API certificate (apiclient_cert.pem).")
            if let merchantKey {
                check.require(
                    !certificates.contains { $0.publicKey == merchantKey.publicKey },
                    "A WeChat Pay platform certificate holds the merchant's own key; use the platform "
                        + "certificates WeChat Pay issues.")
            }
        }
        switch (configuration.platformPublicKey, configuration.platformPublicKeyID) {
        case (let key?, let keyID?):
            check.require(
                keyID.hasPrefix("PUB_KEY_ID_") && keyID.isCode(maximum: 64, extras: "_"),
                "The WeChat Pay public key id must be the PUB_KEY_ID_... shown beside the key.")
            if let key = check.read(
                "WeChat Pay public key", { () throws(Crypto.KeyError) in try Crypto.RSAPublicKey(text: key) })
            {
                platformKeys[WeChatPaySignatures.serialKey(keyID)] = .init(key: key, validity: nil)
            }
        case (nil, nil): break
        default:
            check.note("The WeChat Pay public key and its id go together: set both or neither.")
        }
        check.require(
            configuration.platformCertificates != nil || configuration.platformPublicKey != nil,
            "WeChat Pay needs its platform certificates or its public key, to check its notifications.")
        return platformKeys
    }

    private struct Amount: Codable {
        var total: Int
        var currency: String?
    }

    public func payment(for order: PaymentOrder, now: Date) throws(PaymentRequestError) -> PaymentStep {
        try Self.checkNumber(order.number, "order number")
        try PaymentRequestError.checkCNY(order, now: now, provider: "WeChat Pay")
        struct Native: Encodable {
            let appid: String
            let mchid: String
            let description: String
            let outTradeNo: String
            let timeExpire: String
            let notifyUrl: String
            let amount: Amount
        }
        let body = Native(
            appid: configuration.appID, mchid: configuration.merchantID,
            description: order.subject.subject(maximumBytes: 127), outTradeNo: order.number,
            timeExpire: ProviderTime.rfc3339(order.expiresAt), notifyUrl: configuration.notifyURL,
            amount: Amount(total: order.amount.cents, currency: order.amount.currency))
        return .callProvider(
            try call("POST", "/v3/pay/transactions/native", body: ProviderJSON.text(body), now: now))
    }

    public func paymentStart(from answer: ProviderMessage, for order: PaymentOrder, now: Date)
        throws(PaymentRefusal) -> PaymentStart
    {
        guard (200..<300).contains(answer.status) else { throw Self.declined(answer) }
        try signatures.verify(answer, now: now)
        struct Native: Decodable { let codeUrl: String }
        return .qrCode(try ProviderJSON.decode(Native.self, from: answer.body, what: "answer").codeUrl)
    }

    private struct Envelope: Decodable {
        struct Resource: Decodable {
            let algorithm: String
            let ciphertext: String
            let associatedData: String?
            let nonce: String
        }
        let id: String
        let eventType: String
        let resource: Resource
    }

    private struct Transaction: Decodable {
        let mchid: String
        let appid: String
        let outTradeNo: String
        let transactionId: String
        let tradeState: String
        let successTime: String?
        let amount: Amount
    }

    private struct RefundResource: Decodable {
        struct Amount: Decodable {
            let total: Int
            let refund: Int
        }
        let mchid: String
        let outTradeNo: String
        let transactionId: String
        let outRefundNo: String
        let refundStatus: String
        let successTime: String?
        let amount: Amount
    }

    public func notice(from notification: ProviderMessage, now: Date) throws(PaymentRefusal) -> PaymentNotice
    {
        try signatures.verify(notification, now: now)
        let envelope = try ProviderJSON.decode(Envelope.self, from: notification.body, what: "notification")
        let resource = envelope.resource
        guard resource.algorithm == "AEAD_AES_256_GCM" else {
            throw .malformed("its resource is encrypted with \(resource.algorithm), not AEAD_AES_256_GCM")
        }
        guard let sealed = Crypto.unbase64(resource.ciphertext) else {
            throw .malformed("its resource's ciphertext is not base64")
        }
        let plaintext: [UInt8]
        do {
            plaintext = try Crypto.AESGCM.open(
                sealed, key: Array(configuration.apiV3Key.utf8), nonce: Array(resource.nonce.utf8),
                associatedData: Array((resource.associatedData ?? "").utf8))
        } catch {
            throw .notDecryptable
        }
        var notice: PaymentNotice
        switch envelope.eventType {
        case "TRANSACTION.SUCCESS":
            notice = try transactionNotice(
                ProviderJSON.decode(Transaction.self, from: plaintext, what: "transaction"))
        case "REFUND.SUCCESS", "REFUND.ABNORMAL", "REFUND.CLOSED":
            notice = try refundNotice(
                ProviderJSON.decode(RefundResource.self, from: plaintext, what: "refund"))
        default: throw .unsupportedEvent(envelope.eventType)
        }
        notice.notificationID = envelope.id
        notice.payload = notification.bodyText
        notice.decryptedResource = String(decoding: plaintext, as: UTF8.self)
        return notice
    }

    private func transactionNotice(_ transaction: Transaction) throws(PaymentRefusal) -> PaymentNotice {
        guard transaction.mchid == configuration.merchantID else { throw .wrongMerchant(transaction.mchid) }
        guard transaction.appid == configuration.appID else { throw .wrongApp(transaction.appid) }
        let status: PaymentStatus =
            switch transaction.tradeState {
            case "SUCCESS": .paid
            case "CLOSED", "REVOKED": .closed
            case "NOTPAY", "USERPAYING": .pending
            case "REFUND": .refunded
            default: .other
            }
        return PaymentNotice(
            provider: .wechatPay, notificationID: "",
            orderNumber: try Self.orderNumber(transaction.outTradeNo),
            providerTradeNumber: transaction.transactionId,
            amount: try Self.amount(transaction.amount.total, transaction.amount.currency), status: status,
            providerStatus: transaction.tradeState, paidAt: try Self.time(transaction.successTime),
            appID: transaction.appid, merchantID: transaction.mchid, refunded: nil, refundNumber: nil,
            payload: "",
            decryptedResource: nil)
    }

    private func refundNotice(_ refund: RefundResource) throws(PaymentRefusal) -> PaymentNotice {
        guard refund.mchid == configuration.merchantID else { throw .wrongMerchant(refund.mchid) }
        return PaymentNotice(
            provider: .wechatPay, notificationID: "", orderNumber: try Self.orderNumber(refund.outTradeNo),
            providerTradeNumber: refund.transactionId, amount: try Self.amount(refund.amount.total, nil),
            status: refund.refundStatus == "SUCCESS" ? .refunded : .other,
            providerStatus: "REFUND." + refund.refundStatus, paidAt: nil, appID: nil,
            merchantID: refund.mchid,
            refunded: try Self.amount(refund.amount.refund, nil), refundNumber: refund.outRefundNo,
            payload: "",
            decryptedResource: nil)
    }

    public var acceptedAnswer: NotificationAnswer {
        NotificationAnswer(status: 204, contentType: nil, body: [])
    }

    public func failedAnswer(_ refusal: PaymentRefusal?) -> NotificationAnswer {
        struct Failure: Encodable {
            let code = "FAIL"
            let message: String
        }
        let message = refusal?.description ?? "The notification could not be stored; send it again."
        return NotificationAnswer(
            status: refusal == nil ? 500 : 400, contentType: "application/json",
            body: Array(ProviderJSON.text(Failure(message: message)).utf8))
    }

    public func refund(_ refund: RefundRequest, now: Date) throws(PaymentRequestError) -> RefundStep {
        try Self.checkNumber(refund.orderNumber, "order number")
        try Self.checkNumber(refund.refundNumber, "refund number")
        try PaymentRequestError.checkCNY(refund, provider: "WeChat Pay")
        struct Refund: Encodable {
            struct Amount: Encodable {
                let refund: Int
                let total: Int
                let currency: String
            }
            let outTradeNo: String
            let outRefundNo: String
            let reason: String
            let notifyUrl: String
            let amount: Amount
        }
        let body = Refund(
            outTradeNo: refund.orderNumber, outRefundNo: refund.refundNumber,
            reason: refund.reason.subject(maximumBytes: 80), notifyUrl: configuration.notifyURL,
            amount: .init(
                refund: refund.amount.cents, total: refund.orderTotal.cents, currency: refund.amount.currency)
        )
        return .callProvider(
            try call("POST", "/v3/refund/domestic/refunds", body: ProviderJSON.text(body), now: now))
    }

    public func refundQuery(_ refund: RefundRequest, now: Date) throws(PaymentRequestError) -> RefundStep {
        try Self.checkNumber(refund.refundNumber, "refund number")
        return .callProvider(
            try call("GET", "/v3/refund/domestic/refunds/\(refund.refundNumber)", body: "", now: now))
    }

    public func refundResult(from answer: ProviderMessage, for refund: RefundRequest, now: Date)
        throws(PaymentRefusal) -> RefundResult
    {
        var result = RefundResult(
            status: .processing, refundNumber: refund.refundNumber, providerRefundNumber: nil, refunded: nil,
            payload: answer.bodyText)
        guard (200..<300).contains(answer.status) else {
            // A server error or a busy provider says nothing final: ask again with the same refund number.
            guard case .providerDeclined(let code, let message) = Self.declined(answer), answer.status < 500,
                !["SYSTEM_ERROR", "FREQUENCY_LIMITED"].contains(code)
            else { return result }
            result.status = .failed("\(message) (\(code))")
            return result
        }
        try signatures.verify(answer, now: now)
        struct Answer: Decodable {
            struct Amount: Decodable {
                let refund: Int
                let currency: String?
            }
            let refundId: String
            let outRefundNo: String
            let status: String
            let amount: Amount
        }
        let decoded = try ProviderJSON.decode(Answer.self, from: answer.body, what: "answer")
        guard decoded.outRefundNo == refund.refundNumber else {
            throw .malformed("it answers for refund \(decoded.outRefundNo), not \(refund.refundNumber)")
        }
        result.providerRefundNumber = decoded.refundId
        switch decoded.status {
        case "SUCCESS":
            result.status = .succeeded
            result.refunded = try Self.amount(decoded.amount.refund, decoded.amount.currency)
        case "PROCESSING": break
        case "CLOSED": result.status = .failed("The refund was closed (CLOSED).")
        default:
            result.status = .failed(
                "The refund could not reach the payer's account; it needs handling in the merchant platform "
                    + "(\(decoded.status)).")
        }
        return result
    }

    /// A signed API call with a JSON body (none for GET).
    private func call(_ method: String, _ path: String, body: String, now: Date) throws(PaymentRequestError)
        -> ProviderRequest
    {
        let bytes = Array(body.utf8)
        let base =
            configuration.apiBaseURL.hasSuffix("/")
            ? String(configuration.apiBaseURL.dropLast()) : configuration.apiBaseURL
        return ProviderRequest(
            method: method, url: base + path,
            headers: try signatures.headers(method: method, path: path, body: bytes, now: now), body: bytes)
    }

    /// The error a failed answer carries (`{"code": ..., "message": ...}`), or its HTTP status.
    private static func declined(_ answer: ProviderMessage) -> PaymentRefusal {
        struct Failure: Decodable {
            let code: String
            let message: String
        }
        guard answer.body.count <= WeChatPaySignatures.maximumBytes,
            let failure = try? ProviderJSON.decode(Failure.self, from: answer.body, what: "answer")
        else {
            return .providerDeclined(code: "HTTP \(answer.status)", message: "no reason given")
        }
        return .providerDeclined(code: failure.code, message: failure.message)
    }

    private static func orderNumber(_ number: String) throws(PaymentRefusal) -> String {
        guard !number.isEmpty, number.utf8.count <= 64 else {
            throw .malformed("its out_trade_no is empty or too long")
        }
        return number
    }

    private static func amount(_ fen: Int, _ currency: String?) throws(PaymentRefusal) -> PaymentAmount {
        guard (0...PaymentAmount.maximumCents).contains(fen) else {
            throw .malformed("its amount \(fen) is out of range")
        }
        return PaymentAmount(cents: fen, currency: currency ?? "CNY")
    }

    private static func time(_ text: String?) throws(PaymentRefusal) -> Date? {
        guard let text else { return nil }
        guard let date = ProviderTime.parseRFC3339(text) else {
            throw .malformed("its time \(text) is not RFC 3339")
        }
        return date
    }

    /// WeChat Pay's numbers: orders 6 to 32 letters, digits, _, - or *; refunds 1 to 64, with | and @ too.
    private static func checkNumber(_ number: String, _ name: String) throws(PaymentRequestError) {
        let (minimum, maximum, extras) = name == "order number" ? (6, 32, "_-*") : (1, 64, "_-|*@")
        guard number.isCode(maximum: maximum, minimum: minimum, extras: extras) else {
            throw PaymentRequestError(
                "WeChat Pay takes an \(name) of \(minimum) to \(maximum) letters, digits and \(extras), not \"\(number)\"."
            )
        }
    }
}
