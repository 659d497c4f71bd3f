import Foundation
import MusicCore
import Testing

@Suite("Rich text")
struct RichTextTests {
    func nicknames(_ text: String) -> [String] { RichTextParser.parse(text).mentions.map(\.nickname) }
    func titles(_ text: String) -> [String] { RichTextParser.parse(text).topics.map(\.title) }

    /// The text each range points at, through `TextRange.range(in:)`.
    func tokens(_ text: String) -> [String] {
        let parsed = RichTextParser.parse(text)
        return (parsed.mentions.map(\.range) + parsed.topics.map(\.range))
            .sorted { $0.utf16Offset < $1.utf16Offset }
            .map { $0.range(in: text).map { String(text[$0]) } ?? "<nil>" }
    }

    // MARK: Mentions

    @Test func simpleMention() {
        let parsed = RichTextParser.parse("hi @ann!")
        #expect(
            parsed.mentions == [
                ParsedMention(
                    nickname: "ann",
                    range: TextRange(utf16Offset: 3, utf16Length: 4, scalarOffset: 3, scalarLength: 4))
            ])
        #expect(parsed.topics.isEmpty)
    }

    @Test func mentionsInTextOrder() {
        #expect(nicknames("@ann and @bob, then @张三") == ["ann", "bob", "张三"])
        #expect(tokens("@ann and @bob") == ["@ann", "@bob"])
    }

    @Test func cjkNicknamesAndNoSpaceBeforeTheAt() {
        #expect(nicknames("@张三 你好") == ["张三"])
        #expect(nicknames("谢谢@张三。") == ["张三"])
        #expect(nicknames("ありがとう@さくら！") == ["さくら"])
        #expect(nicknames("고마워@민수") == ["민수"])
        #expect(nicknames("佐々木@ann") == ["ann"])
    }

    @Test func emailsAreNotMentions() {
        #expect(nicknames("mail ann@example.com") == [])
        #expect(nicknames("ann@bob") == [])
        #expect(nicknames("ann_lee@x.org first-last@y.org 42@z") == [])
        #expect(nicknames("José@x") == [])
    }

    @Test func mentionAfterPunctuationOrEmoji() {
        #expect(nicknames("(@ann)") == ["ann"])
        #expect(nicknames("🎉@ann") == ["ann"])
        #expect(nicknames("“@张三”") == ["张三"])
        #expect(nicknames("hi,@ann") == ["ann"])
        #expect(nicknames("#歌#@ann") == ["ann"])
    }

    @Test func mentionsBackToBack() {
        #expect(nicknames("@ann@bob") == ["ann", "bob"])
        #expect(nicknames("@张三@李四@王五") == ["张三", "李四", "王五"])
        let parsed = RichTextParser.parse("@@ann")
        #expect(parsed.mentions.map(\.nickname) == ["ann"])
        #expect(parsed.mentions.first?.range.utf16Offset == 1)
    }

    @Test(
        "punctuation ends a mention",
        arguments: [
            "，", "。", "！", "？", "、", "：", "；", "“", "”", "‘", "’", "（", "）", "【", "】", "《", "》", "「", "」",
            "…", "—", "～", "＠", "＃", ".", ",", "!", "?", ";", ":", "'", "\"", "(", ")", "[", "]", "{", "}",
            "/", "\\", "+", "=", "*", "&", "%", "$", "~", "`", "^", "|", "<", ">", "#", "@",
        ])
    func punctuationEndsMention(punctuation: String) {
        #expect(nicknames("@张三" + punctuation + "x").first == "张三")
        #expect(nicknames("@ann" + punctuation) == ["ann"])
    }

    @Test(
        "whitespace and invisible characters end a mention",
        arguments: [
            " ", "\t", "\n", "\r\n", "\u{3000}", "\u{A0}", "\u{2028}", "\u{200B}", "\u{202E}", "\u{FEFF}",
            "\u{0}",
        ])
    func whitespaceEndsMention(separator: String) {
        #expect(nicknames("@ann" + separator + "bob") == ["ann"])
    }

    @Test func charactersThatStayInside() {
        #expect(nicknames("@jean-luc") == ["jean-luc"])
        #expect(nicknames("@cool_guy") == ["cool_guy"])
        #expect(nicknames("@克里斯·埃文斯 好帅") == ["克里斯·埃文斯"])
        #expect(nicknames("@ジョン・レノン") == ["ジョン・レノン"])
        #expect(nicknames("@ａｎｎ＿ｌｅｅ") == ["ａｎｎ＿ｌｅｅ"])
        #expect(nicknames("@ann🎵 hi") == ["ann🎵"])
        #expect(nicknames("@👩‍👩‍👧") == ["👩‍👩‍👧"])
        #expect(nicknames("@🇨🇳fan") == ["🇨🇳fan"])
        #expect(nicknames("@#️⃣x") == ["#️⃣x"])
    }

    @Test func emptyMentionsArePlainText() {
        for text in ["@", "@ ", "a @ b", "@。", "@@", "@@@ @", "@#", "text @", "@\n"] {
            #expect(RichTextParser.parse(text).mentions.isEmpty, "\(text.debugDescription)")
        }
    }

    @Test func onlyAPlainAtCounts() {
        #expect(nicknames("＠ann") == [])
        #expect(nicknames("@\u{301}ann") == [])
        #expect(nicknames("@ann＠bob") == ["ann"])
    }

    @Test func nicknameLengthIsCappedAt32Characters() {
        let a32 = String(repeating: "a", count: 32)
        #expect(nicknames("@" + a32) == [a32])
        #expect(nicknames("@" + a32 + "a") == [])
        #expect(nicknames("@" + a32 + "a @bob") == ["bob"])
        let han32 = String(repeating: "歌", count: 32)
        #expect(nicknames("@\(han32)。") == [han32])
        #expect(nicknames("@\(han32)歌。") == [])
        // Characters, not scalars: 32 families of 5 scalars each are 32 characters.
        let families = String(repeating: "👩‍👩‍👧", count: 32)
        #expect(nicknames("@" + families) == [families])
        #expect(nicknames("@" + families + "👩‍👩‍👧") == [])
    }

    // MARK: Topics

    @Test func simpleTopics() {
        let parsed = RichTextParser.parse("听 #新歌# 了")
        #expect(
            parsed.topics == [
                ParsedTopic(
                    title: "新歌",
                    range: TextRange(utf16Offset: 2, utf16Length: 4, scalarOffset: 2, scalarLength: 4))
            ])
        #expect(titles("#周杰伦#") == ["周杰伦"])
        #expect(titles("#a b#") == ["a b"])
        #expect(titles("#Hello, world!#") == ["Hello, world!"])
        #expect(titles("#one# and #two#") == ["one", "two"])
    }

    @Test func brokenTopics() {
        for text in [
            "#", "##", "###", "####", "#abc", "abc#", "# #", "# a#", "#a #", "#a\nb#", "#a\tb#",
            "#a\u{200B}b#",
        ] {
            #expect(RichTextParser.parse(text).topics.isEmpty, "\(text.debugDescription)")
        }
    }

    @Test func hashesPairLeftToRight() {
        #expect(titles("#a#b#c#") == ["a", "c"])
        #expect(titles("#a#b#") == ["a"])
        #expect(tokens("##a#") == ["#a#"])
        #expect(RichTextParser.parse("##a#").topics.first?.range.utf16Offset == 1)
        #expect(titles("#a\nb#c#") == ["c"])
        #expect(titles("# #topic#") == ["topic"])
        #expect(titles("#a #b #c") == [])
        #expect(titles("C# and F# are languages") == [])
    }

    @Test func topicLengthIsCappedAt32Characters() {
        let a32 = String(repeating: "a", count: 32)
        #expect(titles("#\(a32)#") == [a32])
        #expect(titles("#\(a32)a#") == [])
        #expect(titles("#\(a32)a# #ok#") == ["ok"])
        let emoji32 = String(repeating: "👍🏽", count: 32)
        #expect(titles("#\(emoji32)#") == [emoji32])
    }

    @Test func onlyALonePlainHashCounts() {
        #expect(tokens("#️⃣#a#") == ["#a#"])
        #expect(titles("＃a＃") == [])
    }

    // MARK: Mentions and topics together

    @Test func mentionsAndTopicsTogether() {
        #expect(tokens("@ann#歌#") == ["@ann", "#歌#"])
        #expect(tokens("#歌#@ann") == ["#歌#", "@ann"])
        #expect(tokens("#周杰伦# @张三 听了#新歌#吗？@李四") == ["#周杰伦#", "@张三", "#新歌#", "@李四"])
    }

    @Test func nothingIsLookedForInsideATopic() {
        let parsed = RichTextParser.parse("#@ann#")
        #expect(parsed.topics.map(\.title) == ["@ann"])
        #expect(parsed.mentions.isEmpty)
        // A '#' that opens no topic leaves the text after it to be read as usual.
        #expect(tokens("# @ann #x#") == ["@ann", "#x#"])
        #expect(tokens("#abc @ann") == ["@ann"])
    }

    // MARK: Offsets in both units

    @Test func emojiBeforeAMention() {
        // The family is 3 emoji joined by 2 ZWJs: 5 scalars, 8 UTF-16 units.
        let mention = RichTextParser.parse("👩‍👩‍👧 @ann").mentions.first
        #expect(mention?.range == TextRange(utf16Offset: 9, utf16Length: 4, scalarOffset: 6, scalarLength: 4))
        // A skin tone is a second scalar of two UTF-16 units.
        let toned = RichTextParser.parse("@👍🏽 hi").mentions.first
        #expect(toned?.range == TextRange(utf16Offset: 0, utf16Length: 5, scalarOffset: 0, scalarLength: 3))
        let flag = RichTextParser.parse("🇨🇳#中国#").topics.first
        #expect(flag?.range == TextRange(utf16Offset: 4, utf16Length: 4, scalarOffset: 2, scalarLength: 4))
    }

    @Test func cjkOutsideTheBMP() {
        // U+20000 and U+20001 take two UTF-16 units each and one scalar.
        let before = RichTextParser.parse("\u{20000}@ann").mentions.first
        #expect(before?.range == TextRange(utf16Offset: 2, utf16Length: 4, scalarOffset: 1, scalarLength: 4))
        let inside = RichTextParser.parse("@\u{20000}\u{20001}，#\u{20000}#").mentions.first
        #expect(inside?.nickname == "\u{20000}\u{20001}")
        #expect(inside?.range == TextRange(utf16Offset: 0, utf16Length: 5, scalarOffset: 0, scalarLength: 3))
        let topic = RichTextParser.parse("@\u{20000}\u{20001}，#\u{20000}#").topics.first
        #expect(topic?.range == TextRange(utf16Offset: 6, utf16Length: 4, scalarOffset: 4, scalarLength: 3))
    }

    @Test func combiningMarks() {
        // "é" written as e + U+0301 is one character of two scalars and two UTF-16 units.
        let after = RichTextParser.parse("e\u{301} @ann").mentions.first
        #expect(after?.range == TextRange(utf16Offset: 3, utf16Length: 4, scalarOffset: 3, scalarLength: 4))
        let decomposed = RichTextParser.parse("@cafe\u{301}!").mentions.first
        #expect(decomposed?.nickname == "cafe\u{301}")
        #expect(
            decomposed?.range == TextRange(utf16Offset: 0, utf16Length: 6, scalarOffset: 0, scalarLength: 6))
        let precomposed = RichTextParser.parse("@café!").mentions.first
        #expect(
            precomposed?.range == TextRange(utf16Offset: 0, utf16Length: 5, scalarOffset: 0, scalarLength: 5))
    }

    // MARK: Ranges back to the text

    @Test func rangeBackToTheText() throws {
        let text = "👩‍👩‍👧 @ann #\u{20000}#"
        let parsed = RichTextParser.parse(text)
        let mention = try #require(parsed.mentions.first?.range.range(in: text))
        #expect(text[mention] == "@ann")
        let topic = try #require(parsed.topics.first?.range.range(in: text))
        #expect(text[topic] == "#\u{20000}#")
    }

    @Test func rangesThatDoNotFit() {
        let text = "\u{20000}👩‍👩‍👧ab"
        func fits(_ o: Int, _ l: Int, _ so: Int, _ sl: Int) -> Bool {
            TextRange(utf16Offset: o, utf16Length: l, scalarOffset: so, scalarLength: sl).range(in: text)
                != nil
        }
        #expect(fits(0, 2, 0, 1))
        #expect(fits(10, 2, 6, 2))
        #expect(fits(12, 0, 8, 0))
        #expect(!fits(1, 1, 0, 1))  // splits the surrogate pair of U+20000
        #expect(!fits(2, 2, 1, 1))  // splits the family
        #expect(!fits(10, 3, 6, 3))  // past the end
        #expect(!fits(13, 0, 9, 0))
        #expect(!fits(-1, 1, 0, 1))
        #expect(!fits(0, -1, 0, 0))
        #expect(!fits(0, 2, 0, 2))  // the scalar length is for another text
    }

    // MARK: Resolving

    @Test func unknownNicknamesStayPlainText() {
        let parsed = RichTextParser.parse("@ann @nobody @张三 @Ann")
        #expect(parsed.mentions(among: ["ann", "张三"]).map(\.nickname) == ["ann", "张三"])
        #expect(parsed.mentions(among: []).isEmpty)
    }

    @Test func resolvedMentionsAskOncePerNickname() {
        let parsed = RichTextParser.parse("@ann @nobody @ann，@张三")
        var asked: [String] = []
        let mentions = parsed.resolvedMentions { nickname in
            asked.append(nickname)
            return ["ann": "u1", "张三": "u2"][nickname]
        }
        #expect(asked == ["ann", "nobody", "张三"])
        #expect(mentions.map(\.userId) == ["u1", "u1", "u2"])
        #expect(mentions.map(\.nickname) == ["ann", "ann", "张三"])
        #expect(mentions.map(\.range.utf16Offset) == [0, 13, 18])
    }

    @Test func resolvedTopics() throws {
        let parsed = RichTextParser.parse("#新歌# #没有# #新歌#")
        let topics = parsed.resolvedTopics { $0 == "新歌" ? "t1" : nil }
        #expect(topics.map(\.id) == ["t1", "t1"])
        #expect(topics.map(\.title) == ["新歌", "新歌"])
        struct Refused: Error {}
        #expect(throws: Refused.self) { try parsed.resolvedTopics { _ in throw Refused() } }
    }

    @Test func apiModelsEncode() throws {
        let range = TextRange(utf16Offset: 1, utf16Length: 2, scalarOffset: 3, scalarLength: 4)
        let mention = Mention(userId: "u1", nickname: "ann", range: range)
        let topic = TopicMention(id: "t1", title: "新歌", range: range)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(mention), as: UTF8.self)
        #expect(
            json
                == #"{"nickname":"ann","range":{"scalarLength":4,"scalarOffset":3,"utf16Length":2,"utf16Offset":1},"userId":"u1"}"#
        )
        #expect(try JSONDecoder().decode(Mention.self, from: encoder.encode(mention)) == mention)
        #expect(try JSONDecoder().decode(TopicMention.self, from: encoder.encode(topic)) == topic)
    }

    // MARK: Broken and large input

    @Test func longRuns() {
        #expect(RichTextParser.parse(String(repeating: "a", count: 100_000)) == ParsedRichText())
        #expect(RichTextParser.parse("@" + String(repeating: "a", count: 10_000)) == ParsedRichText())
        #expect(RichTextParser.parse(String(repeating: "@", count: 10_000)) == ParsedRichText())
        #expect(RichTextParser.parse(String(repeating: "#", count: 10_000)) == ParsedRichText())
        #expect(RichTextParser.parse("#" + String(repeating: "歌", count: 10_000)) == ParsedRichText())
        #expect(titles(String(repeating: "#a", count: 5_000)).count == 2_500)
        #expect(nicknames(String(repeating: "@a", count: 5_000)).count == 5_000)
    }

    @Test func tenThousandCharactersWithManyMentions() {
        var text = ""
        var count = 0
        while text.count < 10_000 {
            text += "@用户\(count) 听了 #新歌\(count)#，👍🏽 "
            count += 1
        }
        let parsed = RichTextParser.parse(text)
        #expect(parsed.mentions.count == count)
        #expect(parsed.topics.count == count)
        #expect(parsed.mentions.last?.nickname == "用户\(count - 1)")
        #expect(parsed.topics.last?.title == "新歌\(count - 1)")
        let last = parsed.topics.last!.range
        #expect(last.utf16Offset + last.utf16Length == text.utf16.count - 6)
        #expect(last.scalarOffset + last.scalarLength == text.unicodeScalars.count - 4)
    }

    // MARK: Random text

    static let pieces: [String] = [
        "a", "Z", "9", "ann", "_", "-", ".", ",", "!", "(", ")", " ", " ", "\n", "\t", "\r\n", "@", "@", "@",
        "#",
        "#", "#", "一", "张三", "さ", "민", "\u{20000}", "é", "e\u{301}", "\u{301}", "🎵", "👩‍👩‍👧", "👍🏽", "🇨🇳",
        "#️⃣", "，", "。", "“", "”", "【", "】", "·", "\u{200B}", "\u{200D}", "＠", "\u{3000}", "example.com",
    ]

    @Test func randomTextRangesPointAtTheirTokens() throws {
        var random = SplitMix64(seed: 7)
        for _ in 0..<3000 {
            var text = ""
            for _ in 0..<Int(random.next() % 50) {
                text += Self.pieces[Int(random.next() % UInt64(Self.pieces.count))]
            }
            let parsed = RichTextParser.parse(text)
            var tokens: [(range: TextRange, token: String, marker: Character)] = []
            for mention in parsed.mentions {
                #expect((1...32).contains(mention.nickname.count))
                tokens.append((mention.range, "@" + mention.nickname, "@"))
            }
            for topic in parsed.topics {
                #expect((1...32).contains(topic.title.count))
                // No lone '#' inside ('#' + ZWJ is one other character) and no newline.
                #expect(!topic.title.contains { $0.unicodeScalars.count == 1 && $0 == "#" })
                #expect(!topic.title.contains { $0.isNewline })
                tokens.append((topic.range, "#" + topic.title + "#", "#"))
            }
            #expect(
                zip(parsed.mentions, parsed.mentions.dropFirst()).allSatisfy {
                    $0.range.utf16Offset < $1.range.utf16Offset
                })
            #expect(
                zip(parsed.topics, parsed.topics.dropFirst()).allSatisfy {
                    $0.range.utf16Offset < $1.range.utf16Offset
                })
            tokens.sort { $0.range.utf16Offset < $1.range.utf16Offset }
            for (previous, next) in zip(tokens, tokens.dropFirst()) {
                #expect(previous.range.utf16Offset + previous.range.utf16Length <= next.range.utf16Offset)
            }
            for (range, token, marker) in tokens {
                let bounds = try #require(range.range(in: text), "\(text.debugDescription)")
                let found = String(text[bounds])
                #expect(found.first == marker)
                #expect(found == token, "\(text.debugDescription)")
                #expect(
                    text.utf16.distance(from: text.startIndex, to: bounds.lowerBound) == range.utf16Offset)
                #expect(
                    text.unicodeScalars.distance(from: text.startIndex, to: bounds.lowerBound)
                        == range.scalarOffset)
                #expect(found.unicodeScalars.count == range.scalarLength)
                #expect(found.utf16.count == range.utf16Length)
            }
        }
    }
}
