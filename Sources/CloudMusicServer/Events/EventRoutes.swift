import Foundation
import HTTPServer
import MusicCore
import Storage

/// `GET /v1/events`: a person's live events as Server-Sent Events, and the chat token that opens it.
///
/// A stream first replays what it missed after `Last-Event-ID` (or says `reload` when that is no longer
/// kept), then says `ready`, then sends what the hub delivers. It subscribes before it reads the log, so an
/// event committed meanwhile comes by one way or both, and one already sent is skipped by its id.
struct EventRoutes {
    let database: Database
    let log: EventLog
    let accounts: AccountService
    /// The most missed events replayed; beyond it the client reloads.
    static let maxReplay = 1_000

    func register(on api: EndpointRouter) {
        api.on(EventsAPI.token) { call in try accounts.newChatToken(for: call.caller) }
        api.on(EventsAPI.stream) { call in
            let viewer = call.caller
            let resume = try Self.lastEventID(call.request.headers["Last-Event-ID"] ?? call.query.lastEventId)
            let headers = HTTPHeaders([("Cache-Control", "no-store"), ("X-Accel-Buffering", "no")])
            // A push stream: thousands stay open, each a socket and a subscription, no task or thread.
            return .push(contentType: ServerSentEvents.contentType, headers: headers) {
                [database, log] stream in
                let subscription = log.hub.subscribe(
                    userID: viewer.userID, device: viewer.sessionID, sink: stream)
                stream.onClose { subscription.cancel() }
                let read: (latest: Int64, missed: [StoredEvent]??)?
                do {
                    read = try database.read { db in
                        // Its session may have ended since the token was checked, before the hub knew
                        // of this stream to end it.
                        guard try log.sessionIsOpen(db, id: viewer.sessionID) else { return nil }
                        let latest = try log.latestID(db)
                        let missed = try resume.map {
                            try log.missed(
                                db, userID: viewer.userID, after: $0, latest: latest, limit: Self.maxReplay)
                        }
                        return (latest, missed)
                    }
                } catch {
                    // The client reconnects after `retry`; the stream ends rather than skip what it missed.
                    stream.finish()
                    return
                }
                guard let opened = read else {
                    subscription.cancel()
                    return
                }
                var opening = Data("retry: 2000\n\n".utf8)
                switch opened.missed {
                case .none:
                    break
                case .some(let events?) where events.count <= Self.maxReplay:
                    for event in events { opening.append(event.frame) }
                case .some:
                    opening.append(Data("event: \(ServerEventKind.reload.rawValue)\ndata: {}\n\n".utf8))
                }
                let ready = #"{"lastEventId":"\#(opened.latest)"}"#
                opening.append(
                    Data(
                        "id: \(opened.latest)\nevent: \(ServerEventKind.ready.rawValue)\ndata: \(ready)\n\n"
                            .utf8))
                subscription.open(with: opening, after: opened.latest)
            }
        }
    }

    /// A `Last-Event-ID` as sent: digits, or nothing.
    static func lastEventID(_ text: String?) throws -> Int64? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        guard let id = Int64(text), id >= 0 else {
            throw ServiceError.invalid("'Last-Event-ID' must be the id of an event this server sent.")
        }
        return id
    }
}
