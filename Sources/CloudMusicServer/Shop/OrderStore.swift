import Foundation
import MusicCore
import Storage

/// The SQL of orders, their lines and history, payment notifications and refunds. Every function runs on
/// its caller's connection.
struct OrderStore: Sendable {
    struct Record: Sendable {
        var id: Int64
        var userID: Int64?
        var number: String
        var state: OrderState
        var totalCents: Int
        var currency: String
        var provider: String?
        var expiresAt: Int64
        var paidAt: Int64?
        var providerTradeID: String?
        var refundDue: Bool
        var carrier: String?
        var trackingNumber: String?
        var shippedAt: Int64?
        var completesAt: Int64?
        var createdAt: Int64
        var updatedAt: Int64

        func model(lines: [OrderLine]? = nil, history: [OrderEvent]? = nil) -> Order {
            var shipment: OrderShipment?
            if let carrier, let trackingNumber, let shippedAt {
                shipment = OrderShipment(
                    carrier: carrier, trackingNumber: trackingNumber, shippedAt: APIDate.string(shippedAt),
                    completesAt: APIDate.string(completesAt ?? shippedAt))
            }
            return Order(
                id: String(id), number: number, state: state, totalCents: totalCents, currency: currency,
                provider: provider, expiresAt: APIDate.string(expiresAt), paidAt: paidAt.map(APIDate.string),
                refundDue: refundDue, lines: lines, history: history, shipment: shipment,
                createdAt: APIDate.string(createdAt), updatedAt: APIDate.string(updatedAt))
        }
    }

    struct Line: Sendable {
        var skuID: Int64?
        var title: String
        var options: [String: String]
        var priceCents: Int
        var quantity: Int

        var model: OrderLine {
            OrderLine(
                skuId: skuID.map { String($0) }, title: title, options: options, priceCents: priceCents,
                quantity: quantity)
        }
    }

    private static let columns = """
        id, user_id, number, state, total_cents, currency, provider, expires_at, paid_at, provider_trade_id,
        refund_due, carrier, tracking_number, shipped_at, completes_at, created_at, updated_at
        """

    private static func decode(_ row: Row) throws -> Record {
        Record(
            id: try row.int64("id"), userID: try row.optionalInt64("user_id"),
            number: try row.string("number"),
            state: OrderState(rawValue: try row.string("state")) ?? .created,
            totalCents: try row.int("total_cents"), currency: try row.string("currency"),
            provider: try row.optionalString("provider"), expiresAt: try row.int64("expires_at"),
            paidAt: try row.optionalInt64("paid_at"),
            providerTradeID: try row.optionalString("provider_trade_id"),
            refundDue: try row.bool("refund_due"), carrier: try row.optionalString("carrier"),
            trackingNumber: try row.optionalString("tracking_number"),
            shippedAt: try row.optionalInt64("shipped_at"),
            completesAt: try row.optionalInt64("completes_at"),
            createdAt: try row.int64("created_at"),
            updatedAt: try row.int64("updated_at"))
    }

    func order(_ db: Connection, id: Int64) throws -> Record? {
        try db.queryOne("SELECT \(Self.columns) FROM shop_orders WHERE id = ?", id, decode: Self.decode)
    }

    func order(_ db: Connection, number: String) throws -> Record? {
        try db.queryOne(
            "SELECT \(Self.columns) FROM shop_orders WHERE number = ?", number, decode: Self.decode)
    }

    /// A page of one person's orders, newest first.
    func orders(_ db: Connection, userID: Int64, paging: Paging) throws -> ([Record], total: Int) {
        let total =
            try db.queryOne("SELECT count(*) AS n FROM shop_orders WHERE user_id = ?", userID) {
                try $0.int("n")
            }
            ?? 0
        let records = try db.query(
            "SELECT \(Self.columns) FROM shop_orders WHERE user_id = ? ORDER BY id DESC LIMIT ? OFFSET ?",
            userID,
            paging.size, paging.offset, decode: Self.decode)
        return (records, total)
    }

