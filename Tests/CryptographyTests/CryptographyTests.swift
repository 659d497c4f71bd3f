import Foundation
import Testing

@testable import Cryptography

/// A cheap argon2id cost, for tests that hash many times (libsodium's minimum is 1 pass over 8 KiB).
private let cheap = Crypto.PasswordCost(operations: 1, memoryBytes: 64 << 10)

@Suite struct PasswordHashingTests {
    @Test func passwordsAreArgon2idAtSixtyFourMebibytesAndTwoPasses() {
        let hash = Crypto.hashPassword("correct horse")
        #expect(hash.hasPrefix("$argon2id$v=19$m=65536,t=2,p=1$"))
        #expect(Crypto.verifyPassword("correct horse", hash: hash))
        #expect(!Crypto.verifyPassword("correct horsE", hash: hash))
        #expect(!Crypto.verifyPassword("", hash: hash))
    }

    @Test func theCostIsWrittenIntoTheHashAndEachHashHasItsOwnSalt() {
        let first = Crypto.hashPassword("correct horse", cost: cheap)
        let second = Crypto.hashPassword("correct horse", cost: cheap)
        #expect(first.hasPrefix("$argon2id$v=19$m=64,t=1,p=1$"))
        #expect(first != second)
        #expect(Crypto.verifyPassword("correct horse", hash: first))
        #expect(Crypto.verifyPassword("correct horse", hash: second))
    }

    @Test func aPasswordTypedInAnotherUnicodeFormStillMatches() {
        // New passwords are kept in NFC; a keyboard may send the decomposed form.
        let composed = "caf\u{E9} au lait"
        let decomposed = "cafe\u{301} au lait"
        #expect(!composed.utf8.elementsEqual(decomposed.utf8))
        let hash = Crypto.hashPassword(composed, cost: cheap)
        #expect(Crypto.verifyPassword(composed, hash: hash))
        #expect(Crypto.verifyPassword(decomposed, hash: hash))
        #expect(!Crypto.verifyPassword("cafe au lait", hash: hash))
        // A hash of the exact bytes typed (made before passwords were normalised) matches as typed.
        let legacy = Crypto.hashPassword(decomposed, cost: cheap)
        #expect(Crypto.verifyPassword(decomposed, hash: legacy))
    }

    @Test func somethingThatIsNotAHashNeverMatches() {
        #expect(!Crypto.verifyPassword("correct horse", hash: ""))
        #expect(!Crypto.verifyPassword("correct horse", hash: "$argon2id$v=19$m=64,t=1,p=1$bm9wZQ$bm9wZQ"))
        #expect(!Crypto.verifyPassword("correct horse", hash: Crypto.tokenHash("correct horse")))
    }

    @Test func atMostOneHashPerCoreRunsAtOnce() async {
        let limit = Crypto.maxConcurrentPasswordHashes
        #expect(limit == max(1, ProcessInfo.processInfo.activeProcessorCount))
        let hashes = await withTaskGroup(of: String.self) { group in
            for index in 0..<(limit * 3 + 2) {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        Thread {
                            continuation.resume(
                                returning: Crypto.hashPassword("password \(index)", cost: cheap))
                        }
                        .start()
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(hashes.count == limit * 3 + 2)
        #expect(Crypto.passwordHashing.peak <= limit)
    }

    @Test func theGateLetsThroughNoMoreThanItsLimit() {
        let gate = Crypto.Gate(limit: 2)
        let threads = 8
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<threads {
            Thread {
                gate.run { _ = usleep(20_000) }
                finished.signal()
            }.start()
        }
        for _ in 0..<threads { finished.wait() }
        #expect(gate.peak >= 1)
        #expect(gate.peak <= 2)
    }
}

@Suite struct DigestTests {
    @Test func tokenHashesAreBLAKE2b256() {
        // The BLAKE2b-256 of "abc" (RFC 7693's test input, at a 32-byte output).
        #expect(Crypto.tokenHash("abc") == "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319")
        #expect(Crypto.tokenHash("abc").count == 64)
        #expect(Crypto.tokenHash("abd") != Crypto.tokenHash("abc"))
    }

    @Test func theHasherDigestsInPiecesAsInOne() {
        let whole = Crypto.Hasher(length: 32)
        whole.update(Data("hello world".utf8))
        let pieces = Crypto.Hasher(length: 32)
        pieces.update(Data("hello ".utf8))
        pieces.update(Data())
        pieces.update(Data("world".utf8))
        #expect(whole.finalizeHex() == pieces.finalizeHex())
        for length in [12, 16, 32, 64] {
            let hasher = Crypto.Hasher(length: length)
            hasher.update(UInt64(42))
            #expect(hasher.finalizeHex().count == length * 2)
        }
        let little = Crypto.Hasher()
        little.update(UInt16(0x0102))
        let bytes = Crypto.Hasher()
        bytes.update(Data([0x02, 0x01]))
        #expect(little.finalizeHex() == bytes.finalizeHex(), "integers are hashed little-endian")
    }

    @Test func keyedHashesDependOnTheKey() {
        let key = Crypto.randomBytes(16)
        let digest = Crypto.keyedHash("login\nann@example.com\n123456", key: key)
        #expect(digest.count == 32)
        #expect(Crypto.keyedHash("login\nann@example.com\n123456", key: key) == digest)
        #expect(Crypto.keyedHash("login\nann@example.com\n123456", key: Crypto.randomBytes(16)) != digest)
        #expect(Crypto.keyedHash("login\nann@example.com\n123457", key: key) != digest)
    }

    @Test func filesAreHashedWithSHA256() throws {
        let path = NSTemporaryDirectory() + "crypto-\(UUID().uuidString)"
        defer { unlink(path) }
        try Data("abc".utf8).write(to: URL(fileURLWithPath: path))
        #expect(
            Crypto.sha256Hex(ofFileAt: path)
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Crypto.sha256Hex(ofFileAt: path + ".missing") == nil)
    }
}

@Suite struct RandomnessAndComparisonTests {
    @Test func comparisonsAreExact() {
        #expect(Crypto.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!Crypto.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!Crypto.constantTimeEqual([1, 2, 3], [1, 2]))
        #expect(Crypto.constantTimeEqual([], []))
    }

    @Test func randomValuesHaveTheirShape() {
        #expect(Crypto.randomBytes(16).count == 16)
        #expect(Crypto.randomBytes(32) != Crypto.randomBytes(32))
        let token = Crypto.randomToken()
        #expect(token.count == 64 && Crypto.unhex(token)?.count == 32)
        let digits = Crypto.randomDigits(6)
        #expect(digits.count == 6 && digits.allSatisfy { $0.isASCII && $0.isNumber })
        // Every digit turns up among many codes (a uniform draw misses one with odds of about 10 * 0.9^600).
        let seen = Set((0..<100).flatMap { _ in Crypto.randomDigits(6) })
        #expect(seen.count == 10)
    }

    @Test func hexRoundTripsAndRefusesWhatIsNotHex() {
        #expect(Crypto.hex([0x00, 0x0f, 0xa5, 0xff]) == "000fa5ff")
        #expect(Crypto.unhex("000fa5ff") == [0x00, 0x0f, 0xa5, 0xff])
        #expect(Crypto.unhex("000FA5FF") == [0x00, 0x0f, 0xa5, 0xff])
        #expect(Crypto.unhex("abc") == nil)
        #expect(Crypto.unhex("zz") == nil)
        #expect(Crypto.unhex("") == [])
    }
}
