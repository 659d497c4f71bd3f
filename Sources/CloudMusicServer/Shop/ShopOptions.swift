import Foundation
import Payments

/// The shop's settings: how long an unpaid order keeps its stock, and the payment providers' ids and key
/// files. With neither Alipay nor WeChat Pay set, the shop takes payments through the sandbox only.
public struct ShopOptions: Equatable, Sendable {
    public var orderExpirySeconds = 1_800
    /// How long after shipping an order completes by itself (given in days, fractions allowed).
    public var orderAutoCompleteSeconds = 15 * 86_400
    public var alipayAppID: String?
    public var alipaySellerID: String?
    public var alipayPrivateKeyFile: String?
    public var alipayPublicKeyFile: String?
    public var alipayGateway = AlipayConfiguration.productionGateway
    public var wechatMerchantID: String?
    public var wechatAppID: String?
    public var wechatPrivateKeyFile: String?
    public var wechatSerial: String?
    public var wechatAPIv3KeyFile: String?
    public var wechatPlatformCertificateFile: String?
    /// The server's public address, which the providers post notifications to (`/v1/shop/notify/...`).
    public var publicURL: String?

    public init() {}

    /// The configured providers, their keys read from their files; with none configured, the sandbox, whose
    /// key is made at first start and kept in `dataFolder` (mode 0600).
    func providers(dataFolder: String) throws -> PaymentProviders {
        let alipay = try alipayConfiguration()
        let wechat = try wechatConfiguration()
        let sandbox = alipay == nil && wechat == nil ? try sandboxConfiguration(dataFolder: dataFolder) : nil
        do {
            return try PaymentProviders(alipay: alipay, wechatPay: wechat, sandbox: sandbox)
        } catch {
            throw UsageError(message: "The payment settings are not usable: \(error.description)")
        }
    }

    private func notifyURL(_ provider: String) throws -> String {
        guard let publicURL else {
            throw UsageError(
                message:
                    "--shop-public-url is needed with \(provider): it is where the provider sends notifications."
            )
        }
        return publicURL.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/v1/shop/notify/"
            + provider
    }

    private func alipayConfiguration() throws -> AlipayConfiguration? {
        guard let appID = alipayAppID else { return nil }
        guard let privateKey = alipayPrivateKeyFile, let publicKey = alipayPublicKeyFile else {
            throw UsageError(
                message: "--alipay-app-id needs --alipay-private-key and --alipay-public-key too.")
        }
        return AlipayConfiguration(
            appID: appID, sellerID: alipaySellerID,
            appPrivateKey: try Self.read(privateKey, "--alipay-private-key"),
            alipayPublicKey: try Self.read(publicKey, "--alipay-public-key"),
            notifyURL: try notifyURL("alipay"),
            gatewayURL: alipayGateway)
    }

    private func wechatConfiguration() throws -> WeChatPayConfiguration? {
        guard let merchantID = wechatMerchantID else { return nil }
        guard let appID = wechatAppID, let key = wechatPrivateKeyFile, let serial = wechatSerial,
            let v3 = wechatAPIv3KeyFile, let certificates = wechatPlatformCertificateFile
        else {
            throw UsageError(
                message:
                    "--wechat-mch-id needs --wechat-app-id, --wechat-private-key, --wechat-serial, --wechat-api-v3-key and --wechat-platform-certificate too."
            )
        }
        return WeChatPayConfiguration(
            merchantID: merchantID, appID: appID,
            merchantPrivateKey: try Self.read(key, "--wechat-private-key"),
            merchantSerialNumber: serial,
            apiV3Key: try Self.read(v3, "--wechat-api-v3-key").trimmingCharacters(
                in: .whitespacesAndNewlines),
            platformCertificates: try Self.read(certificates, "--wechat-platform-certificate"),
            notifyURL: try notifyURL("wechat"))
    }

    private func sandboxConfiguration(dataFolder: String) throws -> SandboxConfiguration {
        let path = dataFolder + "/shop-sandbox-key.pem"
        if let key = try? String(contentsOfFile: path, encoding: .utf8) {
            return SandboxConfiguration(privateKey: key, pageURL: "/v1/shop/sandbox/pay")
        }
        let key: String
        do { key = try SandboxConfiguration.newPrivateKey() } catch {
            throw UsageError(message: error.description)
        }
        // Written whole under another name, then renamed, so a crash never leaves half a key.
        let temporary = path + ".tmp"
        guard
            FileManager.default.createFile(
                atPath: temporary, contents: Data(key.utf8), attributes: [.posixPermissions: 0o600]),
            rename(temporary, path) == 0
        else { throw UsageError(message: "Cannot write the sandbox payment key to \(path).") }
        return SandboxConfiguration(privateKey: key, pageURL: "/v1/shop/sandbox/pay")
    }

