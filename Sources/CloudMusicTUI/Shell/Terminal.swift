import CNCurses
import Foundation
import PlayerControl

/// The terminal, owned through ncurses: draws frames of `Line`s, reads keys, and always gives the terminal
/// back as it found it (on exit, on Ctrl-C, and on a crash).
///
/// Only one exists at a time, and it is used from one thread (the app's loop).
public final class Terminal {
    public private(set) var width: Int
    public private(set) var height: Int
    /// The rows drawn last, so a new frame writes only the rows that changed.
    private var shown: [Line] = []
    private let theme: Theme
    private let screen: OpaquePointer
    private var closed = false

    /// Takes over the terminal on stdin/stdout.
    ///
    /// - Throws: `TerminalError` when stdin or stdout is not a terminal, or ncurses cannot start on it.
    public init(colors: Theme.Mode = .auto, palette: [TextStyle: ColorSpec] = [:]) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalError(
                message: "cloudmusic needs a terminal: run it in a terminal window, not through a pipe.")
        }
        setlocale(LC_ALL, "")
        // A UTF-8 locale is what makes ncurses count CJK and emoji as two columns; C.UTF-8 always exists.
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) != "UTF-8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
        TerminalRestore.saveModes()
        // ESC alone must be a key, not the start of a sequence that never comes.
        setenv("ESCDELAY", "25", 0)
        guard let output = fdopen(STDOUT_FILENO, "w"), let input = fdopen(STDIN_FILENO, "r"),
            let screen = newterm(nil, output, input)
        else {
            throw TerminalError(
                message:
                    "ncurses could not start on this terminal (TERM=\(ProcessInfo.processInfo.environment["TERM"] ?? "unset"))."
            )
        }
        self.screen = screen
        set_term(screen)
        cbreak()
        noecho()
        nonl()
        keypad(cm_stdscr(), true)
        curs_set(0)
        theme = Theme(mode: colors, palette: palette)
        width = Int(getmaxx(cm_stdscr()))
        height = Int(getmaxy(cm_stdscr()))
        TerminalRestore.install()
    }

    deinit { close() }

    /// Gives the terminal back: normal screen, cursor, modes.
    public func close() {
        guard !closed else { return }
        closed = true
        endwin()
        delscreen(screen)
        TerminalRestore.uninstall()
    }

    /// Draws `lines` (one per row, each exactly `width` columns); only rows that differ from the last frame
    /// are written.
    public func draw(_ lines: [Line]) {
        let window = cm_stdscr()
        if shown.count != height { shown = Array(repeating: [], count: height) }
        var changed = false
        for row in 0..<height {
            let line = row < lines.count ? lines[row] : Line.blank(width)
            if shown[row] == line { continue }
            shown[row] = line
            changed = true
            wmove(window, Int32(row), 0)
            var column = 0
            for span in line where column < width {
                let (attributes, pair) = theme.attributes(for: span.style)
                cm_set_attr(window, attributes, pair)
                var scalars = span.text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }
                scalars.append(0)
                // In the bottom-right cell this reports ERR (the cursor cannot move on) but draws the text.
                waddnwstr(window, scalars, -1)
                column += TerminalWidth.width(of: span.text)
            }
            cm_set_attr(window, 0, 0)
        }
        if changed { wrefresh(window) }
    }

    /// Waits up to `timeout` milliseconds (-1: forever) for a key. Returns `.resize` after the window changed
    /// size (the next `draw` then repaints everything), nil when nothing came.
    public func readKey(timeout: Int) -> KeyInput? {
        let window = cm_stdscr()
        wtimeout(window, Int32(timeout))
        var character: wint_t = 0
        let status = wget_wch(window, &character)
        if status == ERR { return nil }
        if status == KEY_CODE_YES {
            if Int32(character) == KEY_RESIZE {
                width = Int(getmaxx(window))
                height = Int(getmaxy(window))
                shown = []
                wclear(window)
                return .resize
            }
            return KeyInput.function(code: Int32(character))
        }
        guard let scalar = Unicode.Scalar(UInt32(character)) else { return nil }
        return .key(KeyInput.decode(scalar))
    }

}

/// Why the terminal could not be used.
public struct TerminalError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Puts the terminal back when the process dies of a signal: the crash path cannot run Swift cleanup, so it
/// restores the saved termios and writes the reset sequences itself (both async-signal-safe).
enum TerminalRestore {
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var hasSaved = false
    nonisolated(unsafe) static var interrupted: sig_atomic_t = 0
    /// The handlers there were before ours (the Swift runtime's backtracer), to pass a crash on to.
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let table = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        table.initialize(repeating: sigaction(), count: 65)
        return table
    }()

    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]
    static let quitSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    static func saveModes() {
        hasSaved = tcgetattr(STDIN_FILENO, &saved) == 0
    }

    static func install() {
        // A parent may have started us with these blocked (test runners do); then Ctrl-C, kill and resizing
        // would never arrive.
        var wanted = sigset_t()
        sigemptyset(&wanted)
        for signal in quitSignals + [SIGWINCH] { sigaddset(&wanted, signal) }
        pthread_sigmask(SIG_UNBLOCK, &wanted, nil)
        // NODEFER: the crash handler re-raises inside itself and needs the signal delivered there and then.
        for signal in crashSignals { Self.handle(signal, with: crashHandler, flags: Int32(SA_NODEFER)) }
        // Ctrl-C, kill and a closed window end the loop, which then restores the terminal the normal way.
        for signal in quitSignals { Self.handle(signal, with: quitHandler) }
    }

    static func uninstall() {
        for signal in crashSignals + quitSignals { sigaction(signal, previous + Int(signal), nil) }
    }

    private static func handle(
        _ signal: Int32, with handler: @escaping @convention(c) (Int32) -> Void, flags: Int32 = 0
    ) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = flags
        sigaction(signal, &action, previous + Int(signal))
    }

    /// Writes the reset sequences and restores the saved modes; safe inside a signal handler.
    static func restoreNow() {
        // Leave the alternate screen, show the cursor, reset colours and attributes.
        let reset: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l\r\n"
        _ = reset.withUTF8Buffer { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        if hasSaved { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
    }

    private static let crashHandler: @convention(c) (Int32) -> Void = { signal in
        TerminalRestore.restoreNow()
        StandardErrorLog.restoreNow()
        // The previous handler (the runtime's backtracer, or the default) reports the crash on a usable
        // terminal. A handler that returns (as the backtracer does) would let the process run on, half torn
        // down; the default action then ends it.
        sigaction(signal, previous + Int(signal), nil)
        raise(signal)
        Glibc.signal(signal, SIG_DFL)
        raise(signal)
    }

    private static let quitHandler: @convention(c) (Int32) -> Void = { _ in
        TerminalRestore.interrupted = 1
    }
}

extension Terminal {
    /// Whether Ctrl-C, SIGTERM or SIGHUP asked the app to quit.
    public static var wasInterrupted: Bool { TerminalRestore.interrupted != 0 }
}
