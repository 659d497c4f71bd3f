import Foundation
import ServerTestSupport
import Testing

@testable import Cryptography

/// One key pair made by `openssl genpkey`, shared by the suites below.
private let pair = SharedFixture { try await OpenSSLKeyPair.generate() }
private let otherPair = SharedFixture { try await OpenSSLKeyPair.generate() }

@Suite struct RSAKeyTests {
    @Test func everyFormAProviderHandsOutReadsAsTheSameKey() async throws {
        let files = try await pair.value
        let forms = [
            try files.text(files.publicKeyPath), try files.text(files.rsaPublicKeyPath),
            try files.bareBase64(files.publicKeyPath), try files.bareBase64(files.rsaPublicKeyPath),
            // Pasted with Windows line ends and stray spaces.
            try files.text(files.publicKeyPath).replacingOccurrences(of: "\n", with: " \r\n"),
        ]
        let keys = try forms.map { try Crypto.RSAPublicKey(text: $0) }
        #expect(Set(keys).count == 1)
        #expect(keys[0].bits == 2048)
        let privateForms = [
            try files.text(files.privateKeyPath), try files.text(files.rsaPrivateKeyPath),
            try files.bareBase64(files.privateKeyPath), try files.bareBase64(files.rsaPrivateKeyPath),
        ]
        for text in privateForms {
            #expect(try Crypto.RSAPrivateKey(text: text).publicKey == keys[0])
        }
        // What we write back is what openssl wrote.
        #expect(keys[0].pem == (try files.text(files.publicKeyPath)))
        #expect(keys[0].base64Body == (try files.bareBase64(files.publicKeyPath)))
        let other = try await otherPair.value
        #expect(try Crypto.RSAPublicKey(text: other.text(other.publicKeyPath)) != keys[0])
    }

    @Test func signaturesAgreeWithOpenSSLByteForByte() async throws {
        let files = try await pair.value
        let message =
            Array("app_id=2021000000000000&out_trade_no=订单-1&total_amount=88.88".utf8) + [0, 255, 10]
        let privateKey = try Crypto.RSAPrivateKey(text: files.text(files.privateKeyPath))
        let publicKey = try Crypto.RSAPublicKey(text: files.text(files.publicKeyPath))

        let theirs = try await files.sign(message)
        #expect(theirs.count == 256)
        #expect(publicKey.isValidSignature(theirs, of: message))
        // PKCS#1 v1.5 is deterministic: the same key and message give the same bytes.
        let ours = try privateKey.signature(of: message)
        #expect(ours == theirs)
        #expect(try await files.verify(ours, of: message))

        let otherMessage = try privateKey.signature(of: Array("another message".utf8))
        #expect(try await !files.verify(otherMessage, of: message))
        #expect(!publicKey.isValidSignature(otherMessage, of: message))
    }

    @Test func aSignatureFailsForAnyChangeAndForAnotherKey() async throws {
        let files = try await pair.value
        let other = try await otherPair.value
        let message = Array("timestamp\nnonce\n{\"id\":\"EV-1\"}\n".utf8)
        let signature = try await files.sign(message)
        let publicKey = try Crypto.RSAPublicKey(text: files.text(files.publicKeyPath))
        #expect(publicKey.isValidSignature(signature, of: message))

        var flipped = signature
        flipped[100] ^= 1
        #expect(!publicKey.isValidSignature(flipped, of: message))
        var changed = message
        changed[0] ^= 1
        #expect(!publicKey.isValidSignature(signature, of: changed))
        #expect(!publicKey.isValidSignature(Array(signature.dropLast()), of: message))
        #expect(!publicKey.isValidSignature([], of: message))
        #expect(!publicKey.isValidSignature(signature + [0], of: message))
        let stranger = try Crypto.RSAPublicKey(text: other.text(other.publicKeyPath))
        #expect(!stranger.isValidSignature(signature, of: message))
    }

