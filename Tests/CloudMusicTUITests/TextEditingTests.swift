import Testing

@testable import CloudMusicTUI

@Suite struct TextEditingTests {
    /// Applies `keys` to `text` with the cursor at `cursor`; returns the text, the cursor and whether each key was taken.
    static func edit(_ text: String, cursor: Int, _ keys: Key...) -> (
        text: String, cursor: Int, taken: [Bool]
    ) {
        var text = text
        var cursor = cursor
        let taken = keys.map { TextEditing.apply($0, to: &text, cursor: &cursor) }
        return (text, cursor, taken)
    }

    @Test func typingInsertsAtTheCursor() {
        let end = Self.edit("", cursor: 0, .character("a"), .character("b"), .space, .character("c"))
        #expect(end.text == "ab c")
        #expect(end.cursor == 4)
        #expect(end.taken == [true, true, true, true])

        let middle = Self.edit("ac", cursor: 1, .character("b"))
        #expect(middle.text == "abc")
        #expect(middle.cursor == 2)

        let start = Self.edit("bc", cursor: 0, .character("a"))
        #expect(start.text == "abc")
        #expect(start.cursor == 1)
    }

    @Test func backspaceAndDeleteAtTheEnds() {
        let atStart = Self.edit("abc", cursor: 0, .backspace)
        #expect(atStart.text == "abc")
        #expect(atStart.cursor == 0)
        #expect(atStart.taken == [true])

        let atEnd = Self.edit("abc", cursor: 3, .delete)
        #expect(atEnd.text == "abc")
        #expect(atEnd.cursor == 3)

        let back = Self.edit("abc", cursor: 3, .backspace)
        #expect(back.text == "ab")
        #expect(back.cursor == 2)

        let forward = Self.edit("abc", cursor: 0, .delete)
        #expect(forward.text == "bc")
        #expect(forward.cursor == 0)

        let middle = Self.edit("abc", cursor: 2, .backspace, .delete)
        #expect(middle.text == "a")
        #expect(middle.cursor == 1)
    }

    @Test func cursorKeysMoveWithinTheText() {
        #expect(Self.edit("abc", cursor: 1, .left, .left, .left).cursor == 0)
        #expect(Self.edit("abc", cursor: 1, .right, .right, .right).cursor == 3)
        #expect(Self.edit("abc", cursor: 2, .home).cursor == 0)
        #expect(Self.edit("abc", cursor: 0, .end).cursor == 3)
        #expect(Self.edit("abc", cursor: 2, .control("a")).cursor == 0)
        #expect(Self.edit("abc", cursor: 0, .control("e")).cursor == 3)
        #expect(Self.edit("abc", cursor: 1, .left).text == "abc")
    }

    @Test func aCursorOutsideTheTextIsClamped() {
        let past = Self.edit("abc", cursor: 99, .character("d"))
        #expect(past.text == "abcd")
        #expect(past.cursor == 4)
        let before = Self.edit("abc", cursor: -5, .character("z"))
        #expect(before.text == "zabc")
        #expect(before.cursor == 1)
    }

    @Test func ctrlUDeletesToTheStart() {
        let result = Self.edit("hello world", cursor: 6, .control("u"))
        #expect(result.text == "world")
        #expect(result.cursor == 0)
        #expect(Self.edit("abc", cursor: 0, .control("u")).text == "abc")
    }

    @Test func ctrlWDeletesTheWordBeforeTheCursor() {
        let end = Self.edit("hello big world", cursor: 15, .control("w"))
        #expect(end.text == "hello big ")
        #expect(end.cursor == 10)

        // Spaces before the cursor go with the word before them.
        let spaces = Self.edit("hello world   ", cursor: 14, .control("w"))
        #expect(spaces.text == "hello ")
        #expect(spaces.cursor == 6)

        let middle = Self.edit("hello world", cursor: 3, .control("w"))
        #expect(middle.text == "lo world")
        #expect(middle.cursor == 0)

        let twice = Self.edit("one two three", cursor: 13, .control("w"), .control("w"))
        #expect(twice.text == "one ")

        let atStart = Self.edit("abc", cursor: 0, .control("w"))
        #expect(atStart.text == "abc")
        #expect(atStart.cursor == 0)
    }

    @Test func cjkAndEmojiCountAsOneCharacter() {
        let typed = Self.edit("", cursor: 0, .character("晴"), .character("天"), .character("👨‍👩‍👧"))
        #expect(typed.text == "晴天👨‍👩‍👧")
        #expect(typed.cursor == 3)

        let back = Self.edit("晴天👨‍👩‍👧", cursor: 3, .backspace)
        #expect(back.text == "晴天")
        #expect(back.cursor == 2)

        let inserted = Self.edit("晴天", cursor: 1, .character("的"))
        #expect(inserted.text == "晴的天")
        #expect(inserted.cursor == 2)

        let word = Self.edit("周杰伦 晴天", cursor: 6, .control("w"))
        #expect(word.text == "周杰伦 ")
        #expect(word.cursor == 4)
    }

    @Test func aCombiningMarkTypedAfterALetterKeepsTheCursorOnTheText() {
        // A pasted decomposed "é" arrives as "e" and then U+0301, one scalar per key.
        let result = Self.edit("Caf", cursor: 3, .character("e"), .character("\u{301}"))
        #expect(result.text == "Café")
        #expect(result.text.count == 4)
        #expect(result.cursor == 4)
    }

    @Test func theTextStopsAtTheMaximumLength() {
        let full = String(repeating: "字", count: TextEditing.maxLength)
        let typed = Self.edit(full, cursor: 10, .character("x"), .space)
        #expect(typed.text == full)
        #expect(typed.text.count == 2_000)
        #expect(typed.cursor == 10)
        #expect(typed.taken == [true, true])

        let almost = String(repeating: "a", count: TextEditing.maxLength - 1)
        let last = Self.edit(almost, cursor: TextEditing.maxLength - 1, .character("b"), .character("c"))
        #expect(last.text.count == 2_000)
        #expect(last.text.hasSuffix("ab"))
        #expect(last.cursor == 2_000)

        // Deleting still works when full.
        let deleted = Self.edit(full, cursor: 2_000, .backspace)
        #expect(deleted.text.count == 1_999)
    }

    @Test func keysThatDoNotEditAreNotTaken() {
        let result = Self.edit(
            "abc", cursor: 1, .enter, .tab, .backTab, .escape, .up, .down, .pageUp, .function(1),
            .control("r"))
        #expect(result.taken == [false, false, false, false, false, false, false, false, false])
        #expect(result.text == "abc")
        #expect(result.cursor == 1)
    }
}
