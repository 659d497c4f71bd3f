import CNCurses
import PlayerControl

/// A key as the app sees it: the same names the config file uses.
public typealias Key = KeyName

/// One thing read from the terminal.
public enum KeyInput: Equatable, Sendable {
    case key(Key)
    /// The window changed size.
    case resize

    /// A typed character: control characters become their keys.
    static func decode(_ scalar: Unicode.Scalar) -> Key {
        switch scalar.value {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 32: return .space
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(scalar.value + 96)!))
        default: return .character(Character(scalar))
        }
    }

    /// A key ncurses decoded from an escape sequence; nil for keys the app has no use for.
    static func function(code: Int32) -> KeyInput? {
        let key: Key
        switch code {
        case KEY_LEFT: key = .left
        case KEY_RIGHT: key = .right
        case KEY_UP: key = .up
        case KEY_DOWN: key = .down
        case KEY_PPAGE: key = .pageUp
        case KEY_NPAGE: key = .pageDown
        case KEY_HOME: key = .home
        case KEY_END: key = .end
        case KEY_BACKSPACE: key = .backspace
        case KEY_DC: key = .delete
        case KEY_ENTER: key = .enter
        case KEY_BTAB: key = .backTab
        case (KEY_F0 + 1)...(KEY_F0 + 12): key = .function(Int(code - KEY_F0))
        default: return nil
        }
        return .key(key)
    }
}
