import Cryptography
import Foundation
import Payments
import ServerTestSupport
import Testing

/// WeChat Pay's keys for the server's tests, made by openssl: the merchant's and the platform's (which signs
/// notifications, with a certificate of its own), and a stranger's.
private enum WeChatKeys {
    static let merchant = SharedFixture { try await OpenSSLKeyPair.generate() }
    static let platform = SharedFixture { try await OpenSSLKeyPair.generate() }
    static let stranger = SharedFixture { try await OpenSSLKeyPair.generate() }
    static let platformSerial = "6A1C2F09EFDC096DE15EBE81A47057A7232F1B8E"
    static let certificate = SharedFixture {
        try await platform.value.certificate(serial: platformSerial, days: 30)
    }
    static let merchantID = "1900000109"
    static let appID = "wxd678efh567hg6787"
    static let apiV3Key = "0123456789abcdefghijklmnopqrstuv"
}

/// WeChat Pay API v3 notifications through the real server: the platform's signature over the headers and
/// body, the resource sealed with AES-256-GCM under the APIv3 key, and the amount and app checked against
/// the order.
@Suite struct ShopWeChatPayTests {
    /// A server taking WeChat Pay with the keys above, their files written where the flags point.
    private func world() async throws -> ShopWorld {
        let folder = temporaryFolder()
        let merchant = try await WeChatKeys.merchant.value
        try await WeChatKeys.certificate.value.write(
            toFile: folder + "/platform.pem", atomically: true, encoding: .utf8)
        try WeChatKeys.apiV3Key.write(toFile: folder + "/v3.key", atomically: true, encoding: .utf8)
        return try await ShopWorld.start(
            stock: 5, priceCents: 1990,
            arguments: [
                "--wechat-mch-id", WeChatKeys.merchantID, "--wechat-app-id", WeChatKeys.appID,
                "--wechat-private-key", merchant.privateKeyPath, "--wechat-serial", "444F4864EA9B3441",
                "--wechat-api-v3-key", folder + "/v3.key", "--wechat-platform-certificate",
                folder + "/platform.pem", "--shop-public-url", "https://shop.example.com",
            ])
    }

    /// A TRANSACTION.SUCCESS notification of `orderNumber`, its resource sealed under the APIv3 key and the
    /// whole signed by `signer` with openssl as WeChat Pay's platform signs it: the body and its headers.
    private func notification(
        id: String, orderNumber: String, total: Int, appID: String = WeChatKeys.appID,
        signer: OpenSSLKeyPair?
    ) async throws -> ([UInt8], [String: String]) {
        let resource = try JSONSerialization.data(withJSONObject: [
            "mchid": WeChatKeys.merchantID, "appid": appID, "out_trade_no": orderNumber,
            "transaction_id": "4200000000202612050000\(id.suffix(6))", "trade_type": "NATIVE",
            "trade_state": "SUCCESS", "trade_state_desc": "支付成功", "bank_type": "OTHERS", "attach": "",
            "success_time": "2026-12-05T10:34:56+08:00", "payer": ["openid": "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o"],
            "amount": ["total": total, "payer_total": total, "currency": "CNY", "payer_currency": "CNY"],
        ])
        let nonce = "a1b2c3d4e5f6"
        let sealed = try Crypto.AESGCM.seal(
            [UInt8](resource), key: Array(WeChatKeys.apiV3Key.utf8), nonce: Array(nonce.utf8),
            associatedData: Array("transaction".utf8))
        let body = [UInt8](
            try JSONSerialization.data(withJSONObject: [
                "id": id, "create_time": "2026-12-05T10:34:57+08:00", "resource_type": "encrypt-resource",
                "event_type": "TRANSACTION.SUCCESS", "summary": "支付成功",
                "resource": [
                    "original_type": "transaction", "algorithm": "AEAD_AES_256_GCM",
                    "ciphertext": Crypto.base64(sealed), "associated_data": "transaction", "nonce": nonce,
                ],
            ]))
        let timestamp = String(Int(Date().timeIntervalSince1970))
        let headerNonce = "593BEC0C930BF1AFEB40B4A08C8FB242"
        var headers = [
            "Wechatpay-Timestamp": timestamp, "Wechatpay-Nonce": headerNonce,
            "Wechatpay-Serial": WeChatKeys.platformSerial,
            "Wechatpay-Signature-Type": "WECHATPAY2-SHA256-RSA2048",
        ]
        if let signer {
            let signature = try await signer.sign(Array("\(timestamp)\n\(headerNonce)\n".utf8) + body + [10])
            headers["Wechatpay-Signature"] = Crypto.base64(signature)
        }
        return (body, headers)
    }

    @Test func aSignedEncryptedNoticePaysTheOrderOnceAndForgedOnesAreRefused() async throws {
        let world = try await world()
        let platform = try await WeChatKeys.platform.value
        let stranger = try await WeChatKeys.stranger.value
        let made = try await world.order(world.bob, quantity: 2)
        let orderID = try #require(made.data["id"] as? String, "\(made.json)")
        let number = try #require(made.data["number"] as? String)
        #expect(made.data["totalCents"] as? Int == 3980)
        // Paying starts with a call to WeChat Pay's server, which this server does not make: said plainly.
        let launch = try await world.server.call(
            "POST", "/v1/orders/\(orderID)/payments", json: ["provider": "wechatpay"], token: world.bob)
        #expect(launch.status == 503, "\(launch.json)")

        let refused: [([UInt8], [String: String])] = [
            // Genuinely signed by the platform, for 1 fen instead of 39.80.
            try await notification(id: "EV-tampered", orderNumber: number, total: 1, signer: platform),
            // Genuinely signed, for another app.
            try await notification(
                id: "EV-app", orderNumber: number, total: 3980, appID: "wx0000000000000001", signer: platform),
            try await notification(id: "EV-unsigned", orderNumber: number, total: 3980, signer: nil),
            try await notification(id: "EV-stranger", orderNumber: number, total: 3980, signer: stranger),
        ]
        for (body, headers) in refused {
            let (status, answer) = try await world.notify(
                "wechat", body: body, contentType: "application/json", headers: headers)
            #expect(status == 400 || status == 401, "\(status) \(answer)")
            #expect(answer.contains("\"FAIL\""), "\(answer)")
        }
        // A genuine notice whose amount was changed after signing: the signature no longer matches.
        let (good, headers) = try await notification(
            id: "EV-good", orderNumber: number, total: 3980, signer: platform)
        var changed = good
        changed[changed.count / 2] ^= 0x01
        #expect(
            try await world.notify("wechat", body: changed, contentType: "application/json", headers: headers)
                .0
                != 204)
        #expect(try await world.orderState(orderID, token: world.bob) == "created")

        #expect(
            try await world.notify("wechat", body: good, contentType: "application/json", headers: headers)
                == (204, ""))
        #expect(try await world.orderState(orderID, token: world.bob) == "paid")
        // WeChat Pay sends again until it hears 204: acknowledged, nothing changes.
        #expect(
            try await world.notify("wechat", body: good, contentType: "application/json", headers: headers)
                == (204, ""))
        let detail = try await world.server.call("GET", "/v1/orders/\(orderID)", token: world.bob)
        let history = detail.data["history"] as? [[String: Any]] ?? []
        #expect(history.compactMap { $0["to"] as? String } == ["created", "paid"], "\(detail.json)")
        #expect(detail.data["provider"] as? String == "wechatpay")
        #expect(try await world.stock() == 3)
        // The sandbox is off while a real provider is set.
        #expect(try await world.notify("sandbox", body: [], contentType: "text/plain").0 == 404)
    }
}
