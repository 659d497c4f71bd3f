import Foundation
import MusicCore

/// A request to a running player over the control socket, one JSON line such as `{"command":"next"}`.
///
/// `play` carries the words to search for: `{"command":"play","query":"晴天"}`.
public enum ControlCommand: Codable, Sendable, Equatable {
    /// Search for `query` and play the best match.
    case play(query: String)
    case pause
    case resume
    /// Pause when playing, resume when paused.
    case toggle
    case next
    case previous
    /// Only answer with the player's status.
    case status
    /// Stop playback (the player keeps running).
    case stop

    /// The command names as they appear in JSON.
    public static let names = ["play", "pause", "resume", "toggle", "next", "previous", "status", "stop"]

    /// The command's name in JSON.
    public var name: String {
        switch self {
        case .play: return "play"
        case .pause: return "pause"
        case .resume: return "resume"
        case .toggle: return "toggle"
        case .next: return "next"
        case .previous: return "previous"
        case .status: return "status"
        case .stop: return "stop"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case command, query
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name: String
        do {
            name = try container.decode(String.self, forKey: .command)
        } catch {
            throw Self.invalid(
                container, "the request needs a \"command\" string, such as {\"command\":\"pause\"}")
        }
        switch name {
        case "play":
            let query = try? container.decodeIfPresent(String.self, forKey: .query)
            guard let query, !query.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw Self.invalid(
                    container,
                    "play needs words to search for, such as {\"command\":\"play\",\"query\":\"晴天\"}")
            }
            self = .play(query: query)
        case "pause": self = .pause
        case "resume": self = .resume
        case "toggle": self = .toggle
        case "next": self = .next
        case "previous": self = .previous
        case "status": self = .status
        case "stop": self = .stop
        default:
            throw Self.invalid(
                container,
                "unknown command \"\(name)\"; the commands are \(Self.names.joined(separator: ", "))")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .command)
        if case .play(let query) = self { try container.encode(query, forKey: .query) }
    }

    // The message becomes the debugDescription, which the server sends back as is.
    private static func invalid(_ container: KeyedDecodingContainer<CodingKeys>, _ message: String)
        -> DecodingError
    {
        DecodingError.dataCorruptedError(forKey: .command, in: container, debugDescription: message)
    }
}

/// The player's answer to a `ControlCommand`: one JSON line such as `{"ok":true,"message":"Paused"}`.
public struct ControlResponse: Codable, Sendable, Equatable {
    /// Whether the command was carried out.
    public var ok: Bool
    /// A sentence for the person who typed the command (what happened, or why not).
    public var message: String
    /// The player's state after the command, when the player includes it.
    public var status: PlayerStatus?

    public init(ok: Bool, message: String, status: PlayerStatus? = nil) {
        self.ok = ok
        self.message = message
        self.status = status
    }
}

/// What a running player is doing, as `cloudmusic status` shows it.
public struct PlayerStatus: Codable, Sendable, Equatable {
    /// `idle`, `loading`, `playing`, `paused`, `ended` or `failed` (the player's playback states).
    public var state: String
    public var title: String?
    public var artist: String?
    public var album: String?
    /// Seconds played.
    public var position: Double
    /// Seconds in the song, nil when unknown.
    public var duration: Double?
    /// `list`, `single` or `shuffle` (MusicCore's `LoopMode`).
    public var loopMode: String
    /// 0–100.
    public var volume: Int
    /// What keeps anything from playing, as one sentence ("No sound output: ..."); nil when nothing does.
    public var problem: String?

    public init(
        state: String, title: String?, artist: String?, album: String?, position: Double, duration: Double?,
        loopMode: String, volume: Int, problem: String? = nil
    ) {
        self.problem = problem
        self.state = state
        self.title = title
        self.artist = artist
        self.album = album
        self.position = position
        self.duration = duration
        self.loopMode = loopMode
        self.volume = volume
    }

    /// One line for a person: `▶ Title - Artist  1:23 / 4:05  [Loop] Vol 80%`.
    ///
    /// Nothing loaded shows `■ Nothing playing  [Loop] Vol 80%`.
    public var summary: String {
        let glyph = DisplayFormat.playStateGlyph(state)
        let loop = LoopMode(rawValue: loopMode).map { DisplayFormat.loopMode($0) } ?? loopMode
        let tail = "[\(loop)] Vol \(volume)%"
        guard let title, !title.isEmpty else { return "\(glyph) Nothing playing  \(tail)" }
        let name = [title, artist].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " - ")
        let times = DisplayFormat.progress(position: position, duration: duration ?? .nan)
        return "\(glyph) \(name)  \(times)  \(tail)"
    }
}

extension ControlCommand {
    /// The command in one request line, or a `.badRequest` error whose message says what is wrong.
    static func decode(line bytes: [UInt8]) throws(ControlError) -> ControlCommand {
        do {
            return try JSONDecoder().decode(ControlCommand.self, from: Data(bytes))
        } catch DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty {
            // Our own init(from:) messages, which already say what to send.
            throw ControlError(code: .badRequest, message: "Bad request: \(context.debugDescription).")
        } catch {
            throw ControlError(
                code: .badRequest,
                message: "Bad request: send one JSON object on one line, such as {\"command\":\"pause\"}.")
        }
    }
}
