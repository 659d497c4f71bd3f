import Foundation
import PasswordPolicy
import Testing

private func refusal(_ password: String) -> PasswordPolicy.Refusal? {
    do {
        _ = try PasswordPolicy.check(password)
        return nil
    } catch {
        return error
    }
}

@Suite struct PasswordPolicyTests {
    @Test func cracklibsDictionaryIsInstalled() {
        #expect(PasswordPolicy.dictionaryIsAvailable, "install cracklib-runtime (scripts/install-deps)")
    }

    @Test(arguments: [
        ("8 spaces", String(repeating: " ", count: 8)),
        ("16 spaces", String(repeating: " ", count: 16)),
        ("no-break spaces", String(repeating: "\u{00A0}", count: 8)),
        ("ideographic spaces", String(repeating: "\u{3000}", count: 8)),
        ("Hangul fillers", String(repeating: "\u{3164}", count: 8)),
        ("7 letters and spaces", " Tr0 ub4 d "),
        ("7 CJK characters", "晴天下雨都想你"),
    ])
    func blankPasswordsAreTooShort(_ name: String, _ password: String) {
        let r = refusal(password)
        #expect(r?.kind == .tooShort, "\(name): \(String(describing: r))")
        #expect(r?.message.contains("at least 8 characters") == true)
    }

    @Test(arguments: [
        ("tabs", String(repeating: "\t", count: 8)),
        ("newlines", String(repeating: "\n", count: 8)),
        ("CR LF in a good password", "blue-guitar\r\nriver-7"),
        ("NULs", String(repeating: "\u{0}", count: 8)),
        ("a NUL in a good password", "blue-guitar\u{0}river-7"),
        ("zero-width spaces", String(repeating: "\u{200B}", count: 8)),
        ("a zero-width space in a good password", "blue-guitar\u{200B}river-7"),
        ("right-to-left overrides", String(repeating: "\u{202E}", count: 8)),
        ("a right-to-left override in a good password", "\u{202E}blue-guitar-river-7"),
        ("a byte-order mark", "\u{FEFF}blue-guitar-river-7"),
        ("a soft hyphen", "blue-gui\u{00AD}tar-river-7"),
        ("a line separator", "blue-guitar\u{2028}river-7"),
        ("DEL", "blue-guitar\u{7F}river-7"),
        ("a zero-width joiner between letters", "blue\u{200D}guitar-river-7"),
    ])
    func controlAndInvisibleCharactersAreRefused(_ name: String, _ password: String) {
        let r = refusal(password)
        #expect(r?.kind == .invisibleCharacters, "\(name): \(String(describing: r))")
        #expect(r?.message.contains("invisible characters") == true)
    }

    @Test(arguments: [
        "password", "Password", "password1", "passw0rd", "iloveyou", "qwertyuiop", "sunshine", "football",
        "trustno1", "letmein!", "monkey123", "drowssap",
    ])
    func commonPasswordsAreRefused(_ password: String) {
        let r = refusal(password)
        #expect(r?.kind == .common, "\(password): \(String(describing: r))")
        #expect(r?.message.hasPrefix("That password is too common") == true)
        #expect(r?.message.hasSuffix("Choose another.") == true)
    }

