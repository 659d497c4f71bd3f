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
            state = UnsafeMutableRawPointer.allocate(
                byteCount: crypto_generichash_statebytes(), alignment: 64)
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

    /// The SHA-256 of the file at `path` as lowercase hex, read in 1 MiB pieces; nil when it cannot be read.
    static func sha256Hex(ofFileAt path: String) -> String? {
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

    /// `count` cryptographically secure random bytes.
    static func randomBytes(_ count: Int) -> [UInt8] {
        precondition(ready, "libsodium failed to initialise")
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    /// argon2id costs: libsodium's "interactive" level, 64 MiB of memory and 2 passes.
    struct PasswordCost: Sendable, Equatable {
        var operations: UInt64
        var memoryBytes: Int

        static let standard = PasswordCost(operations: 2, memoryBytes: 64 << 20)
    }

    /// At most one argon2id run per core at a time, so a burst of sign-ins on many HTTP threads cannot
    /// claim more than that many times 64 MiB; the others wait their turn.
    private static let hashingSlots = DispatchSemaphore(
        value: max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// Hashes a password with argon2id and a random salt; the result encodes the algorithm, costs and salt.
    static func hashPassword(_ password: String, cost: PasswordCost = .standard) -> String {
        precondition(ready, "libsodium failed to initialise")
        hashingSlots.wait()
        defer { hashingSlots.signal() }
        var output = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
        let length = UInt64(password.utf8.count)
        let result = password.withCString { text in
            crypto_pwhash_str_alg(
                &output, text, length, cost.operations, cost.memoryBytes, crypto_pwhash_alg_argon2id13())
        }
        precondition(result == 0, "argon2id ran out of memory")
        let bytes = output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// True when `password`, as typed or in NFC (the form new passwords are kept in), matches a hash from
    /// `hashPassword`; the comparison takes constant time.
    static func verifyPassword(_ password: String, hash: String) -> Bool {
        if verifyExactly(password, hash: hash) { return true }
        let normalized = password.precomposedStringWithCanonicalMapping
        return normalized.utf8.elementsEqual(password.utf8) ? false : verifyExactly(normalized, hash: hash)
    }

    private static func verifyExactly(_ password: String, hash: String) -> Bool {
        precondition(ready, "libsodium failed to initialise")
        hashingSlots.wait()
        defer { hashingSlots.signal() }
        let length = UInt64(password.utf8.count)
        return password.withCString { text in crypto_pwhash_str_verify(hash, text, length) == 0 }
    }

    /// A 256-bit random token as 64 hex digits (session and chat tokens).
    static func randomToken() -> String { hex(randomBytes(32)) }

    /// What is stored instead of a token: its BLAKE2b-256 digest as hex.
    static func tokenHash(_ token: String) -> String {
        let hasher = Hasher(length: 32)
        hasher.update(Data(token.utf8))
        return hasher.finalizeHex()
    }

    /// A keyed BLAKE2b-256 digest of `text` (verification codes, keyed with a per-code random salt).
    static func keyedHash(_ text: String, key: [UInt8]) -> [UInt8] {
        precondition(ready, "libsodium failed to initialise")
        var digest = [UInt8](repeating: 0, count: 32)
        let input = Array(text.utf8)
        crypto_generichash(&digest, 32, input, UInt64(input.count), key, key.count)
        return digest
    }

    /// Compares two byte strings in time that depends only on their length.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return sodium_memcmp(a, b, a.count) == 0
    }

    /// `count` uniformly random decimal digits (verification codes).
    static func randomDigits(_ count: Int) -> String {
        precondition(ready, "libsodium failed to initialise")
        return String((0..<count).map { _ in Character(String(randombytes_uniform(10))) })
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func unhex(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(chars.count / 2)
        var index = 0
        while index < chars.count {
            guard let high = hexDigit(chars[index]), let low = hexDigit(chars[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x61...0x66: return c - 0x61 + 10
        case 0x41...0x46: return c - 0x41 + 10
        default: return nil
        }
    }
}
