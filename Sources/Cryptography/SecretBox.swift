import CSodium
import Foundation

/// Secret-key encryption (libsodium's secretbox: XSalsa20-Poly1305) for secrets the server must read back,
/// such as app passwords, and the server key file it uses.
extension Crypto {
    /// Bytes of a secretbox key.
    public static let secretBoxKeyBytes = Int(crypto_secretbox_KEYBYTES)

    /// `plaintext` sealed under `key`: a random nonce followed by the ciphertext and its tag.
    public static func seal(_ plaintext: [UInt8], key: [UInt8]) -> [UInt8] {
        precondition(key.count == secretBoxKeyBytes, "a secretbox key is \(secretBoxKeyBytes) bytes")
        _ = randomBytes(0)  // initialises libsodium
        let nonce = randomBytes(Int(crypto_secretbox_NONCEBYTES))
        var sealed = [UInt8](repeating: 0, count: plaintext.count + Int(crypto_secretbox_MACBYTES))
        let result = crypto_secretbox_easy(&sealed, plaintext, UInt64(plaintext.count), nonce, key)
        precondition(result == 0, "crypto_secretbox_easy failed")
        return nonce + sealed
    }

    /// The plaintext of a box from `seal`, or nil when it was not sealed under `key` or was altered.
    public static func unseal(_ box: [UInt8], key: [UInt8]) -> [UInt8]? {
        let nonceBytes = Int(crypto_secretbox_NONCEBYTES)
        let macBytes = Int(crypto_secretbox_MACBYTES)
        guard key.count == secretBoxKeyBytes, box.count >= nonceBytes + macBytes else { return nil }
        _ = randomBytes(0)
        let nonce = Array(box[..<nonceBytes])
        let sealed = Array(box[nonceBytes...])
        var plaintext = [UInt8](repeating: 0, count: sealed.count - macBytes)
        let result = crypto_secretbox_open_easy(&plaintext, sealed, UInt64(sealed.count), nonce, key)
        return result == 0 ? plaintext : nil
    }

    /// The 32-byte key in the file at `path`, created once (random, mode 0600) when it does not exist.
    ///
    /// Two processes starting at once agree: the file is created exclusively and the loser reads it.
    public static func serverKey(at path: String) throws -> [UInt8] {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            let key = randomBytes(secretBoxKeyBytes)
            let written = key.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            let synced = fsync(fd) == 0
            close(fd)
            guard written == key.count, synced else {
                unlink(path)
                throw KeyFileError(path: path, reason: "it could not be written")
            }
            return key
        }
        guard errno == EEXIST else {
            throw KeyFileError(path: path, reason: String(cString: strerror(errno)))
        }
        // Another process may have just created it: wait a moment for its bytes.
        for _ in 0..<50 {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw KeyFileError(path: path, reason: "it cannot be read")
            }
            if data.count == secretBoxKeyBytes { return [UInt8](data) }
            guard data.isEmpty else { break }
            usleep(10_000)
        }
        throw KeyFileError(
            path: path, reason: "it does not hold a \(secretBoxKeyBytes)-byte key (restore it from a backup)")
    }

    /// The server key file could not be made or read.
    public struct KeyFileError: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "The server key \(path) cannot be used: \(reason)." }
    }
}
