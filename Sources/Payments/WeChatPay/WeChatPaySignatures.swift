import Cryptography
import Foundation

/// WeChat Pay API v3's signatures: ours on requests (the `Authorization` header), and the platform's on its
/// notifications and answers (the `Wechatpay-*` headers), checked with the key its serial names.
struct WeChatPaySignatures: Sendable {
    static let signatureType = "WECHATPAY2-SHA256-RSA2048"
    /// How far a platform timestamp may be from now, either way.
    static let allowedSkewSeconds = 300
    /// Notifications and answers are a few KiB; anything far larger is not one.
    static let maximumBytes = 64 << 10

    /// A key WeChat Pay signs with: a platform certificate's (valid for a time), or the platform public key.
    struct PlatformKey: Sendable {
        let key: Crypto.RSAPublicKey
        let validity: ClosedRange<Date>?
    }

    let merchantID: String
    let merchantSerialNumber: String
    let merchantKey: Crypto.RSAPrivateKey
    /// By serial, as `serialKey` writes it.
    let platformKeys: [String: PlatformKey]

    /// A serial as compared: upper case, and a hex one without leading zeros (certificate tools differ there).
    static func serialKey(_ serial: String) -> String {
        let upper = serial.uppercased()
        guard upper.allSatisfy(\.isHexDigit) else { return upper }
        let trimmed = upper.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    /// The headers of a signed API call: `Authorization` over "method\npath\ntimestamp\nnonce\nbody\n".
    func headers(method: String, path: String, body: [UInt8], now: Date) throws(PaymentRequestError)
        -> [String: String]
    {
        let timestamp = String(Int(now.timeIntervalSince1970))
        let nonce = Crypto.hex(Crypto.randomBytes(16)).uppercased()
        let message = Array("\(method)\n\(path)\n\(timestamp)\n\(nonce)\n".utf8) + body + [0x0A]
        let signature: [UInt8]
        do {
            signature = try merchantKey.signature(of: message)
        } catch {
            throw PaymentRequestError("The WeChat Pay request could not be signed: \(error.description)")
        }
        let authorization =
            "\(Self.signatureType) mchid=\"\(merchantID)\",nonce_str=\"\(nonce)\",signature=\""
            + "\(Crypto.base64(signature))\",timestamp=\"\(timestamp)\",serial_no=\"\(merchantSerialNumber)\""
        var headers = [
            "Authorization": authorization, "Accept": "application/json",
            "User-Agent": "CloudMusic-payments/1",
        ]
        if !body.isEmpty { headers["Content-Type"] = "application/json" }
        return headers
    }

    /// Checks a notification's or answer's platform signature: present, of the one type taken, fresh (five
    /// minutes either way), by a configured key valid now, and over "timestamp\nnonce\nbody\n" exactly as received.
    func verify(_ message: ProviderMessage, now: Date) throws(PaymentRefusal) {
        guard message.body.count <= Self.maximumBytes else { throw .tooLarge(bytes: Self.maximumBytes) }
        guard let signatureText = message.header("Wechatpay-Signature"), !signatureText.isEmpty else {
            throw .unsigned
        }
        if let type = message.header("Wechatpay-Signature-Type"), type != Self.signatureType {
            throw .unsupportedSignatureType(type)
        }
        guard let timestamp = message.header("Wechatpay-Timestamp"),
            let nonce = message.header("Wechatpay-Nonce"),
            let serial = message.header("Wechatpay-Serial")
        else {
            throw .malformed("it lacks a Wechatpay-Timestamp, Wechatpay-Nonce or Wechatpay-Serial header")
        }
        guard timestamp.isDigits, timestamp.count <= 12, let seconds = Int(timestamp) else {
            throw .malformed("its Wechatpay-Timestamp \(timestamp) is not a Unix time")
        }
        let age = Int(now.timeIntervalSince1970) - seconds
        guard age.magnitude <= Self.allowedSkewSeconds else { throw .staleTimestamp(seconds: age) }
        guard let platform = platformKeys[Self.serialKey(serial)] else {
            throw .unknownCertificate(serial: serial)
        }
        if let validity = platform.validity, !validity.contains(now) {
            throw .certificateNotValid(serial: serial)
        }
        let signed = Array("\(timestamp)\n\(nonce)\n".utf8) + message.body + [0x0A]
        // WeChat Pay sends signatures that start WECHATPAY/SIGNTEST/ to see that they are refused: they are.
        guard let signature = Crypto.unbase64(signatureText),
            platform.key.isValidSignature(signature, of: signed)
        else { throw .badSignature }
    }
}
