/// The live event stream: what happens to a person (messages, notifications, their queue and likes saved
/// on another device) reaches every device they are signed in on, the moment it is committed.
public enum EventsAPI {
    public static let stream = Endpoint<NoPath, EventStreamQuery, NoBody, ServerSentEvents, ChatTokenHolder>(
        "stream", .GET, "/v1/events",
        "Server-Sent Events for the chat token's person: `message`, `read`, `conversation`, `notification`, `queue`, `likes`; resumable with `Last-Event-ID` for a day, then `reload`; a comment line every 25 s; one stream per device"
    )
    public static let token = Endpoint<NoPath, NoQuery, NoBody, ChatToken, SignedIn>(
        "token", .POST, "/v1/events/token",
        "A new chat token for this device's session (the one from signing in stops working)", status: 201)

    public static let group = APIGroup("events", "The live event stream", [stream, token])
}

/// The stream's `text/event-stream` answer.
public enum ServerSentEvents: MediaAnswer {
    public static var contentType: String { "text/event-stream" }
    public static var summary: String {
        "Events, each `id`, `event` (a ServerEventKind) and `data` (JSON); `ready` first"
    }
}

public struct EventStreamQuery: APIParameters, Equatable {
    /// The chat token, for clients that cannot send headers (a browser's EventSource).
    public var token: String?
    /// Where to resume, for clients that cannot send `Last-Event-ID` on their first connection.
    public var lastEventId: String?
    public init() {}
    public init(token: String? = nil, lastEventId: String? = nil) {
        self.token = token
        self.lastEventId = lastEventId
    }
    public static let fields: [ParameterField<Self>] = [
        .text("token", \.token, maxLength: 100, doc: "The chat token, when `Authorization` cannot be sent."),
        .text(
            "lastEventId", \.lastEventId, pattern: "^[0-9]{1,18}$",
            shape: LocalizedText("the id of an event this server sent"),
            maxLength: 18,
            doc: "Resume after this event; the `Last-Event-ID` header wins."),
    ]
}
