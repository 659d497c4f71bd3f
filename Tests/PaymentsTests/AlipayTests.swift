import Cryptography
import Foundation
import ServerTestSupport
import Testing

@testable import Payments

@Suite struct AlipayNotificationTests {
    @Test func aNotificationSignedByOpenSSLIsAcceptedAndDecoded() async throws {
        let alipay = try await AlipayHarness.make()
        // Signed by the openssl command line with Alipay's key: nothing of ours made this signature.
        let fields = AlipayHarness.fields()
        let signature = try await alipay.alipayFiles.sign(alipaySigningText(fields, excluding: []))
        let body = formBody(fields + [("sign_type", "RSA2"), ("sign", Crypto.base64(signature))])
        let message = ProviderMessage(
            headers: ["content-type": "application/x-www-form-urlencoded"], body: body)

        let notice = try alipay.provider.notice(from: message, now: Date())
        #expect(notice.provider == .alipay)
        #expect(notice.notificationID == "4a91b7a78a503640467525113fb7d8bg8e")
        #expect(notice.replayKey == "alipay:4a91b7a78a503640467525113fb7d8bg8e")
        #expect(notice.orderNumber == "20150423001001")
        #expect(notice.providerTradeNumber == "2015042321001004720200028594")
        #expect(notice.amount == PaymentAmount(cents: 8888, currency: "CNY"))
        #expect(notice.status == .paid)
        #expect(notice.providerStatus == "TRADE_SUCCESS")
        #expect(notice.paidAt == Date(timeIntervalSince1970: 1_430_120_758))
        #expect(notice.appID == AlipayHarness.appID)
        #expect(notice.merchantID == AlipayHarness.sellerID)
        #expect(notice.payload == String(decoding: body, as: UTF8.self))
        #expect(notice.verdict(orderNumber: "20150423001001", amount: PaymentAmount(cents: 8888)) == .paid)
        #expect(
            alipay.provider.acceptedAnswer
                == NotificationAnswer(
                    status: 200, contentType: "text/plain; charset=utf-8", body: Array("success".utf8)))
        #expect(alipay.provider.failedAnswer(.badSignature).body == Array("failure".utf8))
        #expect(alipay.provider.failedAnswer(nil).body == Array("failure".utf8))
    }

    @Test func theSameNotificationTwiceVerifiesTwice() async throws {
        let alipay = try await AlipayHarness.make()
        let message = try alipay.notification(AlipayHarness.fields())
        let first = try alipay.provider.notice(from: message, now: Date())
        let second = try alipay.provider.notice(from: message, now: Date())
        // Idempotency is the shop's: it gets the same notice, with the same replay key, each time.
        #expect(first == second)
        #expect(first.replayKey == second.replayKey)
    }

    @Test func aTamperedAmountIsRefused() async throws {
        let alipay = try await AlipayHarness.make()
        let genuine = String(
            decoding: try alipay.notification(AlipayHarness.fields(amount: "88.88")).body, as: UTF8.self)
        let tampered = genuine.replacingOccurrences(of: "total_amount=88.88", with: "total_amount=0.01")
        #expect(tampered != genuine)
        expectRefusal(.badSignature) {
            () throws(PaymentRefusal) in
            try alipay.provider.notice(from: ProviderMessage(body: Array(tampered.utf8)), now: Date())
        }
        // Re-signed by someone without Alipay's key.
        let stranger = try Keys.privateKey(try await Keys.stranger.value)
        let forged = try alipay.notification(AlipayHarness.fields(amount: "0.01"), key: stranger)
        expectRefusal(.badSignature) { () throws(PaymentRefusal) in
            try alipay.provider.notice(from: forged, now: Date())
        }
        // Signed with the shop's own app key (which an attacker might think is what is checked).
        let ownKey = try Keys.privateKey(alipay.appFiles)
        let own = try alipay.notification(AlipayHarness.fields(amount: "0.01"), key: ownKey)
        expectRefusal(.badSignature) { () throws(PaymentRefusal) in
            try alipay.provider.notice(from: own, now: Date())
        }
    }

    @Test func anAmountThatDiffersFromTheOrderIsRefusedByTheVerdict() async throws {
        let alipay = try await AlipayHarness.make()
        let notice = try alipay.provider.notice(
            from: try alipay.notification(AlipayHarness.fields(amount: "0.01")), now: Date())
        #expect(notice.amount.cents == 1)
        #expect(
            notice.verdict(orderNumber: "20150423001001", amount: PaymentAmount(cents: 8888))
                == .refused(
                    .amountMismatch(expected: PaymentAmount(cents: 8888), notified: PaymentAmount(cents: 1))))
        #expect(
            notice.verdict(orderNumber: "20150423001002", amount: PaymentAmount(cents: 1))
                == .refused(.wrongOrder("20150423001001")))
        #expect(
            notice.verdict(orderNumber: "20150423001001", amount: PaymentAmount(cents: 1, currency: "USD"))
                == .refused(
                    .amountMismatch(
                        expected: PaymentAmount(cents: 1, currency: "USD"), notified: PaymentAmount(cents: 1))
                ))
    }

    @Test func aWrongAppOrSellerIsRefused() async throws {
        let alipay = try await AlipayHarness.make()
        // Genuinely signed by Alipay, but for another app of the same merchant.
        let otherApp = try alipay.notification(AlipayHarness.fields(appID: "2021000000000999"))
        expectRefusal(.wrongApp("2021000000000999")) {
            () throws(PaymentRefusal) in try alipay.provider.notice(from: otherApp, now: Date())
        }
        let otherSeller = try alipay.notification(
            AlipayHarness.fields().map { $0.0 == "seller_id" ? ($0.0, "2088000000000000") : $0 })
        expectRefusal(.wrongMerchant("2088000000000000")) {
            () throws(PaymentRefusal) in try alipay.provider.notice(from: otherSeller, now: Date())
        }
        let noSeller = try alipay.notification(AlipayHarness.fields().filter { $0.0 != "seller_id" })
        expectRefusal(.wrongMerchant("(none)")) {
            () throws(PaymentRefusal) in try alipay.provider.notice(from: noSeller, now: Date())
        }
    }

    @Test func anUnsignedNotificationIsRefused() async throws {
        let alipay = try await AlipayHarness.make()
        let fields = AlipayHarness.fields()
        let unsigned = ProviderMessage(body: formBody(fields + [("sign_type", "RSA2")]))
        expectRefusal(.unsigned) { () throws(PaymentRefusal) in
            try alipay.provider.notice(from: unsigned, now: Date())
        }
        let empty = ProviderMessage(body: formBody(fields + [("sign_type", "RSA2"), ("sign", "")]))
        expectRefusal(.unsigned) { () throws(PaymentRefusal) in
            try alipay.provider.notice(from: empty, now: Date())
        }
        let garbage = ProviderMessage(
            body: formBody(fields + [("sign_type", "RSA2"), ("sign", "not base64!")]))
        expectRefusal(.badSignature) { () throws(PaymentRefusal) in
            try alipay.provider.notice(from: garbage, now: Date())
        }
    }

    @Test func aWrongSignatureTypeIsRefused() async throws {
        let alipay = try await AlipayHarness.make()
        // A valid RSA2 signature, labelled RSA (SHA1withRSA): the label is refused, never tried.
        let labelledRSA = try alipay.notification(AlipayHarness.fields(), signType: "RSA")
        expectRefusal(.unsupportedSignatureType("sign_type RSA")) {
            () throws(PaymentRefusal) in try alipay.provider.notice(from: labelledRSA, now: Date())
        }
        let unlabelled = try alipay.notification(AlipayHarness.fields(), signType: nil)
        expectRefusal(.unsupportedSignatureType("no sign_type")) {
            () throws(PaymentRefusal) in try alipay.provider.notice(from: unlabelled, now: Date())
        }
    }

    @Test func aBodyThatIsNotACleanFormIsRefused() async throws {
        let alipay = try await AlipayHarness.make()
        let fields = AlipayHarness.fields()
        let signed = try alipay.notification(fields)
        // One name twice: the signature could see one value and the shop another.
        let doubled = ProviderMessage(body: signed.body + Array("&total_amount=0.01".utf8))
        expectRefusal(.malformed("it has total_amount twice")) {
            () throws(PaymentRefusal) in try alipay.provider.notice(from: doubled, now: Date())
        }
        // An empty value is neither signed nor read: appending some changes nothing.
        let padded = ProviderMessage(body: signed.body + Array("&trans_currency=&refund_fee=".utf8))
        #expect(try alipay.provider.notice(from: padded, now: Date()).amount == PaymentAmount(cents: 8888))
        #expect(try alipay.provider.notice(from: padded, now: Date()).status == .paid)
        let broken = ProviderMessage(body: signed.body + Array("&x=%E4%B8".utf8))
        expectRefusal(.malformed("its form encoding or UTF-8 is broken")) {
            () throws(PaymentRefusal) in try alipay.provider.notice(from: broken, now: Date())
        }
        let json = ProviderMessage(headers: ["Content-Type": "application/json"], body: signed.body)
        expectRefusal(.malformed("its Content-Type is application/json, not a form")) {
            () throws(PaymentRefusal) in try alipay.provider.notice(from: json, now: Date())
        }
        let huge = ProviderMessage(body: signed.body + Array(repeating: UInt8(ascii: "a"), count: 64 << 10))
        expectRefusal(.tooLarge(bytes: 64 << 10)) { () throws(PaymentRefusal) in
            try alipay.provider.notice(from: huge, now: Date())
        }
        let gbk = try alipay.notification(fields.map { $0.0 == "charset" ? ($0.0, "GBK") : $0 })
        expectRefusal(.malformed("its charset is GBK, where our requests ask for utf-8")) {
            () throws(PaymentRefusal) in try alipay.provider.notice(from: gbk, now: Date())
        }
        // Signed, but an amount that is not one.
        for amount in ["1e2", "-1.00", "88.888", " 88.88", "0x10"] {
            let odd = try alipay.notification(AlipayHarness.fields(amount: amount))
            expectRefusal(.malformed("its total_amount \(amount) is not an amount with at most two decimals"))
            {
                () throws(PaymentRefusal) in try alipay.provider.notice(from: odd, now: Date())
            }
        }
        let noNotifyID = try alipay.notification(fields.filter { $0.0 != "notify_id" })
        expectRefusal(.malformed("it has no notify_id")) {
            () throws(PaymentRefusal) in try alipay.provider.notice(from: noNotifyID, now: Date())
        }
    }

    @Test func eachTradeStatusHasItsVerdict() async throws {
        let alipay = try await AlipayHarness.make()
        let expected: [(String, PaymentStatus, PaymentVerdict)] = [
            ("TRADE_SUCCESS", .paid, .paid),
            ("TRADE_FINISHED", .paid, .paid),
            ("TRADE_CLOSED", .closed, .closed),
            (
                "WAIT_BUYER_PAY", .pending,
                .ignored("The trade is still waiting for the payer (WAIT_BUYER_PAY).")
            ),
            (
                "TRADE_SOMETHING_NEW", .other,
                .ignored("The trade's state TRADE_SOMETHING_NEW needs nothing from the shop.")
            ),
        ]
        for (tradeStatus, status, verdict) in expected {
            let notice = try alipay.provider.notice(
                from: try alipay.notification(AlipayHarness.fields(status: tradeStatus)), now: Date())
            #expect(notice.status == status)
            #expect(
                notice.verdict(orderNumber: "20150423001001", amount: PaymentAmount(cents: 8888)) == verdict)
        }
        // A partial refund is announced as TRADE_SUCCESS with the refunded total: not a second payment.
        let refund = try alipay.provider.notice(
            from: try alipay.notification(
                AlipayHarness.fields(notifyID: "refund-notify") + [
                    ("refund_fee", "10.00"), ("out_biz_no", "R1"), ("gmt_refund", "2015-04-28 10:00:00.123"),
                ]),
            now: Date())
        #expect(refund.status == .refunded)
        #expect(refund.refunded == PaymentAmount(cents: 1000))
        #expect(refund.refundNumber == "R1")
        #expect(
            refund.verdict(orderNumber: "20150423001001", amount: PaymentAmount(cents: 8888))
                == .ignored("A refund notice (TRADE_SUCCESS) changes no payment."))
    }
}

