import Cryptography
import Foundation
import HTMLSanitizer
import Logging
import MusicCore
import Payments
import Storage

/// The rules of orders: stock reserved in the transaction that makes the order, given back in the one that
/// ends it unpaid (expired or cancelled); paid only by a provider's notification that verifies; refunded by
/// administrators through the provider. Every state change writes a history row in the same transaction.
final class OrderService: Sendable {
    let database: Database
    let providers: PaymentProviders
    let logger: Logger
    /// How long an unpaid order keeps its stock.
    let expirySeconds: Int64
    /// How long after shipping an order completes by itself unless its buyer confirms it first.
    let autoCompleteSeconds: Int64
    let clock: @Sendable () -> Int64
    let orders = OrderStore()
    let shop = ShopStore()
    /// Refused notices per address: past the allowance an address waits before its notices are even checked,
    /// so that a forger cannot make the server check signatures as fast as it can send.
    let refusedNotices = BackoffLimiter(
        "shop.notices.address",
        .init(allowed: OrderService.refusedNoticesAllowed, baseDelay: 60, forgetAfter: 600))
    static let refusedNoticesAllowed = 20

    static let noOrder = ServiceError.notFound("That order does not exist.")

    /// For crash tests: with CLOUDMUSIC_NOTIFY_STOP=in-transaction (or after-commit) the server stops itself
    /// (SIGSTOP) when a notice pays an order, before (or just after) its transaction commits, so that the
    /// test's SIGKILL lands there every time.
    enum CrashPoint: String {
        case inTransaction = "in-transaction"
        case afterCommit = "after-commit"
    }
    static let stopAt = ProcessInfo.processInfo.environment["CLOUDMUSIC_NOTIFY_STOP"].flatMap(
        CrashPoint.init(rawValue:))

    init(
        database: Database, providers: PaymentProviders, logger: Logger, expirySeconds: Int64,
        autoCompleteSeconds: Int64 = 15 * 86_400,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) {
        self.database = database
        self.providers = providers
        self.logger = logger
        self.expirySeconds = expirySeconds
        self.autoCompleteSeconds = autoCompleteSeconds
        self.clock = clock
    }

    // MARK: Ordering

    /// Orders one SKU (`draft.skuId`) or the whole cart, reserving the stock; refused whole when any line
    /// has too few left.
    func create(userID: Int64, _ draft: OrderDraft) throws -> Order {
        let single: (skuID: Int64, quantity: Int)? = try draft.skuId.map { id in
            (id.rawValue, try ShopService.quantity(draft.quantity ?? 1))
        }
        let id = try database.write { db -> Int64 in
            let now = clock()
            var wanted: [(sku: ShopStore.SKURecord, title: String, quantity: Int)] = []
            var cartItems: [Int64] = []
            if let single {
                guard let sku = try shop.sku(db, id: single.skuID),
                    let product = try shop.product(db, id: sku.productID), product.onSale
                else { throw ShopService.noSKU }
                wanted = [(sku, product.title, single.quantity)]
            } else {
                let cart = try shop.cart(db, userID: userID)
                guard !cart.isEmpty else {
                    throw ServiceError.invalid("Your cart is empty; put something in it, or order one SKU.")
                }
                for item in cart {
                    guard item.onSale else {
                        throw ServiceError.conflict(
                            "\(item.title) is no longer on sale; take it out of your cart first.")
                    }
                    wanted.append((item.sku, item.title, item.quantity))
                    cartItems.append(item.id)
                }
            }
            guard Set(wanted.map(\.sku.currency)).count == 1 else {
                throw ServiceError.conflict("One order takes one currency; order these separately.")
            }
            var total = 0
            for line in wanted {
                guard try shop.reserve(db, skuID: line.sku.id, quantity: line.quantity, now: now) else {
                    throw ServiceError.conflict(
                        "Not enough of \(line.title) is left for \(line.quantity); lower the quantity.")
                }
                total += line.sku.priceCents * line.quantity
            }
            guard total <= PaymentAmount.maximumCents else {
                throw ServiceError.invalid("One order can be at most 100000000.00; order less at a time.")
            }
            // Two orders in one second draw the same 8 digits once in a while at busy times (about one in
            // 100 seconds at 1,000 orders a second): drawn again, inside the write, so none is a 500.
            var number = Self.newNumber(now: now)
            while try orders.order(db, number: number) != nil { number = Self.newNumber(now: now) }
            let orderID = try orders.insert(
                db, userID: userID, number: number, totalCents: total,
                currency: wanted[0].sku.currency, expiresAt: now + expirySeconds, now: now)
            for line in wanted {
                try orders.insertLine(
                    db, orderID: orderID,
                    OrderStore.Line(
                        skuID: line.sku.id, title: line.title, options: line.sku.options,
                        priceCents: line.sku.priceCents, quantity: line.quantity))
            }
            try orders.record(db, orderID: orderID, from: nil, to: .created, why: "ordered", now: now)
            if !cartItems.isEmpty { try shop.emptyCart(db, userID: userID, itemIDs: cartItems) }
            return orderID
        }
        return try detail(userID: userID, id: id)
    }

