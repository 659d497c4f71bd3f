import Cryptography
import Foundation
import ServerTestSupport
import Testing

@testable import Payments

@Suite struct WeChatPayNotificationTests {
    @Test func aNotificationSignedByOpenSSLIsAcceptedAndDecrypted() async throws {
        let wechat = try await WeChatHarness.make()
        let now = Date()
        let body = try WeChatHarness.body(resource: WeChatHarness.transaction())
        // The platform's signature made by the openssl command line.
        let timestamp = String(Int(now.timeIntervalSince1970))
        let nonce = "593BEC0C930BF1AFEB40B4A08C8FB242"
        let signature = try await wechat.platformFiles.sign(
            Array("\(timestamp)\n\(nonce)\n".utf8) + body + [10])
        let message = ProviderMessage(
            headers: [
                "wechatpay-timestamp": timestamp, "WECHATPAY-NONCE": nonce,
                "Wechatpay-Serial": Keys.platformSerial,
                "Wechatpay-Signature": Crypto.base64(signature),
                "Wechatpay-Signature-Type": "WECHATPAY2-SHA256-RSA2048",
            ], body: body)

        let notice = try wechat.provider.notice(from: message, now: now)
        #expect(notice.provider == .wechatPay)
        #expect(notice.notificationID == "EV-2018022511223320873")
        #expect(notice.replayKey == "wechatpay:EV-2018022511223320873")
        #expect(notice.orderNumber == "1217752501201407033233368018")
        #expect(notice.providerTradeNumber == "1217752501201407033233368018")
        #expect(notice.amount == PaymentAmount(cents: 8888, currency: "CNY"))
        #expect(notice.status == .paid)
        #expect(notice.paidAt == Date(timeIntervalSince1970: 1_528_425_296))
        #expect(notice.appID == WeChatHarness.appID)
        #expect(notice.merchantID == WeChatHarness.merchantID)
        #expect(notice.payload == String(decoding: body, as: UTF8.self))
        #expect(notice.decryptedResource == WeChatHarness.transaction())
        #expect(
            notice.verdict(orderNumber: "1217752501201407033233368018", amount: PaymentAmount(cents: 8888))
                == .paid)
        #expect(wechat.provider.acceptedAnswer == NotificationAnswer(status: 204, contentType: nil, body: []))
    }

    @Test func theSameNotificationTwiceVerifiesTwice() async throws {
        let wechat = try await WeChatHarness.make()
        let now = Date()
        let message = try wechat.message(
            try WeChatHarness.body(resource: WeChatHarness.transaction()), timestamp: now)
        #expect(
            try wechat.provider.notice(from: message, now: now)
                == (try wechat.provider.notice(from: message, now: now.addingTimeInterval(60))))
    }

    @Test func aTamperedBodyOrAnotherAmountIsRefused() async throws {
        let wechat = try await WeChatHarness.make()
        let now = Date()
        let genuine = try wechat.message(
            try WeChatHarness.body(resource: WeChatHarness.transaction(total: 8888)), timestamp: now)
        // Another resource (amount 1 fen) under the genuine headers.
        let swapped = try WeChatHarness.body(resource: WeChatHarness.transaction(total: 1))
        expectRefusal(.badSignature) {
            () throws(PaymentRefusal) in
            try wechat.provider.notice(
                from: ProviderMessage(headers: genuine.headers, body: swapped), now: now)
        }
        var flipped = genuine.body
        flipped[flipped.count / 2] ^= 1
        expectRefusal(.badSignature) {
            () throws(PaymentRefusal) in
            try wechat.provider.notice(
                from: ProviderMessage(headers: genuine.headers, body: flipped), now: now)
        }
        // Signed by WeChat Pay for 1 fen: genuine, and refused by the verdict against the order of 88.88.
        let cheap = try wechat.provider.notice(from: try wechat.message(swapped, timestamp: now), now: now)
        #expect(
            cheap.verdict(orderNumber: "1217752501201407033233368018", amount: PaymentAmount(cents: 8888))
                == .refused(
                    .amountMismatch(expected: PaymentAmount(cents: 8888), notified: PaymentAmount(cents: 1))))
        let stranger = try Keys.privateKey(try await Keys.stranger.value)
        expectRefusal(.badSignature) {
            () throws(PaymentRefusal) in
            try wechat.provider.notice(
                from: try! wechat.message(swapped, timestamp: now, key: stranger), now: now)
        }
        // WeChat Pay's own probes of whether merchants check signatures.
        var probe = genuine.headers
        probe["wechatpay-signature"] = "WECHATPAY/SIGNTEST/" + Crypto.base64(Array(repeating: 7, count: 256))
        expectRefusal(.badSignature) {
            () throws(PaymentRefusal) in
            try wechat.provider.notice(from: ProviderMessage(headers: probe, body: genuine.body), now: now)
        }
    }

    @Test func aWrongAppOrMerchantIsRefused() async throws {
        let wechat = try await WeChatHarness.make()
        let now = Date()
        let otherApp = try wechat.message(
            try WeChatHarness.body(resource: WeChatHarness.transaction(appID: "wx0000000000000001")),
            timestamp: now)
        expectRefusal(.wrongApp("wx0000000000000001")) { () throws(PaymentRefusal) in
            try wechat.provider.notice(from: otherApp, now: now)
        }
        let otherMerchant = try wechat.message(
            try WeChatHarness.body(resource: WeChatHarness.transaction(merchantID: "1900000999")),
            timestamp: now)
        expectRefusal(.wrongMerchant("1900000999")) { () throws(PaymentRefusal) in
            try wechat.provider.notice(from: otherMerchant, now: now)
        }
    }

    @Test func anUnsignedOrOtherwiseSignedNotificationIsRefused() async throws {
        let wechat = try await WeChatHarness.make()
        let now = Date()
        let signed = try wechat.message(
            try WeChatHarness.body(resource: WeChatHarness.transaction()), timestamp: now)
        var unsigned = signed.headers
        unsigned["wechatpay-signature"] = nil
        expectRefusal(.unsigned) { () throws(PaymentRefusal) in
            try wechat.provider.notice(from: ProviderMessage(headers: unsigned, body: signed.body), now: now)
        }
        expectRefusal(.unsigned) { () throws(PaymentRefusal) in
            try wechat.provider.notice(from: ProviderMessage(body: signed.body), now: now)
        }
        let otherType = try wechat.message(
            signed.body, timestamp: now, signatureType: "WECHATPAY2-SM2-WITH-SM3")
        expectRefusal(.unsupportedSignatureType("WECHATPAY2-SM2-WITH-SM3")) { () throws(PaymentRefusal) in
            try wechat.provider.notice(from: otherType, now: now)
        }
        // The type header is optional; its absence is not a refusal.
        #expect(throws: Never.self) {
            try wechat.provider.notice(
                from: try wechat.message(signed.body, timestamp: now, signatureType: nil), now: now)
        }
        var noSerial = signed.headers
        noSerial["wechatpay-serial"] = nil
        expectRefusal(
            .malformed("it lacks a Wechatpay-Timestamp, Wechatpay-Nonce or Wechatpay-Serial header")
        ) {
            () throws(PaymentRefusal) in
            try wechat.provider.notice(from: ProviderMessage(headers: noSerial, body: signed.body), now: now)
        }
    }

    @Test func aTimestampOutsideFiveMinutesIsRefused() async throws {
        let wechat = try await WeChatHarness.make()
        let now = Date(timeIntervalSince1970: Double(Int(Date().timeIntervalSince1970)))
        let body = try WeChatHarness.body(resource: WeChatHarness.transaction())
        let late = try wechat.message(body, timestamp: now.addingTimeInterval(-301))
        expectRefusal(.staleTimestamp(seconds: 301)) { () throws(PaymentRefusal) in
            try wechat.provider.notice(from: late, now: now)
        }
        let early = try wechat.message(body, timestamp: now.addingTimeInterval(400))
        expectRefusal(.staleTimestamp(seconds: -400)) { () throws(PaymentRefusal) in
            try wechat.provider.notice(from: early, now: now)
        }
        #expect(
            PaymentRefusal.staleTimestamp(seconds: 301).description
                == "The message's timestamp is 301 seconds old (at most 300).")
        // Five minutes exactly still counts as fresh.
        #expect(throws: Never.self) {
            try wechat.provider.notice(
                from: try wechat.message(body, timestamp: now.addingTimeInterval(-300)), now: now)
        }
    }

    @Test func aSerialThatIsNotConfiguredIsRefused() async throws {
        let wechat = try await WeChatHarness.make()
        let now = Date()
        let body = try WeChatHarness.body(resource: WeChatHarness.transaction())
        let unknown = try wechat.message(
            body, timestamp: now, serial: "1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C")
        expectRefusal(.unknownCertificate(serial: "1DDE55AD98ED71D6EDD4A4A16996DE7B47773A8C")) {
            () throws(PaymentRefusal) in try wechat.provider.notice(from: unknown, now: now)
        }
        // The same serial in lower case, or with a leading zero byte, names the same certificate.
        for spelling in [Keys.platformSerial.lowercased(), "00" + Keys.platformSerial] {
            #expect(throws: Never.self) {
                try wechat.provider.notice(
                    from: try wechat.message(body, timestamp: now, serial: spelling), now: now)
            }
        }
        // Outside the certificate's validity (it was made for 30 days).
        let later = wechat.certificate.notAfter.addingTimeInterval(60)
        expectRefusal(.certificateNotValid(serial: Keys.platformSerial)) {
            () throws(PaymentRefusal) in
            try wechat.provider.notice(from: try! wechat.message(body, timestamp: later), now: later)
        }
    }

    @Test func aCorruptedTagOrAnotherAPIv3KeyIsRefused() async throws {
        let wechat = try await WeChatHarness.make()
        let now = Date()
        // Signed by the platform after the tag was corrupted, so only the decryption can notice.
        let corrupted = try wechat.message(
            try WeChatHarness.body(resource: WeChatHarness.transaction(), corruptTag: true), timestamp: now)
        expectRefusal(.notDecryptable) { () throws(PaymentRefusal) in
            try wechat.provider.notice(from: corrupted, now: now)
        }
        let otherKey = try wechat.message(
            try WeChatHarness.body(
                resource: WeChatHarness.transaction(), key: "vutsrqponmlkjihgfedcba9876543210"),
            timestamp: now)
        expectRefusal(.notDecryptable) { () throws(PaymentRefusal) in
            try wechat.provider.notice(from: otherKey, now: now)
        }
    }

    @Test func refundsAndOtherEventsAreDecodedOrNamed() async throws {
        let wechat = try await WeChatHarness.make()
        let now = Date()
        let refund = json([
            "mchid": WeChatHarness.merchantID, "out_trade_no": "1217752501201407033233368018",
            "transaction_id": "1217752501201407033233368018",
            "out_refund_no": "R1217752501201407033233368018",
            "refund_id": "50000000382019052709732678859", "refund_status": "SUCCESS",
            "success_time": "2018-06-08T10:34:56+08:00", "user_received_account": "招商银行信用卡0403",
            "amount": ["total": 8888, "refund": 1000, "payer_total": 8888, "payer_refund": 1000],
        ])
        let notice = try wechat.provider.notice(
            from: try wechat.message(
                try WeChatHarness.body(resource: refund, eventType: "REFUND.SUCCESS", id: "EV-R1"),
                timestamp: now), now: now)
        #expect(notice.status == .refunded)
        #expect(notice.refunded == PaymentAmount(cents: 1000))
        #expect(notice.refundNumber == "R1217752501201407033233368018")
        #expect(notice.appID == nil)
        #expect(
            notice.verdict(orderNumber: "1217752501201407033233368018", amount: PaymentAmount(cents: 8888))
                == .ignored("A refund notice (REFUND.SUCCESS) changes no payment."))

        let other = try wechat.message(
            try WeChatHarness.body(resource: "{}", eventType: "MCHTRANSFER.BILL.FINISHED"), timestamp: now)
        expectRefusal(.unsupportedEvent("MCHTRANSFER.BILL.FINISHED")) { () throws(PaymentRefusal) in
            try wechat.provider.notice(from: other, now: now)
        }
        let partial = try wechat.message(
            try WeChatHarness.body(resource: #"{"mchid":"1900000109","appid":"wxd678efh567hg6787"}"#),
            timestamp: now)
        expectRefusal(.malformed("its transaction has no out_trade_no")) { () throws(PaymentRefusal) in
            try wechat.provider.notice(from: partial, now: now)
        }
        let closed = try wechat.message(
            try WeChatHarness.body(resource: WeChatHarness.transaction(state: "CLOSED")), timestamp: now)
        #expect(
            try wechat.provider.notice(from: closed, now: now).verdict(
                orderNumber: "1217752501201407033233368018", amount: PaymentAmount(cents: 8888)) == .closed)
    }

    @Test func theFailureAnswerIsWeChatPaysJSON() async throws {
        let wechat = try await WeChatHarness.make()
        let refused = wechat.provider.failedAnswer(.badSignature)
        #expect(refused.status == 400)
        #expect(refused.contentType == "application/json")
        let object = try JSONSerialization.jsonObject(with: Data(refused.body)) as! [String: String]
        #expect(
            object == [
                "code": "FAIL", "message": "The signature does not match the message and the provider's key.",
            ])
        #expect(wechat.provider.failedAnswer(nil).status == 500)
    }
}

