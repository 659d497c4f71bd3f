import CNCurses
import PlayerControl

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

    public let usesColor: Bool
    private var looks: [TextStyle: (UInt32, Int16)] = [:]

    /// The colours people see unless their config says otherwise.
    public static let defaultPalette = palette(fromConfig: PlayerConfig.defaultColors)

    /// The palette from the config file's `[colors]`, whose roles are the styles' names in snake case.
    public static func palette(fromConfig colors: [String: ColorSpec]) -> [TextStyle: ColorSpec] {
        var palette: [TextStyle: ColorSpec] = [:]
        for style in TextStyle.allCases {
            let role = style.rawValue.replacing(/[A-Z]/) { "_" + $0.output.lowercased() }
            if let spec = colors[role] { palette[style] = spec }
        }
        return palette
    }

    /// Sets up colour pairs; call once ncurses has started.
    init(mode: Mode, palette: [TextStyle: ColorSpec]) {
        // NO_COLOR, --no-color and `theme = none` arrive here as `.none` (the command line reads them).
        let wanted = mode == .auto && has_colors()
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
                var foreground = spec.foreground ?? -1
                var background = spec.background ?? -1
                if foreground >= cm_colors() { foreground %= 8 }
                if background >= cm_colors() { background %= 8 }
                init_pair(pair, Int16(foreground), Int16(background))
                let extra: UInt32 =
                    switch style {
                    case .accent, .highlight, .karaokeSung, .selected: bold
                    default: (spec.foreground ?? -1) >= cm_colors() ? bold : 0
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
