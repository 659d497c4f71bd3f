import Foundation

/// The `openssl` command line, an implementation outside ours: it makes the keys, certificates and signatures
/// the payment code is tested against, and checks the signatures it makes.
public enum OpenSSLCommand {
    public static let path = "/usr/bin/openssl"

    /// Runs openssl to its end; its standard output, or an error with what it wrote to standard error.
    @discardableResult
    public static func run(_ arguments: [String]) async throws -> String {
        let result = await ServerTestSupport.run(path, arguments)
        guard result.termination == .exited(0) else {
            throw FixtureError(
                message:
                    "openssl \(arguments.joined(separator: " ")) \(result.termination): \(result.errorOutput)"
            )
        }
        return result.output
    }
}

/// An RSA key pair made by `openssl genpkey` in its own folder, written in every form a provider hands out.
public struct OpenSSLKeyPair: Sendable {
    public let folder: String

    /// The key pair whose files are (or will be written) in `folder`.
    public init(folder: String) { self.folder = folder }

    /// PKCS#8 "PRIVATE KEY".
    public var privateKeyPath: String { folder + "/private.pem" }
    /// PKCS#1 "RSA PRIVATE KEY".
    public var rsaPrivateKeyPath: String { folder + "/rsa-private.pem" }
    /// SubjectPublicKeyInfo "PUBLIC KEY".
    public var publicKeyPath: String { folder + "/public.pem" }
    /// PKCS#1 "RSA PUBLIC KEY".
    public var rsaPublicKeyPath: String { folder + "/rsa-public.pem" }

    /// Makes a new key pair of `bits` bits in a new temporary folder.
    public static func generate(bits: Int = 2048) async throws -> OpenSSLKeyPair {
        let pair = OpenSSLKeyPair(folder: temporaryFolder())
        try await OpenSSLCommand.run([
            "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:\(bits)", "-out",
            pair.privateKeyPath,
        ])
        try await OpenSSLCommand.run([
            "pkey", "-in", pair.privateKeyPath, "-traditional", "-out", pair.rsaPrivateKeyPath,
        ])
        try await OpenSSLCommand.run([
            "pkey", "-in", pair.privateKeyPath, "-pubout", "-out", pair.publicKeyPath,
        ])
        try await OpenSSLCommand.run([
            "rsa", "-in", pair.privateKeyPath, "-RSAPublicKey_out", "-out", pair.rsaPublicKeyPath,
        ])
        return pair
    }

    /// The text of one of its files.
    public func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// The base64 between a PEM file's armour lines, on one line: how Alipay's open platform shows keys.
    public func bareBase64(_ path: String) throws -> String {
        try text(path).split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    }

    /// A self-signed certificate for this key with `serial` (hex), valid from now for `days` days.
    public func certificate(serial: String, days: Int = 30, commonName: String = "Tenpay.com Root CA")
        async throws -> String
    {
        let path = folder + "/certificate-\(serial).pem"
        try await OpenSSLCommand.run([
            "req", "-x509", "-new", "-key", privateKeyPath, "-subj", "/CN=\(commonName)", "-days", "\(days)",
            "-set_serial", "0x\(serial)", "-out", path,
        ])
        return try text(path)
    }

    /// `openssl dgst -sha256 -sign`: the SHA256withRSA signature of `message`.
    public func sign(_ message: [UInt8]) async throws -> [UInt8] {
        let name = UUID().uuidString
        let messagePath = folder + "/\(name).message"
        let signaturePath = folder + "/\(name).signature"
        try Data(message).write(to: URL(fileURLWithPath: messagePath))
        try await OpenSSLCommand.run([
            "dgst", "-sha256", "-sign", privateKeyPath, "-out", signaturePath, messagePath,
        ])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: signaturePath)))
    }

    /// `openssl dgst -sha256 -verify`: whether `signature` is this key's SHA256withRSA signature of `message`.
    public func verify(_ signature: [UInt8], of message: [UInt8]) async throws -> Bool {
        let name = UUID().uuidString
        let messagePath = folder + "/\(name).message"
        let signaturePath = folder + "/\(name).signature"
        try Data(message).write(to: URL(fileURLWithPath: messagePath))
        try Data(signature).write(to: URL(fileURLWithPath: signaturePath))
        let result = await ServerTestSupport.run(
            OpenSSLCommand.path,
            ["dgst", "-sha256", "-verify", publicKeyPath, "-signature", signaturePath, messagePath])
        return result.termination == .exited(0) && result.output.contains("Verified OK")
    }
}

/// A value made once, by the first test that asks for it (key pairs shared by a suite's tests).
public final class SharedFixture<Value: Sendable>: Sendable {
    private let task: Task<Value, any Error>

    public init(_ make: @escaping @Sendable () async throws -> Value) { task = Task { try await make() } }

    public var value: Value { get async throws { try await task.value } }
}