    private static func read(_ path: String, _ flag: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw UsageError(message: "\(flag): cannot read \(path).")
        }
        return text
    }
}

extension CommandLineParser {
    static let shopFlags: [Flag] = [
        Flag(
            name: "--order-expiry", environment: "CLOUDMUSIC_ORDER_EXPIRY", valueName: "SECONDS",
            help: "How long an unpaid order keeps its stock before it expires (default 1800)."
        ) { $0.shop.orderExpirySeconds = try integer($1, flag: "--order-expiry", range: 1...604_800) },
        Flag(
            name: "--order-auto-complete", environment: "CLOUDMUSIC_ORDER_AUTO_COMPLETE", valueName: "DAYS",
            help:
                "Days after shipping when an order the buyer has not confirmed completes by itself (default 15)."
        ) { options, text in
            guard let days = Double(text), days > 0, days <= 365 else {
                throw UsageError(
                    message:
                        "--order-auto-complete must be a number of days above 0, up to 365 (got '\(text)').")
            }
            options.shop.orderAutoCompleteSeconds = max(1, Int((days * 86_400).rounded()))
        },
        Flag(
            name: "--shop-public-url", environment: "CLOUDMUSIC_SHOP_PUBLIC_URL", valueName: "URL",
            help: "The server's public https address, where payment providers send notifications."
        ) { $0.shop.publicURL = $1 },
        Flag(
            name: "--alipay-app-id", environment: "CLOUDMUSIC_ALIPAY_APP_ID", valueName: "ID",
            help: "Take payments through Alipay with this app id (then the sandbox is off)."
        ) { $0.shop.alipayAppID = $1 },
        Flag(
            name: "--alipay-seller-id", environment: "CLOUDMUSIC_ALIPAY_SELLER_ID", valueName: "ID",
            help: "Alipay's seller id (PID); notifications for another seller are refused."
        ) { $0.shop.alipaySellerID = $1 },
        Flag(
            name: "--alipay-private-key", environment: "CLOUDMUSIC_ALIPAY_PRIVATE_KEY", valueName: "FILE",
            help: "The app's RSA private key (PEM or Alipay's bare base64)."
        ) { $0.shop.alipayPrivateKeyFile = $1 },
        Flag(
            name: "--alipay-public-key", environment: "CLOUDMUSIC_ALIPAY_PUBLIC_KEY", valueName: "FILE",
            help: "Alipay's public key, which signs its notifications."
        ) { $0.shop.alipayPublicKeyFile = $1 },
        Flag(
            name: "--alipay-gateway", environment: "CLOUDMUSIC_ALIPAY_GATEWAY", valueName: "URL",
            help: "Alipay's gateway (its sandbox's for testing)."
        ) { $0.shop.alipayGateway = $1 },
        Flag(
            name: "--wechat-mch-id", environment: "CLOUDMUSIC_WECHAT_MCH_ID", valueName: "ID",
            help: "Take payments through WeChat Pay (API v3) as this merchant (then the sandbox is off)."
        ) { $0.shop.wechatMerchantID = $1 },
        Flag(
            name: "--wechat-app-id", environment: "CLOUDMUSIC_WECHAT_APP_ID", valueName: "ID",
            help: "The WeChat app id bound to the merchant."
        ) { $0.shop.wechatAppID = $1 },
        Flag(
            name: "--wechat-private-key", environment: "CLOUDMUSIC_WECHAT_PRIVATE_KEY", valueName: "FILE",
            help: "The merchant's API private key (PEM)."
        ) { $0.shop.wechatPrivateKeyFile = $1 },
        Flag(
            name: "--wechat-serial", environment: "CLOUDMUSIC_WECHAT_SERIAL", valueName: "SERIAL",
            help: "The serial number of the merchant's API certificate."
        ) { $0.shop.wechatSerial = $1 },
        Flag(
            name: "--wechat-api-v3-key", environment: "CLOUDMUSIC_WECHAT_API_V3_KEY", valueName: "FILE",
            help: "A file holding the 32-character APIv3 key."
        ) { $0.shop.wechatAPIv3KeyFile = $1 },
        Flag(
            name: "--wechat-platform-certificate", environment: "CLOUDMUSIC_WECHAT_PLATFORM_CERTIFICATE",
            valueName: "FILE", help: "WeChat Pay's platform certificates (PEM), which sign its notifications."
        ) { $0.shop.wechatPlatformCertificateFile = $1 },
    ]
}