    @Test func aKeyInTheWrongPlaceIsNamedForWhatItIs() async throws {
        let files = try await pair.value
        #expect(throws: Crypto.KeyError.privateKeyInsteadOfPublic) {
            try Crypto.RSAPublicKey(text: files.text(files.privateKeyPath))
        }
        #expect(throws: Crypto.KeyError.privateKeyInsteadOfPublic) {
            try Crypto.RSAPublicKey(text: files.bareBase64(files.rsaPrivateKeyPath))
        }
        #expect(throws: Crypto.KeyError.publicKeyInsteadOfPrivate) {
            try Crypto.RSAPrivateKey(text: files.text(files.publicKeyPath))
        }
        #expect(throws: Crypto.KeyError.publicKeyInsteadOfPrivate) {
            try Crypto.RSAPrivateKey(text: files.bareBase64(files.publicKeyPath))
        }
        #expect(throws: Crypto.KeyError.notPEM(.publicKey)) { try Crypto.RSAPublicKey(text: "my alipay key") }
        #expect(throws: Crypto.KeyError.notPEM(.privateKey)) { try Crypto.RSAPrivateKey(text: "   \n") }
        #expect(throws: Crypto.KeyError.undecodable(.publicKey)) { try Crypto.RSAPublicKey(text: "AAAA") }
        #expect(throws: Crypto.KeyError.unexpectedPEM(label: "EC PARAMETERS", expected: .publicKey)) {
            try Crypto.RSAPublicKey(
                text: "-----BEGIN EC PARAMETERS-----\nBggqhkjOPQMBBw==\n-----END EC PARAMETERS-----")
        }
        let sentence = Crypto.KeyError.privateKeyInsteadOfPublic.description
        #expect(sentence == "The key is a private key, where the other side's public key belongs.")
    }

    @Test func brokenPEMIsRefusedWithWhatIsWrong() throws {
        let cases: [(String, Crypto.KeyError)] = [
            (
                "-----BEGIN PUBLIC KEY-----\nnot base64!\n-----END PUBLIC KEY-----",
                .malformedPEM("the base64 inside its PUBLIC KEY block is broken")
            ),
            (
                "-----BEGIN PUBLIC KEY-----\nMIIB\n",
                .malformedPEM("its BEGIN PUBLIC KEY line has no END line")
            ),
            (
                "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PRIVATE KEY-----",
                .malformedPEM("its BEGIN PUBLIC KEY line ends with END PRIVATE KEY")
            ),
            (
                "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\nMIIB\n"
                    + "-----END RSA PRIVATE KEY-----", .encrypted
            ),
        ]
        for (text, error) in cases {
            #expect(throws: error) { try Crypto.RSAPublicKey(text: text) }
        }
    }

    @Test func encryptedSmallAndNonRSAKeysAreRefused() async throws {
        let folder = temporaryFolder()
        let encrypted = folder + "/encrypted.pem"
        let small = folder + "/small.pem"
        let elliptic = folder + "/ec.pem"
        let edwards = folder + "/ed25519.pem"
        let files = try await pair.value
        try await OpenSSLCommand.run([
            "pkcs8", "-topk8", "-in", files.privateKeyPath, "-v2", "aes-256-cbc", "-passout", "pass:secret",
            "-out",
            encrypted,
        ])
        try await OpenSSLCommand.run([
            "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:1024", "-out", small,
        ])
        try await OpenSSLCommand.run([
            "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", elliptic,
        ])
        try await OpenSSLCommand.run(["genpkey", "-algorithm", "ED25519", "-out", edwards])
        let text = { (path: String) in try String(contentsOfFile: path, encoding: .utf8) }

        #expect(throws: Crypto.KeyError.encrypted) { try Crypto.RSAPrivateKey(text: text(encrypted)) }
        #expect(throws: Crypto.KeyError.unsupportedSize(bits: 1024)) {
            try Crypto.RSAPrivateKey(text: text(small))
        }
        #expect(throws: Crypto.KeyError.notRSA(algorithm: "EC")) {
            try Crypto.RSAPrivateKey(text: text(elliptic))
        }
        #expect(throws: Crypto.KeyError.notRSA(algorithm: "ED25519")) {
            try Crypto.RSAPrivateKey(text: text(edwards))
        }
        #expect(throws: Crypto.KeyError.unsupportedSize(bits: 1024)) {
            try Crypto.RSAPrivateKey.generate(bits: 1024)
        }
    }

    @Test func aGeneratedKeyIsOneOpenSSLReadsAndChecks() async throws {
        let key = try Crypto.RSAPrivateKey.generate()
        #expect(key.publicKey.bits == 2048)
        let pem = try key.pkcs8PEM()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(try Crypto.RSAPrivateKey(text: pem).publicKey == key.publicKey)

        let folder = temporaryFolder()
        try pem.write(toFile: folder + "/private.pem", atomically: true, encoding: .utf8)
        let check = try await OpenSSLCommand.run(["pkey", "-in", folder + "/private.pem", "-check", "-noout"])
        #expect(check.contains("Key is valid"))
        let files = OpenSSLKeyPair(folder: folder)
        try key.publicKey.pem.write(toFile: files.publicKeyPath, atomically: true, encoding: .utf8)
        let message = Array("sandbox notify".utf8)
        #expect(try await files.verify(key.signature(of: message), of: message))
        #expect(try Crypto.RSAPrivateKey.generate().publicKey != key.publicKey)
    }
}

