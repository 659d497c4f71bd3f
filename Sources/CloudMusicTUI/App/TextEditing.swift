/// Typing into a one-line field (search, comments, the sign-in form); the cursor counts characters.
enum TextEditing {
    /// The most a field holds, so a held-down key or a paste cannot grow it without end.
    static let maxLength = 2_000

    /// Applies `key` to `text`; returns false when the key is not an editing key.
    static func apply(_ key: Key, to text: inout String, cursor: inout Int) -> Bool {
        var characters = Array(text)
        cursor = min(max(0, cursor), characters.count)
        switch key {
        case .character(let character):
            guard characters.count < maxLength else { return true }
            characters.insert(character, at: cursor)
            cursor += 1
        case .space:
            guard characters.count < maxLength else { return true }
            characters.insert(" ", at: cursor)
            cursor += 1
        case .backspace:
            guard cursor > 0 else { return true }
            characters.remove(at: cursor - 1)
            cursor -= 1
        case .delete:
            guard cursor < characters.count else { return true }
            characters.remove(at: cursor)
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .control("u"):
            characters.removeFirst(cursor)
            cursor = 0
        case .control("w"):
            // The word before the cursor, and the spaces after it.
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        // A combining mark joins the character before it, so count again in the joined text.
        let before = String(characters[..<min(cursor, characters.count)])
        text = String(characters)
        cursor = before.count
        return true
    }
}
