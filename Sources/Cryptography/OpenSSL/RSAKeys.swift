import COpenSSL
import Foundation

extension Crypto {
    /// An EVP_PKEY this module owns. OpenSSL 3 keys may be used from several threads once made (every
    /// operation below takes its own context), so the handle is shared freely.
    final class OpenSSLKey: @unchecked Sendable {
        let pointer: OpaquePointer

        init(_ pointer: OpaquePointer) { self.pointer = pointer }

        deinit { EVP_PKEY_free(pointer) }

        /// The key if it is RSA of a size payment providers use; the error names what it is instead.
        func checkedRSA() throws(KeyError) -> OpenSSLKey {
            guard EVP_PKEY_get_base_id(pointer) == EVP_PKEY_RSA else {
                let name = EVP_PKEY_get0_type_name(pointer).map { String(cString: $0) }
                throw .notRSA(algorithm: name ?? "non-RSA")
            }
            let bits = Int(EVP_PKEY_get_bits(pointer))
            guard (2048...16384).contains(bits) else { throw .unsupportedSize(bits: bits) }
            return self
        }

        /// The public half as SubjectPublicKeyInfo DER.
        func publicDER() throws(KeyError) -> [UInt8] {
            guard let der = Crypto.encodeDER({ i2d_PUBKEY(pointer, $0) }) else {
                throw .library(Crypto.openSSLFailure())
            }
            return der
        }
    }

    /// The ways a key's DER may be written, each tried whole: trailing bytes make it fail.
    enum KeyDER {
        /// SubjectPublicKeyInfo ("PUBLIC KEY"; Alipay's bare public keys).
        static func publicInfo(_ der: [UInt8]) -> OpenSSLKey? { decode(der) { d2i_PUBKEY(nil, $0, $1) } }

        /// PKCS#1 RSAPublicKey ("RSA PUBLIC KEY").
        static func rsaPublic(_ der: [UInt8]) -> OpenSSLKey? {
            decode(der) { d2i_PublicKey(EVP_PKEY_RSA, nil, $0, $1) }
        }

        /// PKCS#8 PrivateKeyInfo ("PRIVATE KEY") or PKCS#1 RSAPrivateKey ("RSA PRIVATE KEY").
        static func privateKey(_ der: [UInt8]) -> OpenSSLKey? {
            decode(der) { d2i_AutoPrivateKey(nil, $0, $1) }
        }

        private static func decode(
            _ der: [UInt8], _ decoder: (UnsafeMutablePointer<UnsafePointer<UInt8>?>, Int) -> OpaquePointer?
        ) -> OpenSSLKey? {
            let key: OpenSSLKey? = der.withUnsafeBufferPointer { buffer in
                guard let start = buffer.baseAddress else { return nil }
                var cursor: UnsafePointer<UInt8>? = start
                guard let pointer = decoder(&cursor, buffer.count) else { return nil }
                let key = OpenSSLKey(pointer)
                return cursor == start + buffer.count ? key : nil
            }
            ERR_clear_error()
            return key
        }
    }

    /// The DER an OpenSSL `i2d_*` function writes: asked once for its length, then written.
    static func encodeDER(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32)
        -> [UInt8]?
    {
        let length = encode(nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return encode(&cursor)
        }
        return written == length ? der : nil
    }

    /// An RSA public key (2048 bits or more) that checks SHA256withRSA signatures ("RSA2", RSASSA-PKCS1-v1_5).
    public struct RSAPublicKey: Sendable, Hashable {
        let key: OpenSSLKey
        /// SubjectPublicKeyInfo DER: what makes two keys the same key.
        public let der: [UInt8]

        init(key: OpenSSLKey) throws(KeyError) {
            self.key = try key.checkedRSA()
            der = try key.publicDER()
        }

        /// A key from SubjectPublicKeyInfo DER.
        public init(der: [UInt8]) throws(KeyError) {
            guard let key = KeyDER.publicInfo(der) else { throw .undecodable(.publicKey) }
            try self.init(key: key)
        }

        /// A key as pasted: PEM "PUBLIC KEY" (SPKI), "RSA PUBLIC KEY" (PKCS#1) or "CERTIFICATE" (its key), or
        /// the bare base64 of SPKI or PKCS#1 DER, as Alipay's open platform shows it.
        public init(text: String) throws(KeyError) {
            switch try KeyText.read(text, expecting: .publicKey) {
            case .block(let block):
                switch block.label {
                case "PUBLIC KEY": try self.init(der: block.der)
                case "RSA PUBLIC KEY":
                    guard let key = KeyDER.rsaPublic(block.der) else { throw .undecodable(.publicKey) }
                    try self.init(key: key)
                case "CERTIFICATE": self = try Certificate(der: block.der).publicKey
                case "PRIVATE KEY", "RSA PRIVATE KEY", "ENCRYPTED PRIVATE KEY":
                    throw .privateKeyInsteadOfPublic
                default: throw .unexpectedPEM(label: block.label, expected: .publicKey)
                }
            case .bare(let der):
                if let key = KeyDER.publicInfo(der) ?? KeyDER.rsaPublic(der) {
                    try self.init(key: key)
                } else if KeyDER.privateKey(der) != nil {
                    throw .privateKeyInsteadOfPublic
                } else {
                    throw .undecodable(.publicKey)
                }
            }
        }

