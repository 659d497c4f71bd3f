import Foundation

public enum LogLevel: Int, Sendable, Comparable {
    case debug, info, warning, error

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    var label: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }
}

/// Writes one line per call to stderr, or to `sink`; safe from any thread.
public struct Logger: Sendable {
    public let level: LogLevel
    let sink: (@Sendable (String) -> Void)?

    public init(level: LogLevel = .info, sink: (@Sendable (String) -> Void)? = nil) {
        self.level = level
        self.sink = sink
    }

    @inline(__always) public func isEnabled(_ l: LogLevel) -> Bool { l >= level }

    public func debug(_ m: @autoclosure () -> String) { log(.debug, m) }
    public func info(_ m: @autoclosure () -> String) { log(.info, m) }
    public func warning(_ m: @autoclosure () -> String) { log(.warning, m) }
    public func error(_ m: @autoclosure () -> String) { log(.error, m) }

    private func log(_ l: LogLevel, _ m: () -> String) {
        guard l >= level else { return }
        let line = "level=\(l.label) \(m())"
        if let sink {
            sink(line)
        } else {
            var bytes = Array(line.utf8)
            bytes.append(0x0A)
            bytes.withUnsafeBytes { p in
                var off = 0
                while off < p.count {
                    let n = Foundation.write(2, p.baseAddress! + off, p.count - off)
                    if n <= 0 { break }
                    off += n
                }
            }
        }
    }
}
