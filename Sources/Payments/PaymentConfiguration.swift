import Cryptography
import Foundation

/// Settings a provider cannot start with: one sentence per problem, naming the setting and what to change.
public struct PaymentConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    public var problems: [String]

    public var description: String { problems.joined(separator: " ") }
}

/// Collects what is wrong with a configuration, so a person sees every problem at once.
struct ConfigurationCheck {
    private(set) var problems: [String] = []

    mutating func require(_ condition: Bool, _ sentence: @autoclosure () -> String) {
        if !condition { problems.append(sentence()) }
    }

    mutating func note(_ sentence: String) { problems.append(sentence) }

    /// The value `read` makes from a key setting, or nil with the setting's problem noted ("The Alipay public
    /// key is not a PEM public key ...").
    mutating func read<Value>(_ setting: String, _ read: () throws(Crypto.KeyError) -> Value) -> Value? {
        do {
            return try read()
        } catch {
            problems.append("The \(setting) \(error.phrase).")
            return nil
        }
    }

    /// Notes a problem unless `text` is an absolute URL of `schemes` with a host and no query or fragment.
    mutating func requireURL(_ text: String, setting: String, schemes: Set<String>, example: String) {
        let components = URLComponents(string: text)
        let shown = schemes.sorted().map { "\($0)://" }.joined(separator: " or ")
        require(
            components.map {
                schemes.contains($0.scheme?.lowercased() ?? "") && !($0.host ?? "").isEmpty && $0.query == nil
                    && $0.fragment == nil
            } ?? false,
            "The \(setting) must be a full \(shown) address without a query, such as \(example).")
    }

    /// Throws the problems noted, if any.
    func done() throws(PaymentConfigurationError) {
        if !problems.isEmpty { throw PaymentConfigurationError(problems: problems) }
    }
}

extension String {
    /// Whether every character is an ASCII digit, and there is at least one.
    var isDigits: Bool { !isEmpty && utf8.allSatisfy { (0x30...0x39).contains($0) } }

    /// Whether it is `minimum` to `maximum` characters, each an ASCII letter or digit or one of `extras`.
    func isCode(maximum: Int, minimum: Int = 1, extras: String = "") -> Bool {
        (minimum...maximum).contains(utf8.count)
            && unicodeScalars.allSatisfy {
                ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || extras.unicodeScalars.contains($0)
            }
    }

    /// The text without control characters and without `banned` ones (spaces instead), cut to at most
    /// `maximumBytes` of UTF-8 at a character boundary: a subject a provider takes.
    func subject(maximumBytes: Int, banned: String = "") -> String {
        var out = ""
        for character in self {
            let replaced: Character =
                character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
                    || banned.contains(character) ? " " : character
            guard out.utf8.count + String(replaced).utf8.count <= maximumBytes else { break }
            out.append(replaced)
        }
        let trimmed = out.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? "CloudMusic" : trimmed
    }
}

/// The providers a shop offers: the configured ones, or the sandbox alone when none is.
public struct PaymentProviders: Sendable {
    public let all: [PaymentProviderID: any PaymentProvider]

    /// Every configured provider, checked; with neither Alipay nor WeChat Pay configured, the sandbox (whose key
    /// the caller made at first start and stored).
    public init(
        alipay: AlipayConfiguration?, wechatPay: WeChatPayConfiguration?, sandbox: SandboxConfiguration?
    )
        throws(PaymentConfigurationError)
    {
        var providers: [PaymentProviderID: any PaymentProvider] = [:]
        var problems: [String] = []
        func add(_ make: () throws(PaymentConfigurationError) -> any PaymentProvider) {
            do {
                let provider = try make()
                providers[provider.id] = provider
            } catch {
                problems += error.problems
            }
        }
        if let alipay { add { () throws(PaymentConfigurationError) in try AlipayProvider(alipay) } }
        if let wechatPay { add { () throws(PaymentConfigurationError) in try WeChatPayProvider(wechatPay) } }
        if alipay == nil, wechatPay == nil {
            if let sandbox {
                add { () throws(PaymentConfigurationError) in try SandboxProvider(sandbox) }
            } else {
                problems.append("No payment provider is configured, and no sandbox key was given.")
            }
        }
        guard problems.isEmpty else { throw PaymentConfigurationError(problems: problems) }
        all = providers
    }

    public subscript(id: PaymentProviderID) -> (any PaymentProvider)? { all[id] }
}