    /// An order number: the UTC time and 8 random digits, so numbers do not tell how many orders there are.
    static func newNumber(now: Int64) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(now)))
        let time = [parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!]
            .enumerated().map { index, value in
                let text = String(value)
                return String(repeating: "0", count: max(0, (index == 0 ? 4 : 2) - text.count)) + text
            }.joined()
        return time + Crypto.randomDigits(8)
    }

    func list(userID: Int64, paging: Paging) throws -> Page<Order> {
        try database.read { db in
            let (records, total) = try orders.orders(db, userID: userID, paging: paging)
            let lines = try orders.lines(db, orderIDs: records.map(\.id))
            return Page(
                items: records.map { $0.model(lines: (lines[$0.id] ?? []).map(\.model)) }, total: total,
                page: paging.page, size: paging.size)
        }
    }

    /// One of the person's orders; another person's is the same 404 as none.
    func detail(userID: Int64, id: Int64) throws -> Order {
        try database.read { db in
            guard let record = try orders.order(db, id: id), record.userID == userID else {
                throw Self.noOrder
            }
            return try full(db, record)
        }
    }

    private func full(_ db: Connection, _ record: OrderStore.Record) throws -> Order {
        record.model(
            lines: (try orders.lines(db, orderIDs: [record.id])[record.id] ?? []).map(\.model),
            history: try orders.history(db, orderID: record.id))
    }

    func cancel(userID: Int64, id: Int64) throws -> Order {
        try database.write { db in
            guard let record = try orders.order(db, id: id), record.userID == userID else {
                throw Self.noOrder
            }
            guard try close(db, record, to: .cancelled, why: "cancelled by the buyer", now: clock()) else {
                throw ServiceError.conflict(
                    "Only an unpaid order can be cancelled; this one is \(record.state.rawValue).")
            }
            return try full(db, try orders.order(db, id: id) ?? record)
        }
    }

    /// Ends an unpaid order and gives its stock back; false when it was no longer unpaid.
    private func close(
        _ db: Connection, _ record: OrderStore.Record, to state: OrderState, why: String, now: Int64
    )
        throws -> Bool
    {
        guard try orders.move(db, orderID: record.id, from: .created, to: state, why: why, now: now) else {
            return false
        }
        for line in try orders.lines(db, orderIDs: [record.id])[record.id] ?? [] {
            if let skuID = line.skuID {
                try shop.release(db, skuID: skuID, quantity: line.quantity, now: now)
            }
        }
        return true
    }

    /// Expires the unpaid orders whose time is up, each in its own transaction; the number expired.
    @discardableResult
    func expireDue() throws -> Int {
        var count = 0
        while true {
            let now = clock()
            let due = try database.read { db in try orders.expired(db, now: now, limit: 100) }
            if due.isEmpty { return count }
            for record in due {
                let expired = try database.write { db in
                    try close(db, record, to: .expired, why: "not paid in time; stock released", now: now)
                }
                if expired {
                    count += 1
                    logger.info("event=order_expired order=\(record.number)")
                }
            }
        }
    }

    /// The buyer confirms a shipped order arrived (确认收货): it is completed.
    func confirmReceipt(userID: Int64, id: Int64) throws -> Order {
        try database.write { db in
            guard let record = try orders.order(db, id: id), record.userID == userID else {
                throw Self.noOrder
            }
            guard
                try orders.move(
                    db, orderID: id, from: .shipped, to: .completed, why: "received, as the buyer confirmed",
                    now: clock())
            else {
                throw ServiceError.conflict(
                    "Only a shipped order can be confirmed as received; this one is \(record.state.rawValue)."
                )
            }
            return try full(db, try orders.order(db, id: id) ?? record)
        }
    }

    /// Completes the shipped orders whose time is up, each in its own transaction; the number completed.
    @discardableResult
    func completeDue() throws -> Int {
        var count = 0
        while true {
            let now = clock()
            let due = try database.read { db in try orders.dueToComplete(db, now: now, limit: 100) }
            if due.isEmpty { return count }
            for record in due {
                let completed = try database.write { db in
                    try orders.move(
                        db, orderID: record.id, from: .shipped, to: .completed,
                        why: "completed by itself: not confirmed in time after shipping", now: now)
                }
                if completed {
                    count += 1
                    logger.info("event=order_completed order=\(record.number)")
                }
            }
        }
    }

    // MARK: Paying

    func startPayment(userID: Int64, orderID: Int64, choice: PaymentProviderChoice) throws -> PaymentLaunch {
        guard let id = PaymentProviderID(rawValue: choice.rawValue), let provider = providers[id] else {
            throw ServiceError.invalid(
                "This server does not take \(choice.rawValue); choose one of: \(offered).")
        }
        let now = clock()
        let order = try database.read { db -> PaymentOrder in
            guard let record = try orders.order(db, id: orderID), record.userID == userID else {
                throw Self.noOrder
            }
            guard record.state == .created, record.expiresAt > now else {
                throw ServiceError.conflict(
                    "Only an unpaid order can be paid; this one is \(record.state.rawValue).")
            }
            return try paymentOrder(db, record)
        }
        let step: PaymentStep
        do {
            step = try provider.payment(for: order, now: Date(timeIntervalSince1970: Double(now)))
        } catch {
            throw ServiceError.conflict("The payment cannot start: \(error.message)")
        }
        guard case .start(let start) = step else {
            throw ServiceError.unavailable(
                "Paying with \(choice.rawValue) needs a call to its server, which this server does not make yet; choose another way to pay."
            )
        }
        try database.write { db in
            try orders.setProvider(db, orderID: orderID, provider: id.rawValue, now: now)
        }
        switch start {
        case .redirect(let address): return PaymentLaunch(provider: choice, redirectUrl: address, qrCode: nil)
        case .qrCode(let text): return PaymentLaunch(provider: choice, redirectUrl: nil, qrCode: text)
        }
    }

    /// The providers this server takes, for messages.
    var offered: String { providers.all.keys.map(\.rawValue).sorted().joined(separator: ", ") }

    private func paymentOrder(_ db: Connection, _ record: OrderStore.Record) throws -> PaymentOrder {
        let titles = (try orders.lines(db, orderIDs: [record.id])[record.id] ?? []).map(\.title)
        return PaymentOrder(
            number: record.number, amount: PaymentAmount(cents: record.totalCents, currency: record.currency),
            subject: titles.joined(separator: ", "),
            expiresAt: Date(timeIntervalSince1970: Double(record.expiresAt)))
    }

    /// What a notification does, answered as its provider expects: believed (signature, app, freshness),
    /// checked against its order, and stored with its effect in one transaction before it is acknowledged.
    /// The same notification again changes nothing and is acknowledged again.
    /// `address` is where it came from (nil for the sandbox page's own): refused ones count against it.
    func handleNotification(from id: PaymentProviderID, _ message: ProviderMessage, address: String? = nil)
        throws -> NotificationAnswer
    {
        guard let provider = providers[id] else {
            throw ServiceError.notFound("This server does not take payments through \(id.rawValue).")
        }
        let now = clock()
        if let address,
            let wait = try database.read({ db in try refusedNotices.retryAfter(db, address, now: now) })
        {
            throw ServiceError.rateLimited(
                "Too many refused payment notices came from this address; try again in \(wait) seconds.",
                retryAfter: wait)
        }
        let refused = { [self] in
            guard let address else { return }
            do { try database.write { db in try refusedNotices.record(db, address, now: now) } } catch {
                logger.error("event=payment_notice_count_failed error=\"\(error)\"")
            }
        }
        let hasher = Crypto.Hasher()
        hasher.update(Data(message.body))
        let digest = hasher.finalizeHex()
        let notice: PaymentNotice
        do {
            notice = try provider.notice(from: message, now: Date(timeIntervalSince1970: Double(now)))
        } catch {
            logger.warning(
                "event=payment_notice_refused provider=\(id.rawValue) code=\(error.code) digest=\(digest) why=\"\(error.description)\""
            )
            refused()
            return provider.failedAnswer(error)
        }
        do {
            let outcome = try database.write { db -> String in
                if try orders.hasNotification(db, replayKey: notice.replayKey) { return "replay" }
                guard let record = try orders.order(db, number: notice.orderNumber) else {
                    throw PaymentRefusal.wrongOrder(notice.orderNumber)
                }
                let verdict = notice.verdict(
                    orderNumber: record.number,
                    amount: PaymentAmount(cents: record.totalCents, currency: record.currency))
                let stored: String
                switch verdict {
                case .refused(let refusal): throw refusal
                case .ignored: stored = "ignored"
                case .closed: stored = "closed"
                case .paid: stored = try applyPayment(db, record, notice, now: now)
                }
                try orders.insertNotification(
                    db, provider: id.rawValue, replayKey: notice.replayKey, orderID: record.id,
                    tradeID: notice.providerTradeNumber, amountCents: notice.amount.cents, digest: digest,
                    payload: notice.payload, verdict: stored, now: now)
                if stored == "paid", Self.stopAt == .inTransaction { raise(SIGSTOP) }
                return stored
            }
            if outcome == "paid", Self.stopAt == .afterCommit { raise(SIGSTOP) }
            logger.info(
                "event=payment_notice provider=\(id.rawValue) order=\(notice.orderNumber) outcome=\(outcome) notice=\(notice.notificationID)"
            )
            return provider.acceptedAnswer
        } catch let refusal as PaymentRefusal {
            logger.warning(
                "event=payment_notice_refused provider=\(id.rawValue) code=\(refusal.code) order=\(notice.orderNumber) digest=\(digest) why=\"\(refusal.description)\""
            )
            refused()
            return provider.failedAnswer(refusal)
        } catch {
            logger.error("event=payment_notice_failed provider=\(id.rawValue) error=\"\(error)\"")
            return provider.failedAnswer(nil)
        }
    }

    /// Marks an order paid, or records a payment it cannot take (late, or a second one) for refund; the
    /// verdict to store.
    private func applyPayment(
        _ db: Connection, _ record: OrderStore.Record, _ notice: PaymentNotice, now: Int64
    )
        throws -> String
    {
        let through = "\(notice.provider.rawValue) trade \(notice.providerTradeNumber)"
        let why: String
        switch record.state {
        case .created:
            let paidAt = notice.paidAt.map { Int64($0.timeIntervalSince1970) } ?? now
            _ = try orders.move(
                db, orderID: record.id, from: .created, to: .paid, why: "paid through \(through)", now: now,
                paidAt: paidAt, provider: notice.provider.rawValue, tradeID: notice.providerTradeNumber)
            return "paid"
        case .paid, .shipped, .completed:
            // Another notice of the same trade (Alipay's TRADE_FINISHED after TRADE_SUCCESS) changes nothing.
            if record.providerTradeID == notice.providerTradeNumber { return "already paid" }
            why = "paid a second time through \(through); refund due"
        case .cancelled, .expired, .refunded:
            why = "paid late through \(through); refund due"
        }
        try orders.markRefundDue(
            db, orderID: record.id, provider: notice.provider.rawValue, tradeID: notice.providerTradeNumber,
            now: now)
        try orders.record(db, orderID: record.id, from: record.state, to: record.state, why: why, now: now)
        return "refund due"
    }

    // MARK: The sandbox's page

    /// The order behind a sandbox page link, when the link's token is the one made for it.
    private func sandboxOrder(_ query: SandboxPayQuery) throws -> (
        SandboxProvider, PaymentOrder, OrderStore.Record
    ) {
        let invalid = ServiceError.notFound("This sandbox payment link is not valid.")
        guard let sandbox = providers[.sandbox] as? SandboxProvider else { throw invalid }
        return try database.read { db in
            guard let record = try orders.order(db, number: query.order) else { throw invalid }
            let order = try paymentOrder(db, record)
            guard sandbox.isValidPageToken(query.token, for: order) else { throw invalid }
            return (sandbox, order, record)
        }
    }

    /// The sandbox's payment page: clearly not a real cashier; its buttons post back to it.
    func sandboxPage(_ query: SandboxPayQuery) throws -> String {
        let (_, order, record) = try sandboxOrder(query)
        // The token checked out as hex and the number is the order's own, so both are safe in the address.
        let link = { (action: SandboxAction) in
            "/v1/shop/sandbox/pay?order=\(HTMLSanitizer.escaped(order.number))&amp;token="
                + "\(HTMLSanitizer.escaped(query.token))&amp;action=\(action.rawValue)"
        }
        let body =
            record.state == .created
            ? """
            <p>Order <b>\(HTMLSanitizer.escaped(order.number))</b>: \(HTMLSanitizer.escaped(order.subject))</p>
            <p class="amount">\(HTMLSanitizer.escaped(order.amount.description))</p>
            <form method="post" action="\(link(.pay))"><button id="pay">Pay (sandbox)</button></form>
            <form method="post" action="\(link(.cancel))"><button id="cancel">Cancel</button></form>
            """
            : "<p id=\"state\">This order is \(record.state.rawValue).</p>"
        return Self.page(body)
    }

    /// A button of the sandbox's page: the sandbox signs a notification and it goes through the same
    /// handling as a provider's.
    func sandboxAct(_ query: SandboxPayQuery) throws -> String {
        let (sandbox, order, _) = try sandboxOrder(query)
        let status: PaymentStatus = query.action == .cancel ? .closed : .paid
        let now = Date(timeIntervalSince1970: Double(clock()))
        let message: ProviderMessage
        do {
            message = try sandbox.notification(for: order, status: status, now: now)
        } catch {
            throw ServiceError.conflict("The sandbox cannot sign this payment: \(error.message)")
        }
        let answer = try handleNotification(from: .sandbox, message)
        let state = try database.read { db in try orders.order(db, number: order.number)?.state }
        let stored = answer.body == sandbox.acceptedAnswer.body
        return Self.page(
            "<p id=\"state\">\(stored ? "Done" : "Refused"): the order is \(state?.rawValue ?? "gone"). "
                + "Go back to the app, which shows it once the server has it.</p>")
    }

    private static func page(_ body: String) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1"><title>Sandbox payment</title>
        <style>body{font:16px system-ui;max-width:28rem;margin:2rem auto;padding:0 1rem}
        .banner{background:#7a4d00;color:#fff;padding:.75rem;border-radius:.5rem}
        .amount{font-size:2rem}button{font-size:1.1rem;padding:.6rem 1.4rem;margin:.3rem 0}</style></head>
        <body><p class="banner"><b>SANDBOX</b>: a test payment page of this server. No money moves.</p>
        \(body)</body></html>
        """
    }

    // MARK: Administrators

    func adminList(state: OrderState?, cursor: String?, size: Int) throws -> OrderList {
        let before = try PageCursor.id(cursor)
        return try database.read { db in
            let records = try orders.orders(db, state: state, before: before, limit: size + 1)
            let page = Array(records.prefix(size))
            let lines = try orders.lines(db, orderIDs: page.map(\.id))
            return OrderList(
                data: page.map { $0.model(lines: (lines[$0.id] ?? []).map(\.model)) },
                nextCursor: records.count > size ? page.last.map { String($0.id) } : nil)
        }
    }

    /// An administrator ships a paid order: its carrier and tracking number are kept and shown to the buyer.
    func ship(orderID: Int64, _ draft: ShipmentDraft) throws -> Order {
        guard let carrier = try ShipmentDraft.carrierText.check(draft.carrier) else {
            throw ServiceError.invalid("Give the carrier, such as 顺丰速运.")
        }
        guard
            let tracking = try ShipmentDraft.trackingNumberText.check(draft.trackingNumber)
        else { throw ServiceError.invalid("Give the tracking number.") }
        return try database.write { db in
            guard let record = try orders.order(db, id: orderID) else { throw Self.noOrder }
            let now = clock()
            guard
                try orders.ship(
                    db, orderID: orderID, carrier: carrier, trackingNumber: tracking,
                    completesAt: now + autoCompleteSeconds, why: "shipped by \(carrier), \(tracking)",
                    now: now)
            else {
                throw ServiceError.conflict(
                    "Only a paid order can be shipped; this one is \(record.state.rawValue).")
            }
            return try full(db, try orders.order(db, id: orderID) ?? record)
        }
    }

    /// Refunds a paid order (or a payment recorded for refund) in full through the provider that took it.
    func refund(orderID: Int64, reason: String?, by adminID: Int64) throws -> Order {
        let reason = try RefundDraft.reasonText.check(reason) ?? "refunded by the shop"
        let now = clock()
        let (record, count) = try database.read { db -> (OrderStore.Record, Int) in
            guard let record = try orders.order(db, id: orderID) else { throw Self.noOrder }
            return (record, try orders.notificationVerdicts(db, orderID: orderID).count)
        }
        let paid = [.paid, .shipped, .completed].contains(record.state)
        guard paid || record.refundDue else {
            throw ServiceError.conflict(
                "Only a paid order can be refunded; this one is \(record.state.rawValue).")
        }
        guard let name = record.provider, let id = PaymentProviderID(rawValue: name),
            let provider = providers[id]
        else {
            throw ServiceError.unavailable(
                "The provider this order was paid through is not set up on this server.")
        }
        let amount = PaymentAmount(cents: record.totalCents, currency: record.currency)
        let request = RefundRequest(
            orderNumber: record.number, refundNumber: "\(record.number)R\(count)", amount: amount,
            orderTotal: amount, reason: reason)
        let step: RefundStep
        do {
            step = try provider.refund(request, now: Date(timeIntervalSince1970: Double(now)))
        } catch {
            throw ServiceError.conflict("The refund cannot be asked for: \(error.message)")
        }
        guard case .done(let result) = step else {
            throw ServiceError.unavailable(
                "Refunds through \(name) need a call to its server, which this server does not make yet.")
        }
        guard result.status == .succeeded else {
            throw ServiceError.conflict(
                "The provider did not refund the order: \(String(describing: result.status)).")
        }
        return try database.write { db in
            guard let current = try orders.order(db, id: orderID), current.state == record.state else {
                throw ServiceError.conflict("The order changed meanwhile; look at it again.")
            }
            try orders.insertRefund(
                db, orderID: orderID, number: request.refundNumber, amountCents: amount.cents,
                status: "succeeded",
                providerRefundID: result.providerRefundNumber, reason: reason, payload: result.payload,
                createdBy: adminID, now: now)
            _ = try orders.move(
                db, orderID: orderID, from: record.state, to: .refunded, why: "refunded: \(reason)", now: now,
                refundDue: false)
            return try full(db, try orders.order(db, id: orderID) ?? record)
        }
    }
}
