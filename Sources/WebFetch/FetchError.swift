import Foundation
import MusicCore

/// Why a fetch failed, worded for the person who added the address ("The feed is larger than 10 MB.").
public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// Not an absolute http or https address with a host.
        case invalidAddress(String)
        /// A scheme other than http and https (`file:`, `gopher:`, ...), asked for or redirected to.
        case unsupportedScheme(String)
        /// The address resolved to a restricted address the allow-list does not permit.
        case restrictedAddress(IPAddress, AddressRules.Restriction)
        /// The body passed this many bytes.
        case tooLarge(limit: Int64)
        /// The headers passed this many bytes.
        case headersTooLarge(limit: Int)
        /// More redirects than allowed; the number is the redirect that was refused.
        case tooManyRedirects(Int)
        /// A redirect back to an address already visited.
        case redirectLoop(URL)
        /// No connection within this many seconds.
        case connectTimeout(seconds: Double)
        /// Not finished within this many seconds.
        case timeout(seconds: Double)
        /// Less than `bytesPerSecond` arrived over `seconds`.
        case tooSlow(bytesPerSecond: Int, seconds: Double)
        case unknownHost(String)
        case connectionFailed(String)
        case certificate(String)
        /// The server answered with a status the caller cannot use.
        case status(Int)
        /// The download could not be written.
        case file(String)
    }

    public let reason: Reason
    /// The address being fetched when it failed (after any redirects).
    public let url: URL
    /// What was being fetched, in the words of the message ("feed", "episode", "picture").
    public let subject: String

    public init(_ reason: Reason, url: URL, subject: String) {
        self.reason = reason
        self.url = url
        self.subject = subject
    }

    public var message: String {
        let the = "The \(subject)"
        let host = url.host ?? url.absoluteString
        switch reason {
        case .invalidAddress(let text):
            return "\(text) is not a web address; the \(subject) needs an http or https address."
        case .unsupportedScheme(let scheme):
            return "\(the)'s address uses \(scheme):, and only http and https addresses are fetched."
        case .restrictedAddress(let address, let restriction):
            return
                "\(the)'s address points \(restriction.rawValue) (\(address)); an administrator can allow it."
        case .tooLarge(let limit):
            return "\(the) is larger than \(DisplayFormat.byteSize(limit))."
        case .headersTooLarge(let limit):
            return "\(the)'s server sent more than \(DisplayFormat.byteSize(Int64(limit))) of headers."
        case .tooManyRedirects(let count):
            return "Too many redirects (\(count)) for the \(subject); at most \(count - 1) are followed."
        case .redirectLoop(let target):
            return "\(the)'s address redirects in a loop (back to \(target.absoluteString))."
        case .connectTimeout(let seconds):
            return "\(the)'s server (\(host)) did not answer within \(Self.seconds(seconds))."
        case .timeout(let seconds):
            return "\(the) took longer than \(Self.seconds(seconds)) to download from \(host)."
        case .tooSlow(let rate, let seconds):
            return
                "\(the)'s server (\(host)) sent less than \(DisplayFormat.byteSize(Int64(rate)))/s for \(Self.seconds(seconds))."
        case .unknownHost(let name):
            return "\(the)'s server name \(name) could not be found."
        case .connectionFailed(let detail):
            return "\(the)'s server (\(host)) could not be reached: \(detail)."
        case .certificate(let detail):
            return "\(the)'s server (\(host)) has no valid certificate: \(detail)."
        case .status(let status):
            return "\(the)'s server (\(host)) answered \(status) \(Self.statusText(status))."
        case .file(let detail):
            return "\(the) could not be saved: \(detail)."
        }
    }

    public var description: String { message }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : String(format: "%.1f s", value)
    }

    static func statusText(_ status: Int) -> String {
        switch status {
        case 400: "(Bad Request)"
        case 401: "(Unauthorized: the address needs a login)"
        case 403: "(Forbidden)"
        case 404: "(Not Found)"
        case 410: "(Gone)"
        case 429: "(Too Many Requests)"
        case 500: "(Internal Server Error)"
        case 502: "(Bad Gateway)"
        case 503: "(Service Unavailable)"
        case 504: "(Gateway Timeout)"
        default: ""
        }
    }
}