    /// Orders before `before` (an id), newest first, in one state or all: a keyset page.
    func orders(_ db: Connection, state: OrderState?, before: Int64?, limit: Int) throws -> [Record] {
        var filter: [String] = []
        var arguments: [any SQLBindable] = []
        if let state {
            filter.append("state = ?")
            arguments.append(state.rawValue)
        }
        if let before {
            filter.append("id < ?")
            arguments.append(before)
        }
        let whereClause = filter.isEmpty ? "" : "WHERE " + filter.joined(separator: " AND ")
        return try db.query(
            "SELECT \(Self.columns) FROM shop_orders \(whereClause) ORDER BY id DESC LIMIT ?",
            arguments: arguments + [limit], decode: Self.decode)
    }

    /// Unpaid orders whose time ran out by `now`, the oldest first.
    func expired(_ db: Connection, now: Int64, limit: Int) throws -> [Record] {
        try db.query(
            """
            SELECT \(Self.columns) FROM shop_orders WHERE state = 'created' AND expires_at <= ?
            ORDER BY expires_at LIMIT ?
            """, now, limit, decode: Self.decode)
    }

    /// Shipped orders whose time to complete by themselves came by `now`, the oldest first.
    func dueToComplete(_ db: Connection, now: Int64, limit: Int) throws -> [Record] {
        try db.query(
            """
            SELECT \(Self.columns) FROM shop_orders WHERE state = 'shipped' AND completes_at <= ?
            ORDER BY completes_at LIMIT ?
            """, now, limit, decode: Self.decode)
    }

    /// Moves a paid order to shipped with how it travels and when it completes by itself, with its history
    /// row; false when it was no longer paid.
    func ship(
        _ db: Connection, orderID: Int64, carrier: String, trackingNumber: String, completesAt: Int64,
        why: String, now: Int64
    ) throws -> Bool {
        let changed = try db.execute(
            """
            UPDATE shop_orders SET state = 'shipped', carrier = ?, tracking_number = ?, shipped_at = ?,
                completes_at = ?, updated_at = ?
            WHERE id = ? AND state = 'paid'
            """, carrier, trackingNumber, now, completesAt, now, orderID)
        guard changed == 1 else { return false }
        try record(db, orderID: orderID, from: .paid, to: .shipped, why: why, now: now)
        return true
    }

    func insert(
        _ db: Connection, userID: Int64, number: String, totalCents: Int, currency: String, expiresAt: Int64,
        now: Int64
    ) throws -> Int64 {
        try db.execute(
            """
            INSERT INTO shop_orders(user_id, number, state, total_cents, currency, expires_at, created_at, updated_at)
            VALUES (?, ?, 'created', ?, ?, ?, ?, ?)
            """, userID, number, totalCents, currency, expiresAt, now, now)
        return db.lastInsertRowID
    }

    func insertLine(_ db: Connection, orderID: Int64, _ line: Line) throws {
        try db.execute(
            """
            INSERT INTO shop_order_lines(order_id, sku_id, title, options, price_cents, quantity)
            VALUES (?, ?, ?, ?, ?, ?)
            """, orderID, line.skuID, line.title, JSONColumn.text(line.options), line.priceCents,
            line.quantity)
    }

    /// The lines of `orderIDs`, by order.
    func lines(_ db: Connection, orderIDs: [Int64]) throws -> [Int64: [Line]] {
        guard !orderIDs.isEmpty else { return [:] }
        let rows = try db.query(
            """
            SELECT order_id, sku_id, title, options, price_cents, quantity FROM shop_order_lines
            WHERE order_id IN (SELECT value FROM json_each(?)) ORDER BY id
            """, JSONColumn.text(orderIDs)
        ) { row in
            (
                try row.int64("order_id"),
                Line(
                    skuID: try row.optionalInt64("sku_id"), title: try row.string("title"),
                    options: (try? JSONColumn.decode([String: String].self, try row.string("options")))
                        ?? [:],
                    priceCents: try row.int("price_cents"), quantity: try row.int("quantity"))
            )
        }
        return Dictionary(grouping: rows, by: \.0).mapValues { $0.map(\.1) }
    }

