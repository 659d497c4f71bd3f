import Cryptography
import Foundation
import Synchronization

/// Credentials that opened an app password a moment ago, so that the next request with the same ones (an app
/// signing every request with `p`, or with one salt per session) does not unseal and hash every app password
/// of the person again.
///
/// Only which app password matched is remembered, under a keyed BLAKE2b digest of the credentials (a random
/// key per process: nothing here opens anything, and the dictionary's comparisons of digests tell an
/// attacker nothing about a secret). A remembered match is still checked against the database at every
/// request: the app password must still exist (revoking it, or deleting the account, works at once, from
/// any process), and the person is read afresh (disabled, role, name). Only successes are kept, for
/// `lifetime` seconds; at most `capacity` of them.
final class VerifiedCredentials: Sendable {
    private struct Entry {
        var passwordID: Int64
        var expires: Int64
    }

    private let key = Crypto.randomBytes(32)
    private let entries = Mutex<[[UInt8]: Entry]>([:])
    let lifetime: Int64
    let capacity: Int

    init(lifetime: Int64 = 60, capacity: Int = 4_096) {
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// The digest the credentials are remembered under: the kind, the username's key and the secret material.
    func digest(_ credentials: SubsonicCredentials, usernameKey: String) -> [UInt8] {
        let text: String
        switch credentials {
        case .apiKey(let apiKey): text = "k\u{0}\(apiKey)"
        case .password(_, let password): text = "p\u{0}\(usernameKey)\u{0}\(Crypto.hex(password))"
        case .token(_, let token, let salt):
            text = "t\u{0}\(usernameKey)\u{0}\(token.lowercased())\u{0}\(salt)"
        }
        return Crypto.keyedHash(text, key: key)
    }

    /// The app password these credentials matched, if they did less than `lifetime` seconds ago.
    func passwordID(_ digest: [UInt8], now: Int64) -> Int64? {
        entries.withLock { entries in
            guard let entry = entries[digest] else { return nil }
            guard entry.expires > now else {
                entries[digest] = nil
                return nil
            }
            return entry.passwordID
        }
    }

    func remember(_ digest: [UInt8], passwordID: Int64, now: Int64) {
        entries.withLock { entries in
            if entries.count >= capacity && entries[digest] == nil {
                entries = entries.filter { $0.value.expires > now }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[digest] = Entry(passwordID: passwordID, expires: now + lifetime)
        }
    }

    func forget(_ digest: [UInt8]) {
        _ = entries.withLock { $0.removeValue(forKey: digest) }
    }

    /// Forgets every credential that matched `passwordID` (it was revoked).
    func forget(passwordID: Int64) {
        entries.withLock { entries in entries = entries.filter { $0.value.passwordID != passwordID } }
    }

    var count: Int { entries.withLock { $0.count } }
}