@Suite struct AlipayRequestTests {
    @Test func thePagePayAddressIsSignedAsOpenSSLChecks() async throws {
        let alipay = try await AlipayHarness.make()
        let now = Date(timeIntervalSince1970: 1_528_425_296)  // 2018-06-08 10:34:56 in Beijing
        let order = PaymentOrder(
            number: "20180608000001", amount: PaymentAmount(cents: 1990), subject: "会员 12 个月 / VIP & more",
            expiresAt: now.addingTimeInterval(900))
        guard case .start(.redirect(let address)) = try alipay.provider.payment(for: order, now: now) else {
            Issue.record("page pay starts with a redirect")
            return
        }
        #expect(address.hasPrefix(AlipayConfiguration.sandboxGateway + "?"))
        let query = String(address.dropFirst(AlipayConfiguration.sandboxGateway.count + 1))
        let fields = formPairs(query)
        #expect(fields["app_id"] == AlipayHarness.appID)
        #expect(fields["method"] == "alipay.trade.page.pay")
        #expect(fields["sign_type"] == "RSA2")
        #expect(fields["charset"] == "utf-8")
        #expect(fields["timestamp"] == "2018-06-08 10:34:56")
        #expect(fields["notify_url"] == "https://shop.example.com/v1/payments/alipay/notify")
        #expect(fields["return_url"] == "https://shop.example.com/orders/return")
        let content =
            try JSONSerialization.jsonObject(with: Data(fields["biz_content"]!.utf8)) as! [String: String]
        #expect(
            content == [
                "out_trade_no": "20180608000001", "product_code": "FAST_INSTANT_TRADE_PAY",
                "total_amount": "19.90",
                "subject": "会员 12 个月   VIP   more", "time_expire": "2018-06-08 10:49:56",
            ])
        // Requests sign everything but `sign`, `sign_type` included.
        let signed = alipaySigningText(fields.map { ($0.key, $0.value) }, excluding: ["sign"])
        #expect(try await alipay.appFiles.verify(Crypto.unbase64(fields["sign"]!)!, of: signed))
    }

    @Test func anOrderAlipayCannotTakeIsRefusedWithASentence() async throws {
        let alipay = try await AlipayHarness.make()
        let now = Date()
        let cases: [(PaymentOrder, String)] = [
            (
                order("2018-06-08", cents: 100),
                "Alipay takes an order number of 1 to 64 letters, digits and underscores, not \"2018-06-08\"."
            ),
            (order("20180608", cents: 100, currency: "USD"), "Alipay takes amounts in CNY, not USD."),
            (order("20180608", cents: 0), "Alipay takes amounts of 0.01 to 100000000.00 CNY, not 0.00."),
            (order("20180608", cents: 100, expiresIn: -1), "The order has expired; it cannot be paid."),
        ]
        for (order, sentence) in cases {
            #expect(throws: PaymentRequestError(sentence)) {
                try alipay.provider.payment(for: order, now: now)
            }
        }
    }

    @Test func aRefundIsASignedCallAndItsAnswerIsChecked() async throws {
        let alipay = try await AlipayHarness.make()
        let refund = RefundRequest(
            orderNumber: "20150423001001", refundNumber: "R20150423001", amount: PaymentAmount(cents: 1000),
            orderTotal: PaymentAmount(cents: 8888), reason: "买错了")
        guard case .callProvider(let request) = try alipay.provider.refund(refund, now: Date()) else {
            Issue.record("an Alipay refund is a call")
            return
        }
        #expect(request.method == "POST")
        #expect(request.url == AlipayConfiguration.sandboxGateway)
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded;charset=utf-8")
        let fields = formPairs(String(decoding: request.body, as: UTF8.self))
        #expect(fields["method"] == "alipay.trade.refund")
        let content =
            try JSONSerialization.jsonObject(with: Data(fields["biz_content"]!.utf8)) as! [String: String]
        #expect(
            content == [
                "out_trade_no": "20150423001001", "out_request_no": "R20150423001", "refund_amount": "10.00",
                "refund_reason": "买错了",
            ])
        let signed = alipaySigningText(fields.map { ($0.key, $0.value) }, excluding: ["sign"])
        #expect(try await alipay.appFiles.verify(Crypto.unbase64(fields["sign"]!)!, of: signed))

        // Alipay signs the exact text of the response node.
        func answer(_ node: String, _ nodeText: String, signed: Bool = true, key: Crypto.RSAPrivateKey? = nil)
            throws -> ProviderMessage
        {
            let sign = try Crypto.base64((key ?? alipay.alipayKey).signature(of: Array(nodeText.utf8)))
            let text = "{\"\(node)\":\(nodeText)" + (signed ? ",\"sign\":\"\(sign)\"" : "") + "}"
            return ProviderMessage(body: Array(text.utf8))
        }
        let node = "alipay_trade_refund_response"
        let success =
            #"{"code":"10000","msg":"Success","trade_no":"2015042321001004720200028594","out_trade_no":"20150423001001","buyer_logon_id":"159****5620","fund_change":"Y","refund_fee":"10.00"}"#
        let result = try alipay.provider.refundResult(from: answer(node, success), for: refund, now: Date())
        #expect(result.status == .succeeded)
        #expect(result.refunded == PaymentAmount(cents: 1000))
        #expect(result.providerRefundNumber == "2015042321001004720200028594")
        let unchanged = success.replacingOccurrences(of: "\"Y\"", with: "\"N\"")
        #expect(
            try alipay.provider.refundResult(from: answer(node, unchanged), for: refund, now: Date()).status
                == .processing)

        let tampered = ProviderMessage(
            body: Array(
                String(decoding: try answer(node, success).body, as: UTF8.self).replacingOccurrences(
                    of: "10.00", with: "88.88"
                ).utf8))
        #expect(throws: PaymentRefusal.badSignature) {
            try alipay.provider.refundResult(from: tampered, for: refund, now: Date())
        }
        #expect(throws: PaymentRefusal.unsigned) {
            try alipay.provider.refundResult(
                from: answer(node, success, signed: false), for: refund, now: Date())
        }
        let stranger = try Keys.privateKey(try await Keys.stranger.value)
        #expect(throws: PaymentRefusal.badSignature) {
            try alipay.provider.refundResult(
                from: answer(node, success, key: stranger), for: refund, now: Date())
        }

        let missing =
            #"{"code":"40004","msg":"Business Failed","sub_code":"ACQ.TRADE_NOT_EXIST","sub_msg":"交易不存在"}"#
        #expect(
            try alipay.provider.refundResult(
                from: answer(node, missing, signed: false), for: refund, now: Date()
            ).status == .failed("交易不存在 (ACQ.TRADE_NOT_EXIST)"))
        let busy = #"{"code":"20000","msg":"Service Currently Unavailable","sub_code":"isp.unknow-error"}"#
        #expect(
            try alipay.provider.refundResult(from: answer(node, busy), for: refund, now: Date()).status
                == .processing)
        #expect(
            try alipay.provider.refundResult(
                from: ProviderMessage(status: 502, body: []), for: refund, now: Date()
            ).status == .processing)
        #expect(throws: PaymentRefusal.malformed("the answer is not JSON with alipay_trade_refund_response"))
        {
            try alipay.provider.refundResult(
                from: ProviderMessage(body: Array("<html>".utf8)), for: refund, now: Date())
        }

        // A refund left open is asked about; its answer reads the same way.
        guard case .callProvider(let query) = try alipay.provider.refundQuery(refund, now: Date()) else {
            Issue.record("an Alipay refund query is a call")
            return
        }
        #expect(
            formPairs(String(decoding: query.body, as: UTF8.self))["method"]
                == "alipay.trade.fastpay.refund.query")
        let queried =
            #"{"code":"10000","msg":"Success","out_trade_no":"20150423001001","out_request_no":"R20150423001","refund_amount":"10.00","refund_status":"REFUND_SUCCESS"}"#
        #expect(
            try alipay.provider.refundResult(
                from: answer("alipay_trade_fastpay_refund_query_response", queried), for: refund, now: Date()
            ).status == .succeeded)
        let otherRefund = queried.replacingOccurrences(of: "R20150423001", with: "R999")
        #expect(throws: PaymentRefusal.malformed("it answers for refund R999, not R20150423001")) {
            try alipay.provider.refundResult(
                from: answer("alipay_trade_fastpay_refund_query_response", otherRefund), for: refund,
                now: Date())
        }
    }
}