@Suite struct WeChatPayRequestTests {
    /// The merchant's `Authorization` header's fields.
    func authorization(_ header: String?) -> [String: String] {
        guard let header, header.hasPrefix("WECHATPAY2-SHA256-RSA2048 ") else { return [:] }
        var fields: [String: String] = [:]
        for part in header.dropFirst("WECHATPAY2-SHA256-RSA2048 ".count).split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1)
            fields[String(pair[0])] = String(pair[1].dropFirst().dropLast())
        }
        return fields
    }

    @Test func aNativePaymentIsACallSignedAsOpenSSLChecks() async throws {
        let wechat = try await WeChatHarness.make()
        let now = Date(timeIntervalSince1970: 1_528_425_296)
        let order = PaymentOrder(
            number: "1217752501201407033233368018", amount: PaymentAmount(cents: 1990),
            subject: String(repeating: "会员", count: 40), expiresAt: now.addingTimeInterval(900))
        guard case .callProvider(let request) = try wechat.provider.payment(for: order, now: now) else {
            Issue.record("a Native payment starts with a call")
            return
        }
        #expect(request.method == "POST")
        #expect(request.url == "https://api.mch.weixin.qq.com/v3/pay/transactions/native")
        let body = try JSONSerialization.jsonObject(with: Data(request.body)) as! [String: Any]
        #expect(body["appid"] as? String == WeChatHarness.appID)
        #expect(body["mchid"] as? String == WeChatHarness.merchantID)
        #expect(body["out_trade_no"] as? String == order.number)
        #expect(body["time_expire"] as? String == "2018-06-08T10:49:56+08:00")
        #expect(body["notify_url"] as? String == "https://shop.example.com/v1/payments/wechatpay/notify")
        #expect((body["amount"] as? [String: Any])?["total"] as? Int == 1990)
        let description = body["description"] as! String
        #expect(description.utf8.count <= 127 && description.hasPrefix("会员会员"))

        let fields = authorization(request.headers["Authorization"])
        #expect(fields["mchid"] == WeChatHarness.merchantID)
        #expect(fields["serial_no"] == WeChatHarness.merchantSerial)
        #expect(fields["timestamp"] == "1528425296")
        let nonce = try #require(fields["nonce_str"])
        let message =
            Array("POST\n/v3/pay/transactions/native\n1528425296\n\(nonce)\n".utf8) + request.body + [10]
        #expect(try await wechat.merchantFiles.verify(Crypto.unbase64(fields["signature"]!)!, of: message))

        // The answer is signed by the platform like a notification (checked at a time the certificate is valid).
        let current = Date()
        let answer = try wechat.message(
            Array(#"{"code_url":"weixin://wxpay/bizpayurl?pr=p4lpSuKzz"}"#.utf8), timestamp: current)
        #expect(
            try wechat.provider.paymentStart(from: answer, for: order, now: current)
                == .qrCode("weixin://wxpay/bizpayurl?pr=p4lpSuKzz"))
        #expect(throws: PaymentRefusal.unsigned) {
            try wechat.provider.paymentStart(
                from: ProviderMessage(body: answer.body), for: order, now: current)
        }
        let declined = ProviderMessage(
            status: 400, body: Array(#"{"code":"ORDER_CLOSED","message":"订单已关闭"}"#.utf8))
        #expect(throws: PaymentRefusal.providerDeclined(code: "ORDER_CLOSED", message: "订单已关闭")) {
            try wechat.provider.paymentStart(from: declined, for: order, now: now)
        }
    }

    @Test func anOrderWeChatPayCannotTakeIsRefusedWithASentence() async throws {
        let wechat = try await WeChatHarness.make()
        #expect(
            throws: PaymentRequestError(
                "WeChat Pay takes an order number of 6 to 32 letters, digits and _-*, not \"12345\".")
        ) {
            try wechat.provider.payment(for: order("12345", cents: 100), now: Date())
        }
        #expect(throws: PaymentRequestError("WeChat Pay takes amounts in CNY, not JPY.")) {
            try wechat.provider.payment(for: order("1234567", cents: 100, currency: "JPY"), now: Date())
        }
    }

    @Test func aRefundIsASignedCallAndItsAnswerIsChecked() async throws {
        let wechat = try await WeChatHarness.make()
        let now = Date()
        let refund = RefundRequest(
            orderNumber: "1217752501201407033233368018", refundNumber: "R1217752501201407033233368018",
            amount: PaymentAmount(cents: 1000), orderTotal: PaymentAmount(cents: 8888), reason: "商品已售完")
        guard case .callProvider(let request) = try wechat.provider.refund(refund, now: now) else {
            Issue.record("a WeChat Pay refund is a call")
            return
        }
        #expect(request.url == "https://api.mch.weixin.qq.com/v3/refund/domestic/refunds")
        let body = try JSONSerialization.jsonObject(with: Data(request.body)) as! [String: Any]
        #expect(body["out_refund_no"] as? String == "R1217752501201407033233368018")
        #expect(body["reason"] as? String == "商品已售完")
        let amount = try #require(body["amount"] as? [String: Any])
        #expect(
            amount["refund"] as? Int == 1000 && amount["total"] as? Int == 8888
                && amount["currency"] as? String == "CNY")
        let fields = authorization(request.headers["Authorization"])
        let message =
            Array(
                "POST\n/v3/refund/domestic/refunds\n\(fields["timestamp"]!)\n\(fields["nonce_str"]!)\n".utf8)
            + request.body + [10]
        #expect(try await wechat.merchantFiles.verify(Crypto.unbase64(fields["signature"]!)!, of: message))

        func answer(_ status: String, number: String = "R1217752501201407033233368018") throws
            -> ProviderMessage
        {
            try wechat.message(
                Array(
                    json([
                        "refund_id": "50000000382019052709732678859", "out_refund_no": number,
                        "transaction_id": "1217752501201407033233368018",
                        "out_trade_no": "1217752501201407033233368018",
                        "channel": "ORIGINAL", "status": status, "create_time": "2018-06-08T10:34:56+08:00",
                        "amount": [
                            "total": 8888, "refund": 1000, "payer_total": 8888, "payer_refund": 1000,
                            "currency": "CNY",
                        ],
                    ]).utf8), timestamp: now)
        }
        let succeeded = try wechat.provider.refundResult(from: answer("SUCCESS"), for: refund, now: now)
        #expect(succeeded.status == .succeeded)
        #expect(succeeded.refunded == PaymentAmount(cents: 1000))
        #expect(succeeded.providerRefundNumber == "50000000382019052709732678859")
        #expect(
            try wechat.provider.refundResult(from: answer("PROCESSING"), for: refund, now: now).status
                == .processing)
        #expect(
            try wechat.provider.refundResult(from: answer("CLOSED"), for: refund, now: now).status
                == .failed("The refund was closed (CLOSED)."))
        #expect(
            throws: PaymentRefusal.malformed("it answers for refund R2, not R1217752501201407033233368018")
        ) {
            try wechat.provider.refundResult(from: answer("SUCCESS", number: "R2"), for: refund, now: now)
        }
        let unsigned = ProviderMessage(body: try answer("SUCCESS").body)
        #expect(throws: PaymentRefusal.unsigned) {
            try wechat.provider.refundResult(from: unsigned, for: refund, now: now)
        }
        let poor = ProviderMessage(
            status: 403, body: Array(#"{"code":"NOT_ENOUGH","message":"基本账户余额不足，请充值后重新发起"}"#.utf8))
        #expect(
            try wechat.provider.refundResult(from: poor, for: refund, now: now).status
                == .failed("基本账户余额不足，请充值后重新发起 (NOT_ENOUGH)"))
        let busy = ProviderMessage(
            status: 500, body: Array(#"{"code":"SYSTEM_ERROR","message":"系统错误"}"#.utf8))
        #expect(try wechat.provider.refundResult(from: busy, for: refund, now: now).status == .processing)

        guard case .callProvider(let query) = try wechat.provider.refundQuery(refund, now: now) else {
            Issue.record("a WeChat Pay refund query is a call")
            return
        }
        #expect(query.method == "GET")
        #expect(
            query.url
                == "https://api.mch.weixin.qq.com/v3/refund/domestic/refunds/R1217752501201407033233368018")
        #expect(query.body.isEmpty && query.headers["Content-Type"] == nil)
        let queryFields = authorization(query.headers["Authorization"])
        let queryMessage = Array(
            "GET\n/v3/refund/domestic/refunds/R1217752501201407033233368018\n\(queryFields["timestamp"]!)\n\(queryFields["nonce_str"]!)\n\n"
                .utf8)
        #expect(
            try await wechat.merchantFiles.verify(
                Crypto.unbase64(queryFields["signature"]!)!, of: queryMessage))
    }
}