@Suite struct CertificateTests {
    @Test func aCertificateGivesItsSerialValidityAndKeyAsOpenSSLSees() async throws {
        let files = try await pair.value
        for serial in ["5157F09EFDC096DE15EBE81A47057A7232F1B8E1", "0A1B", "7F"] {
            let pem = try await files.certificate(serial: serial, days: 30)
            let certificate = try Crypto.Certificate(text: pem)
            let path = files.folder + "/certificate-\(serial).pem"
            let printed = try await OpenSSLCommand.run(["x509", "-in", path, "-noout", "-serial"])
            #expect(printed == "serial=\(certificate.serialNumber)\n")
            #expect(certificate.serialNumber == serial)
            #expect(certificate.publicKey == (try Crypto.RSAPublicKey(text: files.text(files.publicKeyPath))))
            #expect(try Crypto.RSAPublicKey(text: pem) == certificate.publicKey)

            let now = Date()
            #expect(certificate.isValid(at: now))
            #expect(!certificate.isValid(at: now.addingTimeInterval(31 * 86_400)))
            #expect(!certificate.isValid(at: certificate.notBefore.addingTimeInterval(-1)))
            #expect(abs(certificate.notAfter.timeIntervalSince(certificate.notBefore) - 30 * 86_400) < 2)
        }
    }

    @Test func aListOfCertificatesReadsWhole() async throws {
        let first = try await pair.value.certificate(serial: "01AA", days: 5)
        let second = try await otherPair.value.certificate(serial: "02BB", days: 5)
        let all = try Crypto.Certificate.all(in: "Bag Attributes\n" + first + "\n" + second)
        #expect(all.map(\.serialNumber) == ["01AA", "02BB"])
        #expect(throws: Crypto.KeyError.notPEM(.certificate)) { try Crypto.Certificate.all(in: "") }
        let files = try await pair.value
        #expect(throws: Crypto.KeyError.unexpectedPEM(label: "PUBLIC KEY", expected: .certificate)) {
            try Crypto.Certificate.all(in: first + files.text(files.publicKeyPath))
        }
        #expect(throws: Crypto.KeyError.undecodable(.certificate)) {
            try Crypto.Certificate(
                text: files.text(files.publicKeyPath).replacingOccurrences(
                    of: "PUBLIC KEY", with: "CERTIFICATE"))
        }
    }
}

@Suite struct AESGCMTests {
    // The GCM specification's (McGrew and Viega) test cases 15 and 16: AES-256, 96-bit IV, without and with
    // associated data.
    let key = Crypto.unhex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")!
    let nonce = Crypto.unhex("cafebabefacedbaddecaf888")!
    let plaintext = Crypto.unhex(
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
    )!
    let ciphertext = Crypto.unhex(
        "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad"
    )!
    let associatedData = Crypto.unhex("feedfacedeadbeeffeedfacedeadbeefabaddad2")!

