import Foundation
import MusicCore
import PasswordPolicy

/// Checks and normalises what people type: phone numbers, emails, passwords, nicknames, profile fields.
enum AccountRules {
    /// A phone number or an email address, normalised so that one person has one spelling.
    enum Identifier: Equatable, Sendable {
        case phone(String)
        case email(String)

        var value: String {
            switch self {
            case .phone(let v), .email(let v): return v
            }
        }

        var channel: String {
            switch self {
            case .phone: return "sms"
            case .email: return "email"
            }
        }
    }

    /// Exactly one of `phone` and `email`, checked and normalised.
    static func identifier(phone: String?, email: String?) throws -> Identifier {
        let phone = phone?.trimmingCharacters(in: .whitespaces)
        let email = email?.trimmingCharacters(in: .whitespaces)
        switch (phone.flatMap { $0.isEmpty ? nil : $0 }, email.flatMap { $0.isEmpty ? nil : $0 }) {
        case (let phone?, nil): return .phone(try self.phone(phone))
        case (nil, let email?): return .email(try self.email(email))
        case (nil, nil): throw ServiceError.invalid("Enter a phone number or an email address.")
        default: throw ServiceError.invalid("Enter a phone number or an email address, not both.")
        }
    }

    /// E.164-like: an optional `+`, then 7 to 15 digits; spaces, dashes, dots and brackets are dropped.
    static func phone(_ text: String) throws -> String {
        var digits = ""
        for (index, character) in text.enumerated() {
            if character == "+" && index == 0 {
                digits.append("+")
            } else if character.isASCII && character.isNumber {
                digits.append(character)
            } else if !" -.()".contains(character) {
                throw invalidPhone
            }
        }
        let count = digits.filter(\.isNumber).count
        guard (7...15).contains(count), !digits.hasPrefix("+0") else { throw invalidPhone }
        return digits
    }

    static let invalidPhone = ServiceError.invalid(
        "That phone number does not look right: use 7 to 15 digits, optionally starting with + and the country code."
    )
    static let invalidEmail = ServiceError.invalid(
        "That email address does not look right: check it, like name@example.com.")

    /// A plain `local@domain.tld` address, at most 254 characters; stored in lower case.
    static func email(_ text: String) throws -> String {
        let lower = text.lowercased()
        guard lower.utf8.count <= 254 else { throw invalidEmail }
        let parts = lower.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last,
            (1...64).contains(local.utf8.count), !local.hasPrefix("."), !local.hasSuffix("."),
            !local.contains("..")
        else { throw invalidEmail }
        let localAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789.!#$%&'*+/=?^_`{|}~-")
        guard local.allSatisfy({ localAllowed.contains($0) }) else { throw invalidEmail }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { throw invalidEmail }
        let labelAllowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
        for label in labels {
            guard (1...63).contains(label.count), label.allSatisfy({ labelAllowed.contains($0) }),
                !label.hasPrefix("-"), !label.hasSuffix("-")
            else { throw invalidEmail }
        }
        guard labels.last!.count >= 2, !labels.last!.allSatisfy(\.isNumber) else { throw invalidEmail }
        return lower
    }

    /// A new password (sign-up, change, reset; never sign-in) in NFC, when `PasswordPolicy` allows it.
    static func password(_ text: String) throws -> String {
        do {
            return try PasswordPolicy.check(text)
        } catch {
            throw ServiceError.invalid(Self.refusal(error))
        }
    }

    /// Why `PasswordPolicy` refused a password, as a sentence the server can write in the reader's language.
    static func refusal(_ refusal: PasswordPolicy.Refusal) -> LocalizedText {
        switch refusal.kind {
        case .tooLong:
            LocalizedText("A password can be at most \(PasswordPolicy.maximumCharacters) characters.")
        case .invisibleCharacters:
            LocalizedText(
                "A password cannot contain tabs, line breaks or other control or invisible characters "
                    + "(such as zero-width spaces or text-direction marks). Use letters, digits, symbols and spaces."
            )
        case .tooShort:
            LocalizedText(
                "A password needs at least \(PasswordPolicy.minimumVisibleCharacters) characters, not counting "
                    + "spaces and other blank characters.")
        case .sequence:
            LocalizedText(
                "That password is too easy to guess: it is a run of characters, like 12345678 or abcdefgh. "
                    + "Choose another.")
        case .tooFewDifferentCharacters:
            LocalizedText(
                "That password repeats too few different characters: use at least "
                    + "\(PasswordPolicy.minimumDifferentCharacters) different ones.")
        case .common where refusal.common == .serviceName:
            LocalizedText("That password is based on the name of this service. Choose another.")
        case .common where refusal.common == .disguised:
            LocalizedText(
                "That password is too common: read with its look-alike digits and symbols as letters, "
                    + "in plain letters and without what is added around it, it is a common password or a "
                    + "dictionary word. Choose another (a few unrelated words make a strong one).")
        case .common:
            if case .repeated(let part)? = refusal.common {
                LocalizedText(
                    "That password is one part (\"\(part)\") repeated, which is as easy to guess as the part. "
                        + "Choose another.")
            } else {
                LocalizedText(
                    "That password is too common (it is in a list of common passwords and dictionary words, "
                        + "perhaps with a few letters changed). Choose another.")
            }
        }
    }

    /// 1 to 32 characters after trimming (`TextPolicy`); CJK and emoji welcome.
    static func nickname(_ text: String) throws -> (nickname: String, key: String) {
        guard let nickname = try ProfileChange.nicknameText.check(text) else {
            throw ServiceError.invalid("Choose a nickname (1 to 32 characters).")
        }
        return (nickname, nicknameKey(nickname))
    }

    /// The uniqueness key of a nickname: compatibility-normalised (full-width letters fold) and lower-cased.
    static func nicknameKey(_ nickname: String) -> String {
        nickname.precomposedStringWithCompatibilityMapping.lowercased()
    }

    /// 0 unknown, 10 male, 20 female.
    static func gender(_ value: Int) throws -> Int {
        guard [0, 10, 20].contains(value) else {
            throw ServiceError.invalid("'gender' must be 0 (not said), 10 (male) or 20 (female).")
        }
        return value
    }

    /// A real calendar date `yyyy-MM-dd` from 1900 up to `today`.
    static func birthday(_ value: String?, today: Int64) throws -> String? {
        guard let value, !value.isEmpty else { return nil }
        let bad = ServiceError.invalid("'birthday' must be a date like 1995-08-21, not in the future.")
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        guard value.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2,
            parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1900...9999).contains(year), (1...12).contains(month), day >= 1
        else { throw bad }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard day <= days, value <= String(APIDate.string(today).prefix(10)) else { throw bad }
        return value
    }
}
