import CSodium
import Foundation

/// libsodium, wrapped once: the only module that imports CSodium.
///
/// Randomness, constant-time comparison and hex live here; hashing (BLAKE2b, SHA-256) and passwords
/// (argon2id) in the extensions beside this file. A new primitive (e.g. `crypto_secretbox` for secrets the
/// server must read back) is one more extension file here, so no feature module ever touches C.
public enum Crypto {
    /// Whether libsodium initialised; every entry point checks it before calling into C.
    static let ready: Bool = sodium_init() >= 0

    /// `count` cryptographically secure random bytes.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        precondition(ready, "libsodium failed to initialise")
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    /// A 256-bit random token as 64 hex digits (session and chat tokens).
    public static func randomToken() -> String { hex(randomBytes(32)) }

    /// `count` uniformly random decimal digits (verification codes).
    public static func randomDigits(_ count: Int) -> String {
        precondition(ready, "libsodium failed to initialise")
        return String((0..<count).map { _ in Character(String(randombytes_uniform(10))) })
    }

    /// Compares two byte strings in time that depends only on their length.
    public static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        precondition(ready, "libsodium failed to initialise")
        return sodium_memcmp(a, b, a.count) == 0
    }

    /// Lowercase hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of hex text in either case; nil for an odd length or a character that is not a hex digit.
    public static func unhex(_ text: String) -> [UInt8]? {
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
