import Cryptography
import Foundation
import ServerTestSupport
import Testing

@testable import Payments

/// Key pairs made by `openssl genpkey`, once per test run: the shop's app key and Alipay's, the merchant's and
/// WeChat Pay's platform key (with its certificate), and a stranger's.
enum Keys {
    static let alipayApp = SharedFixture { try await OpenSSLKeyPair.generate() }
    static let alipay = SharedFixture { try await OpenSSLKeyPair.generate() }
    static let merchant = SharedFixture { try await OpenSSLKeyPair.generate() }
    static let platform = SharedFixture { try await OpenSSLKeyPair.generate() }
    static let stranger = SharedFixture { try await OpenSSLKeyPair.generate() }

    /// WeChat Pay's platform certificate, made by `openssl req -x509` for the platform key.
    static let platformSerial = "5157F09EFDC096DE15EBE81A47057A7232F1B8E1"
    static let platformCertificate = SharedFixture {
        try await platform.value.certificate(serial: platformSerial, days: 30)
    }

    static func privateKey(_ pair: OpenSSLKeyPair) throws -> Crypto.RSAPrivateKey {
        try Crypto.RSAPrivateKey(text: pair.text(pair.privateKeyPath))
    }
}

/// Form encoding written for the tests with Foundation's own escaping, not the module's.
func formBody(_ pairs: [(String, String)]) -> [UInt8] {
    let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    let escape = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: unreserved)! }
    return Array(pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&").utf8)
}

/// The pairs of a URL's query or a form body, decoded by Foundation.
func formPairs(_ text: String) -> [String: String] {
    var components = URLComponents()
    components.percentEncodedQuery = text
    return Dictionary(
        (components.queryItems ?? []).map { ($0.name, $0.value ?? "") },
        uniquingKeysWith: { first, _ in first })
}

/// Alipay's signing text, as its documentation describes it, written again for the tests: sorted by name,
/// empty values and `excluded` left out.
func alipaySigningText(_ pairs: [(String, String)], excluding excluded: Set<String>) -> [UInt8] {
    Array(
        pairs.filter { !$0.1.isEmpty && !excluded.contains($0.0) }.sorted { $0.0 < $1.0 }.map {
            "\($0.0)=\($0.1)"
        }
        .joined(separator: "&").utf8)
}

