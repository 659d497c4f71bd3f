import COpenSSL
import Foundation

extension Crypto {
    /// An X.509 certificate with an RSA key, read for what a payment provider names it by: its serial number,
    /// its validity and its public key (WeChat Pay's platform certificates, Alipay's public key certificate).
    ///
    /// Nothing here checks who issued it: it is trusted because an administrator configured it.
    public struct Certificate: Sendable {
        /// The serial number as upper-case hex, two digits a byte (what `openssl x509 -serial` prints and the
        /// `Wechatpay-Serial` header carries).
        public let serialNumber: String
        public let notBefore: Date
        public let notAfter: Date
        public let publicKey: RSAPublicKey

        /// A certificate from its DER.
        public init(der: [UInt8]) throws(KeyError) {
            let decoded: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                guard let start = buffer.baseAddress else { return nil }
                var cursor: UnsafePointer<UInt8>? = start
                let certificate = d2i_X509(nil, &cursor, buffer.count)
                guard cursor == start + buffer.count else {
                    X509_free(certificate)
                    return nil
                }
                return certificate
            }
            ERR_clear_error()
            guard let certificate = decoded else { throw .undecodable(.certificate) }
            defer { X509_free(certificate) }
            guard let serial = Self.serial(of: certificate),
                let notBefore = Self.date(X509_get0_notBefore(certificate)),
                let notAfter = Self.date(X509_get0_notAfter(certificate))
            else { throw .undecodable(.certificate) }
            guard let key = X509_get_pubkey(certificate) else { throw .undecodable(.certificate) }
            publicKey = try RSAPublicKey(key: OpenSSLKey(key))
            serialNumber = serial
            self.notBefore = notBefore
            self.notAfter = notAfter
        }

        /// The one certificate in `text` (PEM "CERTIFICATE", or the bare base64 of its DER).
        public init(text: String) throws(KeyError) {
            switch try KeyText.read(text, expecting: .certificate) {
            case .block(let block):
                guard block.label == "CERTIFICATE" else {
                    throw .unexpectedPEM(label: block.label, expected: .certificate)
                }
                try self.init(der: block.der)
            case .bare(let der): try self.init(der: der)
            }
        }

        /// Every certificate in PEM text that may hold several (a platform certificate list, a chain).
        public static func all(in text: String) throws(KeyError) -> [Certificate] {
            let blocks = try PEMBlock.blocks(in: text)
            guard !blocks.isEmpty else { throw .notPEM(.certificate) }
            var certificates: [Certificate] = []
            for block in blocks {
                guard block.label == "CERTIFICATE" else {
                    throw .unexpectedPEM(label: block.label, expected: .certificate)
                }
                certificates.append(try Certificate(der: block.der))
            }
            return certificates
        }

        /// Whether `date` lies within its validity.
        public func isValid(at date: Date) -> Bool { notBefore <= date && date <= notAfter }

        private static func serial(of certificate: OpaquePointer) -> String? {
            guard let serial = X509_get0_serialNumber(certificate) else { return nil }
            let length = Int(ASN1_STRING_length(serial))
            guard length > 0, let bytes = ASN1_STRING_get0_data(serial) else { return nil }
            let digits = hex(Array(UnsafeBufferPointer(start: bytes, count: length))).uppercased()
            return ASN1_STRING_type(serial) == V_ASN1_NEG_INTEGER ? "-" + digits : digits
        }

        private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
            var parts = tm()
            guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
            return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
        }
    }
}
