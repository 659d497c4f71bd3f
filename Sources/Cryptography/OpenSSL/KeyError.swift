import COpenSSL

extension Crypto {
    /// What a key, certificate or signature operation is about, for errors that name it.
    public enum KeyKind: String, Sendable {
        case publicKey = "public key"
        case privateKey = "private key"
        case certificate
    }

    /// A key or certificate that cannot be used, or a signature that could not be made.
    ///
    /// `phrase` completes a sentence whose subject the caller names ("The Alipay public key " + phrase), so
    /// a configuration error reads as one sentence a person can act on.
    public enum KeyError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Neither PEM text nor a base64 key body.
        case notPEM(KeyKind)
        /// PEM text whose armour or base64 is broken.
        case malformedPEM(String)
        /// A PEM block of another kind (`label`) where a `KeyKind` belongs.
        case unexpectedPEM(label: String, expected: KeyKind)
        /// A key protected by a passphrase.
        case encrypted
        /// A private key where a public one belongs: usually pasted into the wrong setting.
        case privateKeyInsteadOfPublic
        /// A public key or certificate where a private key belongs.
        case publicKeyInsteadOfPrivate
        /// Bytes that decode as base64 or PEM but not as the key or certificate they claim to be.
        case undecodable(KeyKind)
        /// A key of another algorithm (EC, Ed25519, ...).
        case notRSA(algorithm: String)
        /// An RSA key below 2048 bits (or absurdly large).
        case unsupportedSize(bits: Int)
        /// OpenSSL failed where it should not (out of memory, a broken installation): its own words.
        case library(String)

        public var phrase: String {
            switch self {
            case .notPEM(let kind):
                "is not a PEM \(kind.rawValue) (text starting -----BEGIN) nor the base64 body of one"
            case .malformedPEM(let detail): "is not well-formed PEM text: \(detail)"
            case .unexpectedPEM(let label, let expected):
                "is a PEM \"\(label)\" block, not a \(expected.rawValue)"
            case .encrypted:
                "is encrypted with a passphrase; export it without one (openssl pkey -in key.pem -out plain.pem)"
            case .privateKeyInsteadOfPublic:
                "is a private key, where the other side's public key belongs"
            case .publicKeyInsteadOfPrivate: "is a public key or certificate, where a private key belongs"
            case .undecodable(let kind): "cannot be read as an RSA \(kind.rawValue)"
            case .notRSA(let algorithm): "is a \(algorithm) key, not an RSA key"
            case .unsupportedSize(let bits): "is a \(bits)-bit key; RSA keys of 2048 to 16384 bits are taken"
            case .library(let detail): "could not be used by OpenSSL: \(detail)"
            }
        }

        public var description: String { "The key " + phrase + "." }
    }

    /// AES-256-GCM refused its input, or the ciphertext is not authentic.
    public enum CipherError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The key is not 32 bytes.
        case keySize(Int)
        /// The nonce is empty, too long, or (when sealing) shorter than 12 bytes.
        case nonceSize(Int)
        /// The ciphertext is shorter than its tag.
        case tooShort
        /// The tag does not match: the ciphertext, nonce, associated data or key is not the one sealed.
        case notAuthentic
        /// OpenSSL failed where it should not.
        case library(String)

        public var description: String {
            switch self {
            case .keySize(let count): "An AES-256 key is 32 bytes, not \(count)."
            case .nonceSize(let count): "A GCM nonce of \(count) bytes is not taken (12 is the standard)."
            case .tooShort: "The ciphertext is shorter than its 16-byte tag."
            case .notAuthentic: "The ciphertext is not authentic (its tag does not match)."
            case .library(let detail): "OpenSSL failed: \(detail)."
            }
        }
    }

    /// The oldest error OpenSSL queued on this thread, as text, and an empty queue for the next call.
    static func openSSLFailure() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no reason given" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
