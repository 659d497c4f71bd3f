import Foundation
import MusicCore
import Testing

/// The server's sentences in the reader's language: which language a request gets, how a template is filled,
/// and the Chinese table held to the code (every template in Sources has an entry, every entry a user).
@Suite("Localization")
struct LocalizationTests {
    @Test(
        "Accept-Language picks a language",
        arguments: [
            (nil, Language.english), ("", .english), ("zh-CN", .chinese), ("zh", .chinese),
            ("zh-Hans-CN", .chinese),
            ("zh-TW", .chinese), ("zh-HK,zh;q=0.9", .chinese), ("en-US,en;q=0.9,zh-CN;q=0.8", .english),
            ("zh-CN;q=0.5, en;q=0.9", .english), ("en;q=0.1, zh;q=0.2", .chinese),
            ("fr-FR, de;q=0.9", .english),
            ("fr-FR, zh;q=0.5", .chinese), ("zh;q=0, en", .english), ("*", .english), ("ZH-cn", .chinese),
            ("zh;q=abc, en;q=0.5", .english), (",;,;q=,", .english),
        ] as [(String?, Language)])
    func acceptLanguage(header: String?, expected: Language) {
        #expect(Language.preferred(by: header) == expected)
    }

    @Test func aTemplateKeepsItsArgumentsAndRendersInEitherLanguage() {
        let name = "size"
        let text: LocalizedText = "'\(name)' must be a whole number from \(1) to \(100)."
        #expect(text.template == "'%@' must be a whole number from %@ to %@.")
        #expect(text.description == "'size' must be a whole number from 1 to 100.")
        #expect(text.rendered(in: .chinese) == "“size”必须是 1 到 100 之间的整数。")
    }

    @Test func translationsMayReorderOrLeaveOutArgumentsAndPercentSignsSurvive() {
        let refusal: LocalizedText = "Send at most \(3) ids in '\("songIds")'."
        #expect(refusal.rendered(in: .chinese) == "“songIds”里最多放 3 个 id。")
        let hundred: LocalizedText = "100% of \("it")"
        #expect(hundred.template == "100%% of %@")
        #expect(hundred.description == "100% of it")
        #expect(hundred.rendered(in: .chinese) == "100% of it", "a template without an entry stays English")
        let arguments: LocalizedText = "\("%@ and %1$@") stays as typed"
        #expect(arguments.description == "%@ and %1$@ stays as typed")
    }

    @Test func wordsAndNestedSentencesAreTranslatedToo() {
        let thing = "song"
        let missing: LocalizedText = "That \(word: thing) does not exist."
        #expect(missing.description == "That song does not exist.")
        #expect(missing.rendered(in: .chinese) == "歌曲不存在。")
        let wait: LocalizedText = "Too many failed sign-ins. Try again in \(LocalizedText("\(30) seconds"))."
        #expect(wait.description == "Too many failed sign-ins. Try again in 30 seconds.")
        #expect(wait.rendered(in: .chinese) == "登录失败次数太多，请 30 秒后再试。")
        let joined: LocalizedText =
            "A code was just sent. " + "You can ask for another in \(LocalizedText("1 second"))."
        #expect(joined.template == "A code was just sent. You can ask for another in %@.")
        #expect(joined.rendered(in: .chinese) == "验证码刚刚已发送，1 秒后可以再次获取。")
    }

    @Test func aServiceErrorKeepsItsEnglishMessageAndStatus() {
        let error = ServiceError.invalid("'\("page")' must be true or false.")
        #expect(error.message == "'page' must be true or false.")
        #expect(error.message(in: .chinese) == "“page”必须是 true 或 false。")
        #expect(error.kind.httpStatus == 400)
    }

