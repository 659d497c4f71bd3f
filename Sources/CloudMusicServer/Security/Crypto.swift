import CSodium
import Foundation

/// libsodium, wrapped once: hashing and randomness for the rest of the server.
enum Crypto {
    private static let ready: Bool = sodium_init() >= 0

    /// Incremental BLAKE2b hashing (fingerprints of files, tokens at rest).
    ///
    /// The state is opaque and 64-byte aligned in C, so it lives in memory this class owns.
    final class Hasher {
        private let state: UnsafeMutableRawPointer
        private let length: Int

        init(length: Int = 16) {
            precondition(Crypto.ready, "libsodium failed to initialise")
            self.length = length
            state = UnsafeMutableRawPointer.allocate(byteCount: crypto_generichash_statebytes(), alignment: 64)
            crypto_generichash_init(OpaquePointer(state), nil, 0, length)
        }

        deinit { state.deallocate() }

        func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            crypto_generichash_update(
                OpaquePointer(state), base.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count))
        }

        func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

        func update<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { update($0) }
        }

    /// The digest as lowercase hex.
        func finalizeHex() -> String {
            var digest = [UInt8](repeating: 0, count: length)
            crypto_generichash_final(OpaquePointer(state), &digest, length)
            return digest.map { String(format: "%02x", $0) }.joined()
        }
    }

    /// `count` cryptographically secure random bytes.
    static func randomBytes(_ count: Int) -> [UInt8] {
        precondition(ready, "libsodium failed to initialise")
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }
}
