import CSodium
import Foundation
import Synchronization

extension Crypto {
    /// argon2id costs: libsodium's "interactive" level, 64 MiB of memory and 2 passes.
    public struct PasswordCost: Sendable, Equatable {
        public var operations: UInt64
        public var memoryBytes: Int

        public init(operations: UInt64, memoryBytes: Int) {
            self.operations = operations
            self.memoryBytes = memoryBytes
        }

        public static let standard = PasswordCost(operations: 2, memoryBytes: 64 << 20)
    }

    /// How many argon2id runs (hashing or verifying) may go on at once: one per core.
    public static var maxConcurrentPasswordHashes: Int { passwordHashing.limit }

    /// At most one argon2id run per core at a time, so a burst of sign-ins on many HTTP threads cannot
    /// claim more than that many times 64 MiB; the others wait their turn.
    static let passwordHashing = Gate(limit: max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// Hashes a password with argon2id and a random salt; the result encodes the algorithm, costs and salt.
    public static func hashPassword(_ password: String, cost: PasswordCost = .standard) -> String {
        precondition(ready, "libsodium failed to initialise")
        return passwordHashing.run {
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
    }

    /// True when `password`, as typed or in NFC (the form new passwords are kept in), matches a hash from
    /// `hashPassword`; the comparison takes constant time.
    public static func verifyPassword(_ password: String, hash: String) -> Bool {
        if verifyExactly(password, hash: hash) { return true }
        let normalized = password.precomposedStringWithCanonicalMapping
        return normalized.utf8.elementsEqual(password.utf8) ? false : verifyExactly(normalized, hash: hash)
    }

    private static func verifyExactly(_ password: String, hash: String) -> Bool {
        precondition(ready, "libsodium failed to initialise")
        return passwordHashing.run {
            let length = UInt64(password.utf8.count)
            return password.withCString { text in crypto_pwhash_str_verify(hash, text, length) == 0 }
        }
    }

    /// Lets at most `limit` callers run at once; the others wait. Remembers the most it saw at once.
    final class Gate: Sendable {
        let limit: Int
        private let slots: DispatchSemaphore
        private let counts = Mutex<(running: Int, peak: Int)>((0, 0))

        init(limit: Int) {
            self.limit = limit
            slots = DispatchSemaphore(value: limit)
        }

        /// The most callers that ran at once so far.
        var peak: Int { counts.withLock { $0.peak } }

        func run<T>(_ body: () throws -> T) rethrows -> T {
            slots.wait()
            counts.withLock { counts in
                counts.running += 1
                counts.peak = max(counts.peak, counts.running)
            }
            defer {
                counts.withLock { $0.running -= 1 }
                slots.signal()
            }
            return try body()
        }
    }
}