    @Test func everyTemplateInTheCodeHasAChineseEntryAndEveryEntryIsUsed() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        var templates: [String: String] = [:]
        var literals = Set<String>()
        var fields = Set<String>()
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter {
                $0.pathExtension == "swift" && !$0.path.contains("/Localization/")
            }
        #expect(files.count > 100)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for found in TemplateScanner.templates(in: text) {
                templates[found.template] = "\(file.lastPathComponent):\(found.line)"
            }
            literals.formUnion(TemplateScanner.literals(in: text))
            fields.formUnion(TemplateScanner.fields(in: text))
        }
        #expect(templates.count > 200, "the scanner finds the server's sentences")
        let table = Language.chinese.sentences
        let missing = templates.filter { table[$0.key] == nil }.map { "\($0.value): \($0.key)" }.sorted()
        #expect(missing.isEmpty, "sentences without a Chinese entry:\n\(missing.joined(separator: "\n"))")
        let unused = table.keys.filter { templates[$0] == nil }.sorted()
        #expect(unused.isEmpty, "Chinese entries no code uses:\n\(unused.joined(separator: "\n"))")
        #expect(fields.count > 10, "the scanner finds the written fields' labels")
        let unnamed = fields.filter { Language.chinese.words[$0] == nil }.sorted()
        #expect(unnamed.isEmpty, "field labels without a Chinese word: \(unnamed)")
        let unusedWords = Language.chinese.words.keys.filter { !literals.contains($0) }.sorted()
        #expect(unusedWords.isEmpty, "words no code names: \(unusedWords)")
        for (template, translation) in table {
            let placeholders = template.components(separatedBy: "%@").count - 1
            for position in 1...max(1, placeholders + 1) where translation.contains("%\(position)$@") {
                #expect(position <= placeholders, "\(template): %\(position)$@ has no argument")
            }
            let sequential = translation.components(separatedBy: "%@").count - 1
            #expect(sequential <= placeholders, "\(template): more %@ than arguments")
        }
    }
}

/// Finds the sentences of the code: the string literals given to `ServiceError`'s constructors and to
/// `LocalizedText(...)`, as templates (each interpolation `%@`, `%` as `%%`, literals joined by `+`).
enum TemplateScanner {
    static let constructors = [
        "ServiceError.invalid(", "ServiceError.unauthenticated(", "ServiceError.forbidden(",
        "ServiceError.notFound(",
        "ServiceError.conflict(", "ServiceError.tooLarge(", "ServiceError.unsupportedFormat(",
        "ServiceError.rateLimited(", "ServiceError.unavailable(", "ServiceError.serverFault(",
        "LocalizedText(",
        // The HTTP layer's own sentences, which the server's renderer writes through the same table.
        "HTTPError.badRequest(", "HTTPError.unauthorized(", "HTTPError.forbidden(", "HTTPError.notFound(",
        "HTTPError.conflict(", "HTTPError.tooLarge(", "HTTPError.unsupportedMediaType(",
        "HTTPError.tooManyRequests(", "HTTPErrorText(",
    ]

    static func templates(in text: String) -> [(template: String, line: Int)] {
        let chars = Array(text.unicodeScalars)
        var found: [(String, Int)] = []
        for constructor in constructors {
            let needle = Array(constructor.unicodeScalars)
            var i = 0
            while i + needle.count <= chars.count {
                guard chars[i..<(i + needle.count)].elementsEqual(needle) else {
                    i += 1
                    continue
                }
                var j = i + needle.count
                if let template = chain(chars, &j) {
                    found.append((template, chars[..<i].filter { $0 == "\n" }.count + 1))
                }
                i += needle.count
            }
        }
        // ServiceError(.kind, "...")
        let general = Array("ServiceError(.".unicodeScalars)
        var i = 0
        while i + general.count <= chars.count {
            if chars[i..<(i + general.count)].elementsEqual(general) {
                var j = i + general.count
                while j < chars.count, chars[j] != "," && chars[j] != ")" { j += 1 }
                if j < chars.count, chars[j] == "," {
                    j += 1
                    if let template = chain(chars, &j) {
                        found.append((template, chars[..<i].filter { $0 == "\n" }.count + 1))
                    }
                }
            }
            i += 1
        }
        // HTTPError(status: 414, message: "...")
        let http = Array("HTTPError(".unicodeScalars)
        let label = Array("message:".unicodeScalars)
        i = 0
        while i + http.count <= chars.count {
            if chars[i..<(i + http.count)].elementsEqual(http) {
                let end = closing(chars, i + http.count - 1)
                var j = i + http.count
                while j + label.count <= end, !chars[j..<(j + label.count)].elementsEqual(label) { j += 1 }
                if j + label.count <= end {
                    j += label.count
                    if let template = chain(chars, &j) {
                        found.append((template, chars[..<i].filter { $0 == "\n" }.count + 1))
                    }
                }
            }
            i += 1
        }
        return found
    }

