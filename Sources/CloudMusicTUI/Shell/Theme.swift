import CNCurses
import Glibc

/// How each `TextStyle` looks: colour pairs where the terminal has colours, else bold, dim, underline and
/// reverse video, so nothing that matters is told by colour alone.
public struct Theme {
    /// Whether to use colours.
    public enum Mode: String, Sendable {
        /// Colours when the terminal has them.
        case auto
        /// Never (also what `NO_COLOR` asks for).
        case none
    }

    /// A foreground and background colour: 0...255, -1 for the terminal's default.
    public struct ColorSpec: Equatable, Sendable {
        public var foreground: Int
        public var background: Int
        public init(foreground: Int, background: Int = -1) {
            self.foreground = foreground
            self.background = background
        }
    }

    public let usesColor: Bool
    private var looks: [TextStyle: (UInt32, Int16)] = [:]

    /// The colours people see unless their config says otherwise.
    public static let defaultPalette: [TextStyle: ColorSpec] = [
        .normal: ColorSpec(foreground: -1),
        .dim: ColorSpec(foreground: 8),
        .highlight: ColorSpec(foreground: 14),
        .accent: ColorSpec(foreground: 1),
        .karaokeSung: ColorSpec(foreground: 9),
        .karaokeUnsung: ColorSpec(foreground: -1),
        .selected: ColorSpec(foreground: 15, background: 1),
        .progressFilled: ColorSpec(foreground: 1),
        .progressEmpty: ColorSpec(foreground: 8),
        .error: ColorSpec(foreground: 9),
        .mention: ColorSpec(foreground: 12),
        .topic: ColorSpec(foreground: 11),
    ]

    /// Sets up colour pairs; call once ncurses has started.
    init(mode: Mode, palette: [TextStyle: ColorSpec]) {
        let wanted = mode == .auto && has_colors() && getenv("NO_COLOR") == nil
        if wanted {
            start_color()
            use_default_colors()
        }
        usesColor = wanted && cm_colors() >= 8
        let bold = cm_attr_bold()
        for (index, style) in TextStyle.allCases.enumerated() {
            if usesColor {
                let spec = palette[style] ?? Self.defaultPalette[style] ?? ColorSpec(foreground: -1)
                let pair = Int16(index + 1)
                // Bright colours (8...15) become bold plain colours on 8-colour terminals.
                let foreground = spec.foreground >= cm_colors() ? spec.foreground % 8 : spec.foreground
                let background = spec.background >= cm_colors() ? spec.background % 8 : spec.background
                init_pair(pair, Int16(foreground), Int16(background))
                let extra: UInt32 =
                    switch style {
                    case .accent, .highlight, .karaokeSung, .selected: bold
                    default: spec.foreground >= cm_colors() ? bold : 0
                    }
                looks[style] = (extra, pair)
            } else {
                looks[style] = (Self.monochrome(style), 0)
            }
        }
    }

    /// The attributes of a style on a terminal without colour.
    static func monochrome(_ style: TextStyle) -> UInt32 {
        switch style {
        case .normal, .karaokeUnsung, .progressEmpty: return 0
        case .dim: return cm_attr_dim()
        case .highlight, .accent: return cm_attr_bold()
        case .karaokeSung: return cm_attr_bold() | cm_attr_underline()
        case .selected, .progressFilled: return cm_attr_reverse()
        case .error: return cm_attr_bold() | cm_attr_underline()
        case .mention, .topic: return cm_attr_underline()
        }
    }

    func attributes(for style: TextStyle) -> (UInt32, Int16) { looks[style] ?? (0, 0) }
}
