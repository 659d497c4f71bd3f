import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where the terminal player keeps its files, following the XDG base directory rules.
///
/// Each function takes the environment so callers and tests can pass their own; an XDG variable
/// that is empty or not an absolute path is ignored, as the XDG specification asks.
public enum PlayerPaths {
    /// `$XDG_CONFIG_HOME/cloudmusic/config`, else `~/.config/cloudmusic/config`.
    public static func configFile(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> URL
    {
        base("XDG_CONFIG_HOME", orHome: ".config", environment: environment)
            .appendingPathComponent("cloudmusic/config")
    }

    /// `$XDG_STATE_HOME/cloudmusic`, else `~/.local/state/cloudmusic`: the remembered sign-in, the client's
    /// database (queue, downloads, offline cache) and the last volume.
    public static func stateDirectory(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> URL
    {
        base("XDG_STATE_HOME", orHome: ".local/state", environment: environment)
            .appendingPathComponent("cloudmusic", isDirectory: true)
    }

    /// `$XDG_DATA_HOME/cloudmusic`, else `~/.local/share/cloudmusic`: downloaded songs.
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> URL
    {
        base("XDG_DATA_HOME", orHome: ".local/share", environment: environment)
            .appendingPathComponent("cloudmusic", isDirectory: true)
    }

    /// `$XDG_STATE_HOME/cloudmusic/session.json`, else `~/.local/state/cloudmusic/session.json`.
    public static func sessionFile(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> URL
    {
        stateDirectory(environment: environment).appendingPathComponent("session.json")
    }

    /// `$XDG_RUNTIME_DIR/cloudmusic/control.sock`, else `/tmp/cloudmusic-<uid>/control.sock`.
    public static func controlSocket(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        if let runtime = absolute(environment["XDG_RUNTIME_DIR"]) {
            return URL(fileURLWithPath: runtime).appendingPathComponent("cloudmusic/control.sock").path
        }
        return "/tmp/cloudmusic-\(getuid())/control.sock"
    }

    private static func base(_ variable: String, orHome relative: String, environment: [String: String])
        -> URL
    {
        if let path = absolute(environment[variable]) { return URL(fileURLWithPath: path, isDirectory: true) }
        let home =
            absolute(environment["HOME"]) ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(
            relative, isDirectory: true)
    }

    private static func absolute(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/") else { return nil }
        return path
    }
}