    /// Common passwords in disguise: look-alike digits and symbols, full-width letters, what is added around
    /// them, repetition; each refused with a sentence that says what to do.
    @Test(arguments: [
        "p@ssw0rd", "Passw0rd!", "ＰＡＳＳＷＯＲＤ", "passwordpassword", "PASSWORD", "P@55w0rd123", "!!password!!",
        "m0nk3y123", "l3tm31n!", "sunsh1ne", "f00tb@ll", "qwertyqwerty", "dragon-dragon", "iloveyouiloveyou",
        "Tr0ub4dor&3",  // xkcd 936's example: "troubador" with look-alikes and a digit added
    ])
    func disguisedCommonPasswordsAreRefused(_ password: String) {
        let r = refusal(password)
        #expect(r?.kind == .common, "\(password): \(String(describing: r))")
        #expect(
            r?.message.hasSuffix("Choose another.") == true || r?.message.contains("Choose another") == true)
    }

    @Test func aStrongPartRepeatedIsNotRefusedForTheRepetition() {
        #expect(refusal("Xk9#mQ2!vLpXk9#mQ2!vLp") == nil)
        #expect(refusal("dragondragon")?.message.contains("repeated") == true)
        #expect(refusal("dragondragon")?.common == .repeated(part: "dragon"))
    }

    @Test func theServicesNameIsRefused() {
        #expect(
            refusal("cloudmusic")?.message
                == "That password is based on the name of this service. Choose another.")
        #expect(refusal("CloudMusic1")?.kind == .common)
        #expect(refusal("cloudmusic")?.common == .serviceName)
    }

    @Test(arguments: [
        "12345678", "123456789", "87654321", "abcdefgh", "ABCDEFGH", "abcd1234", "1234 5678", "12233445",
    ])
    func runsAreRefused(_ password: String) {
        let r = refusal(password)
        #expect(r?.kind == .sequence, "\(password): \(String(describing: r))")
    }

    @Test(arguments: ["aaaaaaaa", "abababab", "11111111", "aAaAaAaA", "爱爱爱爱爱爱爱爱", "我爱你我爱你我爱", "🎵🎵🎵🎵🎵🎵🎵🎵"])
    func tooFewDifferentCharactersAreRefused(_ password: String) {
        let r = refusal(password)
        #expect(r?.kind == .tooFewDifferentCharacters, "\(password): \(String(describing: r))")
    }

    @Test func tooLongIsRefused() {
        #expect(refusal(String(repeating: "blue-guitar ", count: 11))?.kind == .tooLong)  // 132 characters
        #expect(refusal(String(repeating: "长", count: 129))?.kind == .tooLong)
    }

    @Test(arguments: [
        "我爱听周杰伦的歌",  // CJK
        "🎵🎶🎸🎹🎺🎻🥁🎤",  // emoji
        "👩‍💻👨‍👩‍👧🏳️‍🌈🏴󠁧󠁢󠁳󠁣󠁴󠁿🎸🎹🥁🎤",  // emoji joined with ZWJ and tag characters
        "correct horse battery staple",
        "correct horse battery staple, and a long passphrase with punctuation: it sings on!",
        "Pässwörter sind toll",
        "blue-guitar-river-7",
        "hijack garners lampoon",  // cracklib's "simplistic/systematic" would refuse this one
        "Xk9#mQ2!vLp",
        "パスワードは秘密です",
        "  spaces around are kept  ",
    ])
    func goodPasswordsAreAccepted(_ password: String) {
        let r = refusal(password)
        #expect(r == nil, "\(password): \(String(describing: r))")
    }

    @Test func passwordsAreNormalisedToNFC() throws {
        let decomposed = "Pa\u{0308}sswo\u{0308}rter sind toll"
        let composed = "P\u{00E4}sswo\u{0308}rter sind toll".precomposedStringWithCanonicalMapping
        let checked = try PasswordPolicy.check(decomposed)
        #expect(Array(checked.utf8) == Array(composed.utf8))
        #expect(checked.unicodeScalars.count == decomposed.unicodeScalars.count - 2)
        // Spaces are kept as typed: they are part of the password.
        #expect(try PasswordPolicy.check("  spaces around are kept  ") == "  spaces around are kept  ")
    }

    @Test func cracklibVerdictsThatDoNotCountAreIgnored() {
        // "it is too simplistic/systematic": random passphrases that contain neighbouring letters.
        #expect(PasswordPolicy.dictionaryRefusal("hijack garners lampoon") == nil)
        #expect(PasswordPolicy.dictionaryRefusal("Fgh7Kl%q9xyz") == nil)
        // A British National Insurance number pattern.
        #expect(PasswordPolicy.dictionaryRefusal("ab123456c") == nil)
        #expect(PasswordPolicy.dictionaryRefusal("password")?.kind == .common)
    }
}
