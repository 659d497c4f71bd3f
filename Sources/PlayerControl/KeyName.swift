/// A key on the keyboard as the config file names it (`n`, `space`, `pgdn`, `f5`, `ctrl-l`).
public enum KeyName: Hashable, Sendable {
    /// A printable character; case matters (`N` is Shift+n).
    case character(Character)
    case space, enter, tab, backTab, backspace, delete, escape, left, right, up, down, pageUp, pageDown, home,
        end
    /// F1 to F12.
    case function(Int)
    /// Ctrl with a letter, always stored lowercase (`control("l")` is Ctrl+L).
    case control(Character)

    /// The key `text` names, or nil when it names none.
    ///
    /// A single Unicode scalar that is not a control, format or whitespace character is that
    /// character (`" "` is `.space`). Longer names are case-insensitive: `space`, `enter`
    /// (`return`), `tab`, `backspace`, `esc` (`escape`), `left`, `right`, `up`, `down`, `pgup`
    /// (`pageup`), `pgdn` (`pagedown`), `home`, `end`, `f1`...`f12`, `ctrl-a`...`ctrl-z`, and
    /// `comma`, which lets a comma-separated list bind the comma key.
    public init?(parsing text: String) {
        if text == " " {
            self = .space
            return
        }
        let scalars = text.unicodeScalars
        if scalars.count == 1, let scalar = scalars.first {
            guard Self.isPrintable(scalar) else { return nil }
            self = .character(Character(scalar))
            return
        }
        let name = text.lowercased()
        if let named = Self.named[name] {
            self = named
            return
        }
        if name.hasPrefix("f"), let number = Int(name.dropFirst()), (1...12).contains(number),
            !name.dropFirst().hasPrefix("0"), !name.dropFirst().hasPrefix("+")
        {
            self = .function(number)
            return
        }
        if name.hasPrefix("ctrl-"), name.unicodeScalars.count == 6, let letter = name.unicodeScalars.last,
            ("a"..."z").contains(letter)
        {
            self = .control(Character(letter))
            return
        }
        return nil
    }

    /// The name the config file uses for this key; `KeyName(parsing:)` reads it back.
    public var configName: String {
        switch self {
        case .character(" "): return "space"
        case .character(","): return "comma"
        case .character(let character): return String(character)
        case .space: return "space"
        case .enter: return "enter"
        case .tab: return "tab"
        case .backTab: return "shift-tab"
        case .backspace: return "backspace"
        case .delete: return "delete"
        case .escape: return "esc"
        case .left: return "left"
        case .right: return "right"
        case .up: return "up"
        case .down: return "down"
        case .pageUp: return "pgup"
        case .pageDown: return "pgdn"
        case .home: return "home"
        case .end: return "end"
        case .function(let number): return "f\(number)"
        case .control(let letter): return "ctrl-\(letter.lowercased())"
        }
    }

    private static let named: [String: KeyName] = [
        "space": .space, "enter": .enter, "return": .enter, "tab": .tab, "shift-tab": .backTab,
        "backtab": .backTab, "backspace": .backspace, "delete": .delete, "del": .delete,
        "esc": .escape, "escape": .escape, "left": .left, "right": .right, "up": .up, "down": .down,
        "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown, "home": .home,
        "end": .end, "comma": .character(","),
    ]

    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .unassigned, .lineSeparator, .paragraphSeparator,
            .spaceSeparator, .privateUse:
            return false
        default:
            return true
        }
    }
}