    @Test func thePublishedVectorsSealAndOpen() throws {
        let tag15 = Crypto.unhex("b094dac5d93471bdec1a502270e3cc6c")!
        #expect(try Crypto.AESGCM.seal(plaintext, key: key, nonce: nonce) == ciphertext + tag15)
        #expect(try Crypto.AESGCM.open(ciphertext + tag15, key: key, nonce: nonce) == plaintext)

        let tag16 = Crypto.unhex("76fc6ece0f4e1768cddf8853bb2d551b")!
        let sealed16 = Array(ciphertext.prefix(60)) + tag16
        #expect(
            try Crypto.AESGCM.seal(
                Array(plaintext.prefix(60)), key: key, nonce: nonce, associatedData: associatedData)
                == sealed16)
        #expect(
            try Crypto.AESGCM.open(sealed16, key: key, nonce: nonce, associatedData: associatedData)
                == Array(plaintext.prefix(60)))
    }

    @Test func anythingChangedIsNotAuthentic() throws {
        let sealed = try Crypto.AESGCM.seal(plaintext, key: key, nonce: nonce, associatedData: associatedData)
        let flip = { (bytes: [UInt8], index: Int) in
            var changed = bytes
            changed[index] ^= 0x80
            return changed
        }
        let changes: [(sealed: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8])] = [
            (flip(sealed, sealed.count - 1), key, nonce, associatedData),
            (flip(sealed, 0), key, nonce, associatedData),
            (sealed, flip(key, 31), nonce, associatedData),
            (sealed, key, nonce, []),
            (sealed, key, flip(nonce, 0), associatedData),
        ]
        for change in changes {
            #expect(throws: Crypto.CipherError.notAuthentic) {
                try Crypto.AESGCM.open(
                    change.sealed, key: change.key, nonce: change.nonce, associatedData: change.associatedData
                )
            }
        }
        #expect(throws: Crypto.CipherError.tooShort) {
            try Crypto.AESGCM.open([1, 2, 3], key: key, nonce: nonce)
        }
        #expect(throws: Crypto.CipherError.keySize(16)) {
            try Crypto.AESGCM.open(sealed, key: Array(key.prefix(16)), nonce: nonce)
        }
        #expect(throws: Crypto.CipherError.nonceSize(8)) {
            try Crypto.AESGCM.seal(plaintext, key: key, nonce: Array(nonce.prefix(8)))
        }
        #expect(throws: Crypto.CipherError.nonceSize(0)) {
            try Crypto.AESGCM.open(sealed, key: key, nonce: [])
        }
    }

    @Test func emptyTextsAndWeChatStyleNoncesRoundTrip() throws {
        // WeChat Pay's key is the 32 characters of the APIv3 key, its nonce 12 characters, both as bytes.
        let apiV3Key = Array("0123456789abcdefghijklmnopqrstuv".utf8)
        let wechatNonce = Array("fdasflkja484".utf8)
        for text in [[UInt8](), Array("{\"trade_state\":\"SUCCESS\"}".utf8)] {
            for data in [[UInt8](), Array("transaction".utf8)] {
                let sealed = try Crypto.AESGCM.seal(
                    text, key: apiV3Key, nonce: wechatNonce, associatedData: data)
                #expect(sealed.count == text.count + 16)
                #expect(
                    try Crypto.AESGCM.open(sealed, key: apiV3Key, nonce: wechatNonce, associatedData: data)
                        == text)
            }
        }
    }
}

@Suite struct PEMTests {
    @Test func aBlockWrittenReadsBack() throws {
        let block = Crypto.PEMBlock(label: "PUBLIC KEY", der: Array(0..<200))
        let text = block.text
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 64 })
        #expect(try Crypto.PEMBlock.blocks(in: text) == [block])
        #expect(try Crypto.PEMBlock.blocks(in: "no armour here") == [])
        #expect(Crypto.unbase64(Crypto.base64([1, 2, 3])) == [1, 2, 3])
        #expect(Crypto.unbase64("AQID\n") == nil)
    }
}
