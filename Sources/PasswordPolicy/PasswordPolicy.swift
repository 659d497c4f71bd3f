import CCrack
import Foundation
import Synchronization

/// The rules a new password must meet (at sign-up, password change and reset; never at sign-in, so that
/// existing passwords keep working).
///
/// A password is normalised to NFC, so that the same characters typed on different systems are the same
/// password. It may not contain control or format characters (tabs, line breaks, NUL, zero-width spaces,
/// text-direction overrides), except the joiners inside an emoji; it needs at least 8 visible characters
/// (spaces and other blank characters don't count), 5 different ones, and may not be one run like
/// `12345678`; and cracklib, the dictionary PAM uses, must not find it to be a common password or a
/// dictionary word (see `dictionaryRefusal(_:)` for which of cracklib's verdicts count).
public enum PasswordPolicy {
    public static let minimumVisibleCharacters = 8
    public static let minimumDifferentCharacters = 5
    public static let maximumCharacters = 128

    /// Why a password is refused; `message` tells a person what to change.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            case tooLong, invisibleCharacters, tooShort, tooFewDifferentCharacters, sequence, common
        }

        /// Why a password is `common`, for a caller that words the refusal itself (another language).
        public enum Common: Sendable, Equatable {
            /// In cracklib's list of common passwords and dictionary words.
            case listed
            /// Based on the service's own name.
            case serviceName
            /// A listed one in disguise: look-alike digits and symbols, full-width letters, what is added around.
            case disguised
            /// One weak part repeated.
            case repeated(part: String)
        }

        public let kind: Kind
        public let message: String
        /// Set when `kind` is `common`.
        public var common: Common? = nil

        public var description: String { message }
    }

    /// `password` in NFC when it may be used as a new password; throws a `Refusal` otherwise.
    public static func check(_ password: String) throws(Refusal) -> String {
        let password = password.precomposedStringWithCanonicalMapping
        guard password.count <= maximumCharacters, password.utf8.count <= maximumCharacters * 8 else {
            throw Refusal(
                kind: .tooLong, message: "A password can be at most \(maximumCharacters) characters.")
        }
        var visible: [Character] = []
        for character in password {
            guard allowed(character) else {
                throw Refusal(
                    kind: .invisibleCharacters,
                    message:
                        "A password cannot contain tabs, line breaks or other control or invisible characters "
                        + "(such as zero-width spaces or text-direction marks). Use letters, digits, symbols and spaces."
                )
            }
            if isVisible(character) { visible.append(character) }
        }
        guard visible.count >= minimumVisibleCharacters else {
            throw Refusal(
                kind: .tooShort,
                message:
                    "A password needs at least \(minimumVisibleCharacters) characters, not counting spaces "
                    + "and other blank characters.")
        }
        guard Set(visible).count >= minimumDifferentCharacters else {
            throw tooFewDifferent
        }
        if isOneRun(visible) {
            throw Refusal(
                kind: .sequence,
                message:
                    "That password is too easy to guess: it is a run of characters, like 12345678 or abcdefgh. "
                    + "Choose another.")
        }
        if let refusal = dictionaryRefusal(password) { throw refusal }
        if let refusal = disguisedRefusal(password) { throw refusal }
        return password
    }

    /// The password as people disguise a common one, each form checked against the dictionary: compatibility-
    /// normalised and case-folded (`ＰＡＳＳＷＯＲＤ` is `password`), without the digits and symbols around it
    /// (`Passw0rd!`), with look-alike digits and symbols read as letters (`p@ssw0rd`), and one part repeated
    /// (`passwordpassword`), as cracklib's own rules do for the simpler cases.
    static func disguisedRefusal(_ password: String) -> Refusal? {
        let folded = password.precomposedStringWithCompatibilityMapping.lowercased()
        var forms: [String] = []
        for form in [folded, unLeet(folded, one: "i"), unLeet(folded, one: "l")] {
            forms += [form, trimmedOfDigitsAndSymbols(form)]
        }
        // Repeats are looked for with the separators between them taken out too (`dragon-dragon`).
        for form in forms + forms.map({ String($0.filter { $0.isLetter || $0.isNumber }) })
        where form.count >= 4 {
            if let unit = repeatedUnit(form),
                unit.count < minimumVisibleCharacters
                    || cracklibVerdict(unit)?.contains("dictionary word") == true
            {
                return Refusal(
                    kind: .common,
                    message:
                        "That password is one part (\"\(unit)\") repeated, which is as easy to guess as the part. "
                        + "Choose another.",
                    common: .repeated(part: unit))
            }
        }
        var seen: Set<String> = [password]
        for form in forms where form.count >= 4 && seen.insert(form).inserted {
            if let verdict = cracklibVerdict(form), verdict.contains("dictionary word") {
                return Refusal(
                    kind: .common,
                    message:
                        "That password is too common: read with its look-alike digits and symbols as letters, "
                        + "in plain letters and without what is added around it, it is a common password or a "
                        + "dictionary word. Choose another (a few unrelated words make a strong one).",
                    common: .disguised)
            }
        }
        return nil
    }

    /// Digits and symbols people put for the letters they look like.
    private static func unLeet(_ text: String, one: Character) -> String {
        let table: [Character: Character] = [
            "@": "a", "4": "a", "8": "b", "(": "c", "3": "e", "6": "g", "9": "g", "!": "i", "1": one,
            "|": "l",
            "0": "o", "$": "s", "5": "s", "7": "t", "+": "t", "2": "z",
        ]
        return String(text.map { table[$0] ?? $0 })
    }

    /// `text` without the digits, symbols and spaces at its ends (`passw0rd!` is `passw0rd`).
    private static func trimmedOfDigitsAndSymbols(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { $0.properties.isAlphabetic }) else { return "" }
        let last = scalars.lastIndex(where: { $0.properties.isAlphabetic })!
        return String(scalars[first...last])
    }

    /// The part `text` repeats, when it is one part written two or more times (`passwordpassword`).
    private static func repeatedUnit(_ text: String) -> String? {
        let characters = Array(text)
        let count = characters.count
        for length in 1...max(1, count / 2) where count % length == 0 {
            let unit = characters[0..<length]
            if stride(from: length, to: count, by: length).allSatisfy({
                characters[$0..<($0 + length)].elementsEqual(unit)
            }) {
                return String(unit)
            }
        }
        return nil
    }

    /// Cracklib's verdict on `password`, when it is one that counts.
    ///
    /// Counted: "based on a (reversed) dictionary word" (cracklib's list holds common passwords as well as
    /// words, and it tries them with the usual changes: capitals, digits, symbols for letters), "does not
    /// contain enough DIFFERENT characters", and "based on your username", with "cloudmusic" as the name.
    /// Ignored: "too simplistic/systematic", which also refuses about 1 in 60 random passphrases of common
    /// words (it counts neighbouring letters such as "st" or "no" anywhere; `check` refuses real runs
    /// itself); "too short" and "all whitespace", which count bytes (`check` counts visible characters);
    /// "looks like a National Insurance number", a British pattern; and "error loading dictionary" (the other
    /// rules still hold; `dictionaryIsAvailable` tells).
    public static func dictionaryRefusal(_ password: String) -> Refusal? {
        guard let verdict = cracklibVerdict(password) else { return nil }
        if verdict.contains("username") {
            return Refusal(
                kind: .common, message: "That password is based on the name of this service. Choose another.",
                common: .serviceName)
        }
        if verdict.contains("dictionary word") {
            return Refusal(
                kind: .common,
                message:
                    "That password is too common (it is in a list of common passwords and dictionary words, "
                    + "perhaps with a few letters changed). Choose another.",
                common: .listed)
        }
        if verdict.contains("DIFFERENT characters") { return tooFewDifferent }
        return nil
    }

    /// Whether cracklib's dictionary can be read (from the `cracklib-runtime` package).
    public static var dictionaryIsAvailable: Bool {
        cracklibVerdict("password").map { !$0.contains("error loading dictionary") } ?? true
    }

    private static let tooFewDifferent = Refusal(
        kind: .tooFewDifferentCharacters,
        message:
            "That password repeats too few different characters: use at least \(minimumDifferentCharacters) "
            + "different ones.")

    /// Cracklib keeps its open dictionary in static variables: one call at a time.
    private static let cracklib = Mutex(())

    private static func cracklibVerdict(_ password: String) -> String? {
        cracklib.withLock { _ in
            // With a user name of our own, cracklib compares the password with that instead of with the
            // server's account (the user it runs as).
            FascistCheckUser(password, GetDefaultCracklibDict(), "cloudmusic", nil).map {
                String(cString: $0)
            }
        }
    }

    /// False for control characters, line and paragraph separators, and format characters other than the
    /// zero-width joiner and tag characters inside an emoji (as in a family or a flag emoji).
    private static func allowed(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        let emoji = scalars.first.map { !$0.isASCII && $0.properties.isEmoji } ?? false
        for scalar in scalars {
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator:
                return false
            case .format:
                let emojiGlue = scalar.value == 0x200D || (0xE0020...0xE007F).contains(scalar.value)
                if !(emoji && emojiGlue) { return false }
            default:
                break
            }
        }
        return true
    }

    /// True when some scalar of `character` is neither white space nor ignorable by default (like a Hangul
    /// filler), that is, when it shows.
    private static func isVisible(_ character: Character) -> Bool {
        character.unicodeScalars.contains { scalar in
            !scalar.properties.isWhitespace && !scalar.properties.isDefaultIgnorableCodePoint
        }
    }

    /// True when, ignoring case, each character is the one before it, or the next or previous in Unicode,
    /// but for at most one jump: `12345678`, `87654321`, `abcd1234`, `11223344`.
    private static func isOneRun(_ visible: [Character]) -> Bool {
        let values = visible.map { $0.lowercased().unicodeScalars.first?.value ?? 0 }
        var jumps = 0
        for i in 1..<values.count {
            let step = Int64(values[i]) - Int64(values[i - 1])
            if abs(step) > 1 { jumps += 1 }
        }
        return jumps <= 1
    }
}
