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
            // Thousands stay open: a small block (frames are short) instead of media's 32 KiB each.
            return .stream(contentType: ServerSentEvents.contentType, headers: headers, blockSize: 1 << 10) {
                [database, log] writer in
                let subscription = log.hub.subscribe(userID: viewer.userID, device: viewer.sessionID)
                defer { subscription.cancel() }
                writer.onClose { subscription.end() }
                let (latest, missed) = try database.read { db in
                    let latest = try log.latestID(db)
                    let missed = try resume.map {
                        try log.missed(
                            db, userID: viewer.userID, after: $0, latest: latest, limit: Self.maxReplay)
                    }
                    return (latest, missed)
                }
                var opening = Data("retry: 2000\n\n".utf8)
                switch missed {
                case .none:
                    break
                case .some(let events?) where events.count <= Self.maxReplay:
                    for event in events { opening.append(event.frame) }
                case .some:
                    opening.append(Data("event: \(ServerEventKind.reload.rawValue)\ndata: {}\n\n".utf8))
                }
                let ready = #"{"lastEventId":"\#(latest)"}"#
                opening.append(
                    Data("id: \(latest)\nevent: \(ServerEventKind.ready.rawValue)\ndata: \(ready)\n\n".utf8))
                try await writer.write(opening)
                var sent = latest
                while let delivery = await subscription.next() {
                    switch delivery {
                    case .event(let event):
                        guard event.id > sent else { continue }
                        sent = event.id
                        try await writer.write(event.frame)
                    case .heartbeat:
                        try await writer.write(Data(": ping\n\n".utf8))
                    case .replaced:
                        try await writer.write(
                            Data("event: \(ServerEventKind.replaced.rawValue)\ndata: {}\n\n".utf8))
                        return
                    }
                }
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
