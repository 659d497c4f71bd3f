/// A colour pair for one role of the terminal UI: 0–255 terminal colours, -1 for the terminal's own.
public struct ColorSpec: Equatable, Sendable {
    /// The text colour: 0–255, -1 for the terminal's default, nil when the config leaves it unset.
    public var foreground: Int?
    /// The background colour, with the same meaning as `foreground`.
    public var background: Int?

    public init(foreground: Int?, background: Int? = nil) {
        self.foreground = foreground
        self.background = background
    }

    /// The colour names the config file knows, with their numbers; `bright-` adds 8.
    static let names: [(name: String, number: Int)] = [
        ("black", 0), ("red", 1), ("green", 2), ("yellow", 3), ("blue", 4), ("magenta", 5),
        ("cyan", 6), ("white", 7),
    ]

    /// Parses `fg`, `fg on bg` or `on bg`; an empty text is a spec with neither colour set.
    static func parse(_ text: String) -> Result<ColorSpec, ColorProblem> {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { String($0) }
        func color(_ word: String) -> Result<Int, ColorProblem> {
            guard let number = Self.number(of: word) else { return .failure(.unknownColor(word)) }
            return .success(number)
        }
        do {
            switch words.count {
            case 0:
                return .success(ColorSpec(foreground: nil))
            case 1:
                return .success(ColorSpec(foreground: try color(words[0]).get()))
            case 2 where words[0].lowercased() == "on":
                return .success(ColorSpec(foreground: nil, background: try color(words[1]).get()))
            case 3 where words[1].lowercased() == "on":
                return .success(
                    ColorSpec(foreground: try color(words[0]).get(), background: try color(words[2]).get()))
            default:
                return .failure(.badShape)
            }
        } catch {
            return .failure(error)
        }
    }

    /// What went wrong reading a colour.
    enum ColorProblem: Error {
        case unknownColor(String)
        case badShape
    }

    /// The number of a colour word: a name, `bright-` name, `default` (-1) or 0–255.
    static func number(of word: String) -> Int? {
        let word = word.lowercased()
        if word == "default" { return -1 }
        if let number = Int(word), (0...255).contains(number), !word.hasPrefix("+") { return number }
        let bright = word.hasPrefix("bright-")
        let base = bright ? String(word.dropFirst("bright-".count)) : word
        guard let entry = names.first(where: { $0.name == base }) else { return nil }
        return entry.number + (bright ? 8 : 0)
    }

    /// The word the config file uses for a colour number.
    static func word(for number: Int) -> String {
        if number == -1 { return "default" }
        if (0..<8).contains(number) { return names[number].name }
        if (8..<16).contains(number) { return "bright-" + names[number - 8].name }
        return String(number)
    }

    /// This spec as the config file writes it; `parse` reads it back.
    var configText: String {
        switch (foreground, background) {
        case (nil, nil): return ""
        case (let fg?, nil): return Self.word(for: fg)
        case (nil, let bg?): return "on " + Self.word(for: bg)
        case (let fg?, let bg?): return Self.word(for: fg) + " on " + Self.word(for: bg)
        }
    }
}
