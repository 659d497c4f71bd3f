import CSodium
import Foundation

extension Crypto {
    /// Incremental BLAKE2b hashing (fingerprints of files, tokens at rest).
    ///
    /// The state is opaque and 64-byte aligned in C, so it lives in memory this class owns. `length` is
    /// the digest's size in bytes, 1 to 64.
    public final class Hasher {
        private let state: UnsafeMutableRawPointer
        private let length: Int

        public init(length: Int = 16) {
            precondition(Crypto.ready, "libsodium failed to initialise")
            self.length = length
            state = UnsafeMutableRawPointer.allocate(
                byteCount: crypto_generichash_statebytes(), alignment: 64)
            crypto_generichash_init(OpaquePointer(state), nil, 0, length)
        }

        deinit { state.deallocate() }

        public func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            crypto_generichash_update(
                OpaquePointer(state), base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
        }

        public func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

        /// Adds the integer's little-endian bytes.
        public func update<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { update($0) }
        }

        /// The digest as lowercase hex.
        public func finalizeHex() -> String {
            var digest = [UInt8](repeating: 0, count: length)
            crypto_generichash_final(OpaquePointer(state), &digest, length)
            return Crypto.hex(digest)
        }
    }

    /// What is stored instead of a token: its BLAKE2b-256 digest as hex.
    public static func tokenHash(_ token: String) -> String {
        let hasher = Hasher(length: 32)
        hasher.update(Data(token.utf8))
        return hasher.finalizeHex()
    }

    /// A keyed BLAKE2b-256 digest of `text` (verification codes, keyed with a per-code random salt of at
    /// most 64 bytes).
    public static func keyedHash(_ text: String, key: [UInt8]) -> [UInt8] {
        precondition(ready, "libsodium failed to initialise")
        var digest = [UInt8](repeating: 0, count: 32)
        let input = Array(text.utf8)
        crypto_generichash(&digest, 32, input, UInt64(input.count), key, key.count)
        return digest
    }

    /// The SHA-256 of the file at `path` as lowercase hex, read in 1 MiB pieces; nil when it cannot be read.
    public static func sha256Hex(ofFileAt path: String) -> String? {
        precondition(ready, "libsodium failed to initialise")
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var state = crypto_hash_sha256_state()
        crypto_hash_sha256_init(&state)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { break }
            crypto_hash_sha256_update(&state, buffer, UInt64(n))
        }
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        crypto_hash_sha256_final(&state, &digest)
        return hex(digest)
    }
}
