import COpenSSL

extension Crypto {
    /// AES-256-GCM: what WeChat Pay encrypts its notifications' resources with (the key is the merchant's
    /// 32-character APIv3 key, the nonce and associated data come with the resource).
    public enum AESGCM {
        public static let keyBytes = 32
        public static let tagBytes = 16

        /// `plaintext` encrypted under `key`, followed by its 16-byte tag (WeChat Pay's `ciphertext` layout).
        /// A nonce must never be used twice with one key; 12 random bytes is the standard.
        public static func seal(
            _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8] = []
        ) throws(CipherError) -> [UInt8] {
            guard (12...256).contains(nonce.count) else { throw .nonceSize(nonce.count) }
            let (ciphertext, tag) = try run(
                encrypting: true, plaintext, key: key, nonce: nonce, associatedData: associatedData, tag: nil)
            return ciphertext + tag
        }

        /// The plaintext of `sealed` (ciphertext then tag), released only when the tag matches.
        public static func open(
            _ sealed: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8] = []
        ) throws(CipherError) -> [UInt8] {
            guard (1...256).contains(nonce.count) else { throw .nonceSize(nonce.count) }
            guard sealed.count >= tagBytes else { throw .tooShort }
            let tag = Array(sealed.suffix(tagBytes))
            return try run(
                encrypting: false, Array(sealed.dropLast(tagBytes)), key: key, nonce: nonce,
                associatedData: associatedData, tag: tag
            ).output
        }

        private static func run(
            encrypting: Bool, _ input: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8],
            tag: [UInt8]?
        ) throws(CipherError) -> (output: [UInt8], tag: [UInt8]) {
            guard key.count == keyBytes else { throw .keySize(key.count) }
            guard input.count < Int(Int32.max) - tagBytes, associatedData.count < Int(Int32.max) else {
                throw .library("input too large")
            }
            guard let context = EVP_CIPHER_CTX_new() else { throw .library(openSSLFailure()) }
            defer { EVP_CIPHER_CTX_free(context) }
            let initialize = encrypting ? EVP_EncryptInit_ex : EVP_DecryptInit_ex
            let update = encrypting ? EVP_EncryptUpdate : EVP_DecryptUpdate
            var produced: Int32 = 0
            var output = [UInt8](repeating: 0, count: input.count + tagBytes)
            guard initialize(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(nonce.count), nil) == 1,
                initialize(context, nil, nil, key, nonce) == 1,
                associatedData.isEmpty
                    || update(context, nil, &produced, associatedData, Int32(associatedData.count)) == 1,
                update(context, &output, &produced, input, Int32(input.count)) == 1
            else { throw .library(openSSLFailure()) }
            let length = Int(produced)
            var tagOut = tag ?? [UInt8](repeating: 0, count: tagBytes)
            if !encrypting {
                guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tagBytes), &tagOut) == 1 else {
                    throw .library(openSSLFailure())
                }
            }
            let finished = output.withUnsafeMutableBufferPointer { buffer in
                (encrypting ? EVP_EncryptFinal_ex : EVP_DecryptFinal_ex)(
                    context, buffer.baseAddress! + length, &produced)
            }
            guard finished == 1 else {
                ERR_clear_error()
                // Nothing of a forged ciphertext leaves this function.
                output.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
                if encrypting { throw .library("the cipher could not finish") }
                throw .notAuthentic
            }
            if encrypting {
                guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagBytes), &tagOut) == 1 else {
                    throw .library(openSSLFailure())
                }
            }
            return (Array(output.prefix(length + Int(produced))), tagOut)
        }
    }
}
