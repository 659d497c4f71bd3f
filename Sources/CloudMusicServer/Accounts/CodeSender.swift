import Foundation

/// Delivers verification codes. The built-in one writes to the outbox table; an SMTP or SMS sender is
/// another implementation chosen at start-up.
protocol CodeSender: Sendable {
    /// Sends `text` to `target` over `channel` (`sms` or `email`); throws when delivery failed.
    func send(channel: String, target: String, purpose: String, text: String) throws
}

/// Writes each message to the outbox table, which administrators read at `GET /v1/admin/outbox`.
struct OutboxSender: CodeSender {
    let store: AccountStore
    let clock: @Sendable () -> Int64

    func send(channel: String, target: String, purpose: String, text: String) throws {
        try store.insertOutbox(channel: channel, target: target, purpose: purpose, text: text, now: clock())
    }
}
