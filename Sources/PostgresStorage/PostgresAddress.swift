import CPostgres
import Foundation

/// Where and how to reach a PostgreSQL database: a URL (`postgres://user:pass@host:port/db?sslmode=require`)
/// or libpq's `key=value` form, checked by libpq's own parser, so every libpq setting works (sslmode,
/// sslrootcert, connect_timeout, target_session_attrs, ...). `description` never shows the password.
public struct PostgresAddress: Sendable, CustomStringConvertible {
    /// libpq's keywords and values, in libpq's order.
    let settings: [(keyword: String, value: String)]

    private static let sslModes = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

    /// Reads a URL or a `key=value` string; throws a sentence naming what is wrong.
    public init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("postgres://") || trimmed.hasPrefix("postgresql://") || trimmed.contains("=")
        else {
            throw PostgresError(
                kind: .other,
                message:
                    "a PostgreSQL address is a URL such as postgres://user@host:5432/database or "
                    + "key=value settings such as 'host=localhost dbname=cloudmusic'")
        }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(trimmed, &error) else {
            let reason = error.map { String(cString: $0) } ?? "it cannot be read"
            PQfreemem(error)
            throw PostgresError(
                kind: .other,
                message: "the PostgreSQL address is not valid: \(reason.trimmingCharacters(in: .newlines))")
        }
        defer { PQconninfoFree(options) }
        var settings: [(keyword: String, value: String)] = []
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val {
                settings.append((String(cString: keyword), String(cString: value)))
            }
            option += 1
        }
        self.settings = settings
        if let mode = setting("sslmode"), !Self.sslModes.contains(mode) {
            throw PostgresError(
                kind: .other,
                message:
                    "sslmode=\(mode) is not one PostgreSQL knows: use one of "
                    + Self.sslModes.joined(separator: ", "))
        }
    }

    private init(settings: [(keyword: String, value: String)]) { self.settings = settings }

    /// The value of one libpq setting, as given.
    public func setting(_ keyword: String) -> String? {
        settings.last { $0.keyword == keyword }?.value
    }

    /// The same address with `keyword` set to `value` (another database, an application name, ...).
    public func with(_ keyword: String, _ value: String) -> PostgresAddress {
        PostgresAddress(settings: settings.filter { $0.keyword != keyword } + [(keyword, value)])
    }

    public var database: String? { setting("dbname") }

    public var description: String {
        let user = setting("user").map { "\($0)@" } ?? ""
        let host = setting("host") ?? setting("hostaddr") ?? "localhost"
        let port = setting("port").map { ":\($0)" } ?? ""
        let database = setting("dbname").map { "/\($0)" } ?? ""
        let mode = setting("sslmode").map { "?sslmode=\($0)" } ?? ""
        return "postgres://\(user)\(host)\(port)\(database)\(mode)"
    }

    /// libpq's keywords and values for a connection, with ours where the address says nothing: UTF-8, a name
    /// in pg_stat_activity, and a bound on how long connecting may take.
    func connectionSettings(applicationName: String) -> [(keyword: String, value: String)] {
        var all = settings.filter { $0.keyword != "client_encoding" }
        all.append(("client_encoding", "UTF8"))
        if setting("application_name") == nil { all.append(("application_name", applicationName)) }
        if setting("connect_timeout") == nil { all.append(("connect_timeout", "10")) }
        return all
    }
}
