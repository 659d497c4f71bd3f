/// The ways a person types an app password: it is shown in groups of four (`abcd-efgh-...`), but phones drop
/// the dashes, capitalise, or put spaces in their place. Every such form means the same password.
enum AppPasswordForms {
    /// The stored form (lower case, dashes every four characters) of what was typed, when it is an app
    /// password in any of its forms; nil otherwise (then it is compared as it was sent).
    static func canonical(_ typed: [UInt8]) -> [UInt8]? {
        var letters: [UInt8] = []
        letters.reserveCapacity(24)
        for byte in typed {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: " "), UInt8(ascii: "_"), UInt8(ascii: "."): continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): letters.append(byte | 0x20)
            default: letters.append(byte)
            }
            if letters.count > 24 { return nil }
        }
        guard letters.count == 24, letters.allSatisfy(alphabet.contains) else { return nil }
        var grouped: [UInt8] = []
        grouped.reserveCapacity(29)
        for (index, byte) in letters.enumerated() {
            if index > 0 && index % 4 == 0 { grouped.append(UInt8(ascii: "-")) }
            grouped.append(byte)
        }
        return grouped
    }

    private static let alphabet = Set(AppPasswordService.alphabet.compactMap(\.asciiValue))

    /// The forms whose `md5(form + salt)` a token may be: a client hashes what the person typed, so the
    /// stored form, without dashes, with spaces, each in lower and upper case.
    static func typedForms(of secret: [UInt8]) -> [[UInt8]] {
        let bare = secret.filter { $0 != UInt8(ascii: "-") }
        let spaced = secret.map { $0 == UInt8(ascii: "-") ? UInt8(ascii: " ") : $0 }
        let lower = [secret, bare, spaced]
        return lower + lower.map { form in form.map { (0x61...0x7A).contains($0) ? $0 & ~0x20 : $0 } }
    }
}