@Suite struct AlipayConfigurationTests {
    @Test func everyProblemIsNamedInASentence() async throws {
        let app = try await Keys.alipayApp.value
        let alipay = try await Keys.alipay.value
        let bad = AlipayConfiguration(
            appID: "my-app", sellerID: "1234", appPrivateKey: try app.text(app.publicKeyPath),
            alipayPublicKey: "paste the key here", notifyURL: "shop.example.com/notify",
            gatewayURL: "http://openapi.alipay.com/gateway.do")
        #expect(
            throws: PaymentConfigurationError(problems: [
                "The Alipay app id must be the digits the open platform shows for the app, such as 2021000000000000.",
                "The Alipay seller id must be the merchant's PID (16 digits starting 2088), or unset.",
                "The Alipay app private key is a public key or certificate, where a private key belongs.",
                "The Alipay public key is not a PEM public key (text starting -----BEGIN) nor the base64 body of one.",
                "The Alipay notify URL must be a full http:// or https:// address without a query, such as https://shop.example.com/v1/payments/alipay/notify.",
                "The Alipay gateway URL must be a full https:// address without a query, such as https://openapi.alipay.com/gateway.do.",
            ])
        ) { try AlipayProvider(bad) }

        // The app's own public key pasted where Alipay's belongs: both keys are fine, the pair is not.
        let swapped = AlipayConfiguration(
            appID: AlipayHarness.appID, appPrivateKey: try app.text(app.rsaPrivateKeyPath),
            alipayPublicKey: try app.bareBase64(app.publicKeyPath),
            notifyURL: "https://shop.example.com/notify")
        #expect(
            throws: PaymentConfigurationError(problems: [
                "The Alipay public key is the app's own public key; use the Alipay public key shown beside it on the open platform."
            ])
        ) { try AlipayProvider(swapped) }
        let privateAsPublic = AlipayConfiguration(
            appID: AlipayHarness.appID, appPrivateKey: try app.text(app.privateKeyPath),
            alipayPublicKey: try alipay.text(alipay.privateKeyPath),
            notifyURL: "https://shop.example.com/notify")
        #expect(
            throws: PaymentConfigurationError(problems: [
                "The Alipay public key is a private key, where the other side's public key belongs."
            ])
        ) { try AlipayProvider(privateAsPublic) }
    }
}
