import Cryptography
import Foundation
import ServerTestSupport
import Testing

@testable import Payments

/// One sandbox key, made the way the server makes it at first start.
private let sandboxKey = SharedFixture { try SandboxConfiguration.newPrivateKey() }

@Suite struct SandboxTests {
    func provider() async throws -> SandboxProvider {
        try SandboxProvider(SandboxConfiguration(privateKey: try await sandboxKey.value))
    }

    @Test func aPaymentGoesToOurPageWithATokenOnlyItsStarterHas() async throws {
        let sandbox = try await provider()
        let paid = order("20240501000001", cents: 1990)
        guard case .start(.redirect(let address)) = try sandbox.payment(for: paid, now: Date()) else {
            Issue.record("a sandbox payment starts on our page")
            return
        }
        #expect(address.hasPrefix("/shop/sandbox/pay?order=20240501000001&token="))
        let token = try #require(formPairs(String(address.split(separator: "?")[1]))["token"])
        #expect(sandbox.isValidPageToken(token, for: paid))
        var other = paid
        other.amount.cents = 1
        #expect(!sandbox.isValidPageToken(token, for: other))
        other = paid
        other.number = "20240501000002"
        #expect(!sandbox.isValidPageToken(token, for: other))
        #expect(
            !sandbox.isValidPageToken(String(token.dropLast()) + (token.last == "0" ? "1" : "0"), for: paid))
        #expect(!sandbox.isValidPageToken("not hex", for: paid))
        // Another sandbox (another key) makes other tokens.
        let stranger = try SandboxProvider(
            SandboxConfiguration(privateKey: try SandboxConfiguration.newPrivateKey()))
        #expect(!stranger.isValidPageToken(token, for: paid))
    }

    @Test func itsNotificationsGoThroughAlipaysVerification() async throws {
        let sandbox = try await provider()
        let paid = order("20240501000001", cents: 1990)
        let now = Date()
        let message = try sandbox.notification(for: paid, now: now)
        let notice = try sandbox.notice(from: message, now: now)
        #expect(notice.provider == .sandbox)
        #expect(notice.appID == SandboxConfiguration.appID)
        #expect(notice.amount == paid.amount)
        #expect(notice.status == .paid)
        #expect(notice.paidAt == Date(timeIntervalSince1970: Double(Int(now.timeIntervalSince1970))))
        #expect(notice.providerTradeNumber == sandbox.tradeNumber(for: paid))
        #expect(notice.verdict(orderNumber: paid.number, amount: paid.amount) == .paid)
        #expect(try sandbox.notice(from: message, now: now) == notice)
        #expect(sandbox.acceptedAnswer.body == Array("success".utf8))

        // Signed like Alipay's: openssl checks the signature over Alipay's signing text.
        let fields = formPairs(String(decoding: message.body, as: UTF8.self))
        let folder = temporaryFolder()
        let files = OpenSSLKeyPair(folder: folder)
        try sandbox.key.publicKey.pem.write(toFile: files.publicKeyPath, atomically: true, encoding: .utf8)
        #expect(fields["sign_type"] == "RSA2")
        let text = alipaySigningText(fields.map { ($0.key, $0.value) }, excluding: ["sign", "sign_type"])
        #expect(try await files.verify(Crypto.unbase64(fields["sign"]!)!, of: text))

        // Each notification has its own id; the same order's trade number stays.
        let again = try sandbox.notice(from: try sandbox.notification(for: paid, now: now), now: now)
        #expect(again.notificationID != notice.notificationID)
        #expect(again.providerTradeNumber == notice.providerTradeNumber)
    }

    @Test func aTamperedOrForeignSandboxNotificationIsRefused() async throws {
        let sandbox = try await provider()
        let paid = order("20240501000001", cents: 1990, currency: "USD")
        let message = try sandbox.notification(for: paid, now: Date())
        #expect(
            try sandbox.notice(from: message, now: Date()).amount
                == PaymentAmount(cents: 1990, currency: "USD"))
        let tampered = String(decoding: message.body, as: UTF8.self).replacingOccurrences(
            of: "total_amount=19.90", with: "total_amount=0.01")
        expectRefusal(.badSignature) { () throws(PaymentRefusal) in
            try sandbox.notice(from: ProviderMessage(body: Array(tampered.utf8)), now: Date())
        }
        let stranger = try SandboxProvider(
            SandboxConfiguration(privateKey: try SandboxConfiguration.newPrivateKey()))
        let foreign = try stranger.notification(for: paid, now: Date())
        expectRefusal(.badSignature) { () throws(PaymentRefusal) in
            try sandbox.notice(from: foreign, now: Date())
        }
        // Alipay's provider does not take the sandbox's notifications either (another key, another app).
        let alipay = try await AlipayHarness.make()
        expectRefusal(.badSignature) { () throws(PaymentRefusal) in
            try alipay.provider.notice(from: message, now: Date())
        }
    }

    @Test func cancellingClosesAndRefundsCompleteAtOnce() async throws {
        let sandbox = try await provider()
        let cancelled = order("20240501000003", cents: 500)
        let closed = try sandbox.notice(
            from: try sandbox.notification(for: cancelled, status: .closed, now: Date()), now: Date())
        #expect(closed.verdict(orderNumber: cancelled.number, amount: cancelled.amount) == .closed)
        #expect(closed.paidAt == nil)

        let refund = RefundRequest(
            orderNumber: "20240501000001", refundNumber: "R1", amount: PaymentAmount(cents: 500),
            orderTotal: PaymentAmount(cents: 1990), reason: "demo")
        guard case .done(let result) = try sandbox.refund(refund, now: Date()) else {
            Issue.record("a sandbox refund completes at once")
            return
        }
        #expect(result.status == .succeeded)
        #expect(result.refunded == PaymentAmount(cents: 500))
        #expect(result.refundNumber == "R1")
        var tooMuch = refund
        tooMuch.amount.cents = 1991
        #expect(throws: PaymentRequestError("A refund is 0.01 up to the order's total, in its currency.")) {
            try sandbox.refund(tooMuch, now: Date())
        }
    }

    @Test func theShopGetsTheSandboxOnlyWhenNoProviderIsConfigured() async throws {
        let sandbox = SandboxConfiguration(privateKey: try await sandboxKey.value)
        let alone = try PaymentProviders(alipay: nil, wechatPay: nil, sandbox: sandbox)
        #expect(Array(alone.all.keys) == [.sandbox])
        let alipay = try await AlipayHarness.make()
        let real = try PaymentProviders(
            alipay: alipay.provider.configuration, wechatPay: nil, sandbox: sandbox)
        #expect(Array(real.all.keys) == [.alipay])
        #expect(real[.sandbox] == nil)
        #expect(
            throws: PaymentConfigurationError(problems: [
                "No payment provider is configured, and no sandbox key was given."
            ])
        ) {
            try PaymentProviders(alipay: nil, wechatPay: nil, sandbox: nil)
        }
        // Problems of several providers come together.
        var badAlipay = alipay.provider.configuration
        badAlipay.appID = "x"
        let wechat = try await WeChatHarness.make()
        var badWeChat = wechat.configuration
        badWeChat.apiV3Key = ""
        #expect(
            throws: PaymentConfigurationError(problems: [
                "The Alipay app id must be the digits the open platform shows for the app, such as 2021000000000000.",
                "The WeChat Pay APIv3 key must be the 32 characters set in the merchant platform's API security page (this one has 0).",
            ])
        ) { try PaymentProviders(alipay: badAlipay, wechatPay: badWeChat, sandbox: nil) }
        #expect(
            throws: PaymentConfigurationError(problems: [
                "The sandbox private key is not a PEM private key (text starting -----BEGIN) nor the base64 body of one."
            ])
        ) { try SandboxProvider(SandboxConfiguration(privateKey: "")) }
    }
}
