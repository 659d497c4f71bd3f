/// A problem with the config file: which file, which line, and a sentence that says how to fix it.
public struct ConfigError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of problem it is, for callers that react to some differently.
    public enum Code: String, Sendable {
        /// The file exists but cannot be read (permissions, a folder, not UTF-8, too large).
        case unreadable
        /// A line is neither a comment, a `[section]` nor `name = value`.
        case syntax
        case unknownSection
        case unknownSetting
        /// An action in `[keys]` that the caller's `validActions` does not list.
        case unknownAction
        case unknownColorRole
        case invalidValue
        /// A setting, action, colour role or key given twice.
        case duplicate
    }

    public var code: Code
    /// The config file's path as given to the parser.
    public var path: String
    /// The 1-based line, or nil when the problem is the whole file.
    public var line: Int?
    /// What is wrong and what to do, e.g. `volume must be a number from 0 to 100, not "loud"`.
    public var message: String

    public init(code: Code, path: String, line: Int?, message: String) {
        self.code = code
        self.path = path
        self.line = line
        self.message = message
    }

    /// `<path>: line 4: <message>`, or `<path>: <message>` for the whole file.
    public var description: String {
        guard let line else { return "\(path): \(message)" }
        return "\(path): line \(line): \(message)"
    }
}