        /// The modulus' size in bits.
        public var bits: Int { Int(EVP_PKEY_get_bits(key.pointer)) }

        /// The key as PEM "PUBLIC KEY" text.
        public var pem: String { PEMBlock(label: "PUBLIC KEY", der: der).text }

        /// The bare base64 of its SPKI DER, the form Alipay's open platform takes and shows.
        public var base64Body: String { base64(der) }

        /// Whether `signature` is this key's SHA256withRSA (PKCS#1 v1.5) signature of `message`.
        public func isValidSignature(_ signature: [UInt8], of message: [UInt8]) -> Bool {
            guard let context = EVP_MD_CTX_new() else { return false }
            defer {
                EVP_MD_CTX_free(context)
                ERR_clear_error()
            }
            var keyContext: OpaquePointer?
            guard EVP_DigestVerifyInit(context, &keyContext, EVP_sha256(), nil, key.pointer) == 1,
                EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1
            else { return false }
            return EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        }

        public static func == (lhs: RSAPublicKey, rhs: RSAPublicKey) -> Bool { lhs.der == rhs.der }
        public func hash(into hasher: inout Swift.Hasher) { hasher.combine(der) }
    }

    /// An RSA private key (2048 bits or more) that makes SHA256withRSA signatures.
    public struct RSAPrivateKey: Sendable {
        let key: OpenSSLKey
        /// Its public half.
        public let publicKey: RSAPublicKey

        init(key: OpenSSLKey) throws(KeyError) {
            self.key = try key.checkedRSA()
            publicKey = try RSAPublicKey(der: key.publicDER())
        }

        /// A key as pasted: PEM "PRIVATE KEY" (PKCS#8) or "RSA PRIVATE KEY" (PKCS#1), or the bare base64 of
        /// either's DER (what Alipay's key tool writes). Keys encrypted with a passphrase are refused.
        public init(text: String) throws(KeyError) {
            let der: [UInt8]
            switch try KeyText.read(text, expecting: .privateKey) {
            case .block(let block):
                switch block.label {
                case "PRIVATE KEY", "RSA PRIVATE KEY": der = block.der
                case "ENCRYPTED PRIVATE KEY": throw .encrypted
                case "PUBLIC KEY", "RSA PUBLIC KEY", "CERTIFICATE": throw .publicKeyInsteadOfPrivate
                default: throw .unexpectedPEM(label: block.label, expected: .privateKey)
                }
            case .bare(let bytes):
                der = bytes
                if KeyDER.privateKey(der) == nil, KeyDER.publicInfo(der) ?? KeyDER.rsaPublic(der) != nil {
                    throw .publicKeyInsteadOfPrivate
                }
            }
            guard let key = KeyDER.privateKey(der) else { throw .undecodable(.privateKey) }
            try self.init(key: key)
        }

        /// A new random key (the sandbox's, made at its first start); 2048 bits unless told.
        public static func generate(bits: Int = 2048) throws(KeyError) -> RSAPrivateKey {
            guard (2048...16384).contains(bits) else { throw .unsupportedSize(bits: bits) }
            guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
                throw .library(openSSLFailure())
            }
            defer { EVP_PKEY_CTX_free(context) }
            var generated: OpaquePointer?
            guard EVP_PKEY_keygen_init(context) == 1,
                EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1,
                EVP_PKEY_generate(context, &generated) == 1, let generated
            else { throw .library(openSSLFailure()) }
            return try RSAPrivateKey(key: OpenSSLKey(generated))
        }

        /// The key as PEM "PRIVATE KEY" (PKCS#8) text, for its owner to store (mode 0600).
        public func pkcs8PEM() throws(KeyError) -> String {
            guard let info = EVP_PKEY2PKCS8(key.pointer) else { throw .library(openSSLFailure()) }
            defer { PKCS8_PRIV_KEY_INFO_free(info) }
            guard let der = encodeDER({ i2d_PKCS8_PRIV_KEY_INFO(info, $0) }) else {
                throw .library(openSSLFailure())
            }
            return PEMBlock(label: "PRIVATE KEY", der: der).text
        }

        /// The SHA256withRSA (PKCS#1 v1.5) signature of `message`; as long as the modulus.
        public func signature(of message: [UInt8]) throws(KeyError) -> [UInt8] {
            guard let context = EVP_MD_CTX_new() else { throw .library(openSSLFailure()) }
            defer { EVP_MD_CTX_free(context) }
            var keyContext: OpaquePointer?
            var length = Int(EVP_PKEY_get_size(key.pointer))
            var signature = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSignInit(context, &keyContext, EVP_sha256(), nil, key.pointer) == 1,
                EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1,
                EVP_DigestSign(context, &signature, &length, message, message.count) == 1
            else { throw .library(openSSLFailure()) }
            return Array(signature.prefix(length))
        }
    }
}
