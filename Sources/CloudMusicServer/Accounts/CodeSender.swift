import Foundation
import Storage

/// Delivers verification codes. The built-in one writes to the outbox table; an SMTP or SMS sender is
/// another implementation chosen at start-up.
protocol CodeSender: Sendable {
    /// Sends `text` to `target` over `channel` (`sms` or `email`) on its own; throws when delivery failed.
    func send(channel: String, target: String, purpose: String, text: String) throws

    /// Sends as part of the caller's write transaction `db`. A sender that keeps messages in the database
    /// writes them there, so a code and its message are committed (or rolled back) together, and answers
    /// nil; one that delivers elsewhere answers the delivery, which the caller runs once `db` committed.
    /// By default everything is delivered after the commit.
    func send(_ db: Connection, channel: String, target: String, purpose: String, text: String) throws
        -> CodeDelivery?
}

/// A message's delivery outside the database, run after the transaction that made its code committed.
typealias CodeDelivery = () throws -> Void

extension CodeSender {
    func send(_ db: Connection, channel: String, target: String, purpose: String, text: String) throws
        -> CodeDelivery?
    {
        { try self.send(channel: channel, target: target, purpose: purpose, text: text) }
    }
}

/// Writes each message to the outbox table, which administrators read at `GET /v1/admin/outbox`.
struct OutboxSender: CodeSender {
    let database: Database
    let store = AccountStore()
    let clock: @Sendable () -> Int64

    init(database: Database, clock: @escaping @Sendable () -> Int64) {
        self.database = database
        self.clock = clock
    }

    /// Writes the message in a transaction of its own.
    func send(channel: String, target: String, purpose: String, text: String) throws {
        try database.write { db in
            try store.insertOutbox(
                db, channel: channel, target: target, purpose: purpose, text: text, now: clock())
        }
    }

    /// Writes the message in the caller's transaction.
    func send(_ db: Connection, channel: String, target: String, purpose: String, text: String) throws
        -> CodeDelivery?
    {
        try store.insertOutbox(
            db, channel: channel, target: target, purpose: purpose, text: text, now: clock())
        return nil
    }
}