/// JSON text of a dictionary, keys sorted.
func json(_ object: [String: Any]) -> String {
    String(
        decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
}

/// The shop's Alipay settings and keys, and notifications made the way Alipay makes them.
struct AlipayHarness {
    static let appID = "2021000000000001"
    static let sellerID = "2088102119685838"

    let provider: AlipayProvider
    let appFiles: OpenSSLKeyPair
    let alipayFiles: OpenSSLKeyPair
    /// Signs as Alipay does.
    let alipayKey: Crypto.RSAPrivateKey

    static func make() async throws -> AlipayHarness {
        let app = try await Keys.alipayApp.value
        let alipay = try await Keys.alipay.value
        let configuration = AlipayConfiguration(
            appID: appID, sellerID: sellerID, appPrivateKey: try app.text(app.privateKeyPath),
            // Alipay's open platform shows its public key as bare base64.
            alipayPublicKey: try alipay.bareBase64(alipay.publicKeyPath),
            notifyURL: "https://shop.example.com/v1/payments/alipay/notify",
            returnURL: "https://shop.example.com/orders/return",
            gatewayURL: AlipayConfiguration.sandboxGateway)
        return AlipayHarness(
            provider: try AlipayProvider(configuration), appFiles: app, alipayFiles: alipay,
            alipayKey: try Keys.privateKey(alipay))
    }

    /// A TRADE_SUCCESS notification's fields (the shape of Alipay's documented example).
    static func fields(
        orderNumber: String = "20150423001001", amount: String = "88.88", status: String = "TRADE_SUCCESS",
        appID: String = appID, notifyID: String = "4a91b7a78a503640467525113fb7d8bg8e"
    ) -> [(String, String)] {
        [
            ("gmt_create", "2015-04-27 15:45:57"), ("charset", "utf-8"), ("seller_email", "shop@example.com"),
            ("subject", "会员专辑 / Album & more"), ("buyer_id", "2088102122524333"), ("invoice_amount", amount),
            ("notify_id", notifyID),
            ("fund_bill_list", "[{\"amount\":\"\(amount)\",\"fundChannel\":\"ALIPAYACCOUNT\"}]"),
            ("notify_type", "trade_status_sync"), ("trade_status", status), ("receipt_amount", amount),
            ("buyer_pay_amount", amount), ("app_id", appID), ("seller_id", sellerID),
            ("gmt_payment", "2015-04-27 15:45:58"), ("notify_time", "2015-04-27 15:45:58"),
            ("version", "1.0"),
            ("out_trade_no", orderNumber), ("total_amount", amount),
            ("trade_no", "2015042321001004720200028594"),
            ("auth_app_id", appID), ("buyer_logon_id", "159****5620"), ("point_amount", "0.00"), ("body", ""),
        ]
    }

    /// A notification of `fields`, signed by `key` (Alipay's unless told) with `sign_type`.
    func notification(
        _ fields: [(String, String)], key: Crypto.RSAPrivateKey? = nil, signType: String? = "RSA2"
    )
        throws -> ProviderMessage
    {
        let signature = try (key ?? alipayKey).signature(of: alipaySigningText(fields, excluding: []))
        var pairs = fields
        if let signType { pairs.append(("sign_type", signType)) }
        pairs.append(("sign", Crypto.base64(signature)))
        return ProviderMessage(
            headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"],
            body: formBody(pairs))
    }
}

/// The shop's WeChat Pay settings and keys, and notifications made the way WeChat Pay makes them.
struct WeChatHarness {
    static let merchantID = "1900000109"
    static let appID = "wxd678efh567hg6787"
    static let apiV3Key = "0123456789abcdefghijklmnopqrstuv"
    static let merchantSerial = "444F4864EA9B34415A97AA1BC5AAAF9DD8C7A1E8"

    let provider: WeChatPayProvider
    let configuration: WeChatPayConfiguration
    let merchantFiles: OpenSSLKeyPair
    let platformFiles: OpenSSLKeyPair
    /// Signs as WeChat Pay's platform does.
    let platformKey: Crypto.RSAPrivateKey
    let certificate: Crypto.Certificate

    static func make() async throws -> WeChatHarness {
        let merchant = try await Keys.merchant.value
        let platform = try await Keys.platform.value
        let certificate = try await Keys.platformCertificate.value
        let configuration = WeChatPayConfiguration(
            merchantID: merchantID, appID: appID,
            merchantPrivateKey: try merchant.text(merchant.privateKeyPath),
            merchantSerialNumber: merchantSerial, apiV3Key: apiV3Key, platformCertificates: certificate,
            notifyURL: "https://shop.example.com/v1/payments/wechatpay/notify")
        return WeChatHarness(
            provider: try WeChatPayProvider(configuration), configuration: configuration,
            merchantFiles: merchant,
            platformFiles: platform, platformKey: try Keys.privateKey(platform),
            certificate: try Crypto.Certificate(text: certificate))
    }

    /// A decrypted TRADE.SUCCESS resource (the shape of WeChat Pay's documented example).
    static func transaction(
        orderNumber: String = "1217752501201407033233368018", total: Int = 8888, appID: String = appID,
        merchantID: String = merchantID, state: String = "SUCCESS"
    ) -> String {
        json([
            "mchid": merchantID, "appid": appID, "out_trade_no": orderNumber,
            "transaction_id": "1217752501201407033233368018", "trade_type": "NATIVE", "trade_state": state,
            "trade_state_desc": "支付成功", "bank_type": "CMC", "attach": "",
            "success_time": "2018-06-08T10:34:56+08:00",
            "payer": ["openid": "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o"],
            "amount": ["total": total, "payer_total": total, "currency": "CNY", "payer_currency": "CNY"],
        ])
    }

    /// A notification body: `resource` encrypted under `key` (the APIv3 key unless told), in the envelope.
    static func body(
        resource: String, eventType: String = "TRANSACTION.SUCCESS", id: String = "EV-2018022511223320873",
        key: String = apiV3Key, corruptTag: Bool = false
    ) throws -> [UInt8] {
        let nonce = "fdasflkja484"
        var sealed = try Crypto.AESGCM.seal(
            Array(resource.utf8), key: Array(key.utf8), nonce: Array(nonce.utf8),
            associatedData: Array("transaction".utf8))
        if corruptTag { sealed[sealed.count - 1] ^= 0x01 }
        return Array(
            json([
                "id": id, "create_time": "2015-05-20T13:29:35+08:00", "resource_type": "encrypt-resource",
                "event_type": eventType, "summary": "支付成功",
                "resource": [
                    "original_type": "transaction", "algorithm": "AEAD_AES_256_GCM",
                    "ciphertext": Crypto.base64(sealed), "associated_data": "transaction", "nonce": nonce,
                ],
            ]).utf8)
    }

    /// `body` with the platform's signature headers for `timestamp`, signed by `key` (the platform's unless told).
    func message(
        _ body: [UInt8], timestamp: Date, key: Crypto.RSAPrivateKey? = nil,
        serial: String = Keys.platformSerial,
        signatureType: String? = "WECHATPAY2-SHA256-RSA2048", status: Int = 200
    ) throws -> ProviderMessage {
        let seconds = String(Int(timestamp.timeIntervalSince1970))
        let nonce = "593BEC0C930BF1AFEB40B4A08C8FB242"
        let signature = try (key ?? platformKey).signature(
            of: Array("\(seconds)\n\(nonce)\n".utf8) + body + [10])
        var headers = [
            "Wechatpay-Timestamp": seconds, "Wechatpay-Nonce": nonce, "Wechatpay-Serial": serial,
            "Wechatpay-Signature": Crypto.base64(signature), "Content-Type": "application/json",
        ]
        headers["Wechatpay-Signature-Type"] = signatureType
        return ProviderMessage(status: status, headers: headers, body: body)
    }
}

/// The order the notifications above are about.
func order(_ number: String, cents: Int, currency: String = "CNY", expiresIn seconds: TimeInterval = 900)
    -> PaymentOrder
{
    PaymentOrder(
        number: number, amount: PaymentAmount(cents: cents, currency: currency),
        subject: "CloudMusic 会员 12 个月",
        expiresAt: Date().addingTimeInterval(seconds))
}

/// Expects `body` to throw exactly `refusal`.
func expectRefusal(
    _ refusal: PaymentRefusal, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws(PaymentRefusal) -> PaymentNotice
) {
    do {
        let notice = try body()
        Issue.record("accepted where \(refusal.code) was expected: \(notice)", sourceLocation: sourceLocation)
    } catch {
        #expect(error == refusal, sourceLocation: sourceLocation)
    }
}