    /// The labels of written fields (`TextPolicy.check(..., field: "The title", ...)`), which its sentences
    /// take as words: capitalised, where a parameter's name (`field: "startsAt"`) is not.
    static func fields(in text: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #"field: "([A-Z][^"\\\n]*)""#)
        let range = NSRange(text.startIndex..., in: text)
        return Set(
            pattern.matches(in: text, range: range).compactMap {
                Range($0.range(at: 1), in: text).map { String(text[$0]) }
            })
    }

    /// Every plain string literal's text, nested ones included (for the word list).
    static func literals(in text: String) -> Set<String> {
        let pattern = try! NSRegularExpression(pattern: #""([^"\\\n]*)""#)
        let range = NSRange(text.startIndex..., in: text)
        return Set(
            pattern.matches(in: text, range: range).compactMap {
                Range($0.range(at: 1), in: text).map { String(text[$0]) }
            })
    }

    /// Literals joined by `+` from `j` (after white space), ending at `)` or `,`; nil when anything else is there.
    static func chain(_ chars: [Unicode.Scalar], _ j: inout Int) -> String? {
        var template = ""
        while true {
            skipSpace(chars, &j)
            guard let part = literal(chars, &j) else { return nil }
            template += part
            skipSpace(chars, &j)
            guard j < chars.count else { return nil }
            if chars[j] == "+" {
                j += 1
                continue
            }
            return chars[j] == ")" || chars[j] == "," ? template : nil
        }
    }

    static func skipSpace(_ chars: [Unicode.Scalar], _ j: inout Int) {
        while j < chars.count, chars[j].properties.isWhitespace { j += 1 }
    }

    /// One literal at `j` ("..." or a multi-line one) as a template.
    static func literal(_ chars: [Unicode.Scalar], _ j: inout Int) -> String? {
        guard j < chars.count, chars[j] == "\"" else { return nil }
        let multiline = j + 2 < chars.count && chars[j + 1] == "\"" && chars[j + 2] == "\""
        if multiline { return nil }
        j += 1
        var out = ""
        while j < chars.count, chars[j] != "\"" {
            if chars[j] == "\n" { return nil }
            if chars[j] == "\\" {
                let next = chars[j + 1]
                switch next {
                case "(":
                    j = closing(chars, j + 1)
                    out += "%@"
                    continue
                case "n": out += "\n"
                case "t": out += "\t"
                case "\"": out += "\""
                case "'": out += "'"
                case "\\": out += "\\"
                default: out.unicodeScalars.append(next)
                }
                j += 2
                continue
            }
            out += chars[j] == "%" ? "%%" : String(chars[j])
            j += 1
        }
        j += 1
        return out
    }

    /// The index after the parenthesis that closes the one at `start`, skipping nested literals.
    static func closing(_ chars: [Unicode.Scalar], _ start: Int) -> Int {
        var depth = 0
        var j = start
        while j < chars.count {
            if chars[j] == "\"" {
                var k = j
                _ = literal(chars, &k)
                j = max(k, j + 1)
                continue
            }
            if chars[j] == "(" { depth += 1 }
            if chars[j] == ")" {
                depth -= 1
                if depth == 0 { return j + 1 }
            }
            j += 1
        }
        return j
    }
}