@Suite struct WeChatPayConfigurationTests {
    @Test func everyProblemIsNamedInASentence() async throws {
        let wechat = try await WeChatHarness.make()
        var bad = wechat.configuration
        bad.merchantID = "mch-1"
        bad.appID = "app"
        bad.apiV3Key = "short"
        bad.merchantSerialNumber = Keys.platformSerial
        bad.notifyURL = "http://shop.example.com/notify"
        #expect(
            throws: PaymentConfigurationError(problems: [
                "The WeChat Pay merchant id must be the digits of the merchant's mchid, such as 1900000109.",
                "The WeChat Pay app id must be the appid bound to the merchant, starting wx.",
                "The WeChat Pay APIv3 key must be the 32 characters set in the merchant platform's API security page (this one has 5).",
                "The WeChat Pay merchant serial number is a platform certificate's; use the serial of the merchant's own API certificate (apiclient_cert.pem).",
                "The WeChat Pay notify URL must be a full https:// address without a query, such as https://shop.example.com/v1/payments/wechatpay/notify.",
            ])
        ) { try WeChatPayProvider(bad) }

        var noPlatform = wechat.configuration
        noPlatform.platformCertificates = nil
        #expect(
            throws: PaymentConfigurationError(problems: [
                "WeChat Pay needs its platform certificates or its public key, to check its notifications."
            ])
        ) { try WeChatPayProvider(noPlatform) }

        let newest = ProviderTime.beijingText(wechat.certificate.notAfter)
        #expect(
            throws: PaymentConfigurationError(problems: [
                "Every WeChat Pay platform certificate has expired (the newest on \(newest)); download the current ones."
            ])
        ) {
            try WeChatPayProvider(
                wechat.configuration, now: wechat.certificate.notAfter.addingTimeInterval(86_400))
        }
    }

    @Test func thePlatformPublicKeyModeVerifiesByItsID() async throws {
        let wechat = try await WeChatHarness.make()
        var configuration = wechat.configuration
        configuration.platformCertificates = nil
        configuration.platformPublicKey = try wechat.platformFiles.text(wechat.platformFiles.publicKeyPath)
        configuration.platformPublicKeyID = "PUB_KEY_ID_0114232134912410000000000000"
        let provider = try WeChatPayProvider(configuration)
        let now = Date()
        let body = try WeChatHarness.body(resource: WeChatHarness.transaction())
        #expect(throws: Never.self) {
            try provider.notice(
                from: try wechat.message(
                    body, timestamp: now, serial: "PUB_KEY_ID_0114232134912410000000000000"), now: now)
        }
        expectRefusal(.unknownCertificate(serial: Keys.platformSerial)) {
            () throws(PaymentRefusal) in
            try provider.notice(from: try! wechat.message(body, timestamp: now), now: now)
        }
        configuration.platformPublicKeyID = nil
        #expect(
            throws: PaymentConfigurationError(problems: [
                "The WeChat Pay public key and its id go together: set both or neither."
            ])
        ) { try WeChatPayProvider(configuration) }
    }
}