    func history(_ db: Connection, orderID: Int64) throws -> [OrderEvent] {
        try db.query(
            "SELECT from_state, to_state, why, at FROM shop_order_history WHERE order_id = ? ORDER BY id",
            orderID
        ) { row in
            OrderEvent(
                from: try row.optionalString("from_state").flatMap(OrderState.init(rawValue:)),
                to: OrderState(rawValue: try row.string("to_state")) ?? .created, why: try row.string("why"),
                at: APIDate.string(try row.int64("at")))
        }
    }

    /// Moves an order from `from` to `to` and writes the change in its history; false (nothing written) when
    /// the order was no longer in `from`, so two paths racing to change it change it once.
    func move(
        _ db: Connection, orderID: Int64, from: OrderState, to: OrderState, why: String, now: Int64,
        paidAt: Int64? = nil, provider: String? = nil, tradeID: String? = nil, refundDue: Bool? = nil
    ) throws -> Bool {
        let changed = try db.execute(
            """
            UPDATE shop_orders SET state = ?, updated_at = ?, paid_at = coalesce(?, paid_at),
                provider = coalesce(?, provider), provider_trade_id = coalesce(?, provider_trade_id),
                refund_due = coalesce(?, refund_due)
            WHERE id = ? AND state = ?
            """, to.rawValue, now, paidAt, provider, tradeID, refundDue, orderID, from.rawValue)
        guard changed == 1 else { return false }
        try record(db, orderID: orderID, from: from, to: to, why: why, now: now)
        return true
    }

    /// Writes a history row (the first has no `from`).
    func record(_ db: Connection, orderID: Int64, from: OrderState?, to: OrderState, why: String, now: Int64)
        throws
    {
        try db.execute(
            "INSERT INTO shop_order_history(order_id, from_state, to_state, why, at) VALUES (?, ?, ?, ?, ?)",
            orderID, from?.rawValue, to.rawValue, why, now)
    }

    /// Records that money came for an order that cannot take it; the provider that took it is kept when the
    /// order names none (an unpaid order never started paying through it here), so the refund goes there.
    func markRefundDue(_ db: Connection, orderID: Int64, provider: String, tradeID: String, now: Int64) throws
    {
        try db.execute(
            """
            UPDATE shop_orders SET refund_due = 1, provider = coalesce(provider, ?),
                provider_trade_id = coalesce(provider_trade_id, ?), updated_at = ? WHERE id = ?
            """, provider, tradeID, now, orderID)
    }

    func setProvider(_ db: Connection, orderID: Int64, provider: String, now: Int64) throws {
        try db.execute(
            "UPDATE shop_orders SET provider = ?, updated_at = ? WHERE id = ? AND state = 'created'",
            provider,
            now, orderID)
    }

    // MARK: Notifications and refunds

    /// Whether a notification with this replay key was stored already.
    func hasNotification(_ db: Connection, replayKey: String) throws -> Bool {
        try db.queryOne("SELECT 1 AS x FROM shop_payment_notifications WHERE replay_key = ?", replayKey) {
            try $0.int("x")
        } != nil
    }

    func insertNotification(
        _ db: Connection, provider: String, replayKey: String, orderID: Int64?, tradeID: String?,
        amountCents: Int, digest: String, payload: String, verdict: String, now: Int64
    ) throws {
        try db.execute(
            """
            INSERT INTO shop_payment_notifications(
                provider, replay_key, order_id, trade_id, amount_cents, digest, payload, verdict, at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, provider, replayKey, orderID, tradeID, amountCents, digest, payload, verdict, now)
    }

    /// The verdicts stored for an order's notifications, oldest first (for tests and audits).
    func notificationVerdicts(_ db: Connection, orderID: Int64) throws -> [String] {
        try db.query(
            "SELECT verdict FROM shop_payment_notifications WHERE order_id = ? ORDER BY id", orderID
        ) { try $0.string("verdict") }
    }

    func insertRefund(
        _ db: Connection, orderID: Int64, number: String, amountCents: Int, status: String,
        providerRefundID: String?, reason: String, payload: String, createdBy: Int64?, now: Int64
    ) throws {
        try db.execute(
            """
            INSERT INTO shop_refunds(order_id, number, amount_cents, status, provider_refund_id, reason, payload,
                created_by, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, orderID, number, amountCents, status, providerRefundID, reason, payload, createdBy, now)
    }
}
