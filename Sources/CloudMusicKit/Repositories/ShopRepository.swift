import Foundation
import MusicCore

/// The shop as a client uses it: products, the cart (the server's, so the same on every device), orders, and
/// the wait for the server's word that an order is paid.
///
/// A client never decides that an order is paid: after the payer comes back from the provider's page,
/// `waitUntilPaid` asks the server for the order's state, with back-off, until the provider's signed notice
/// has made it paid, the order ended otherwise, or the bound passed.
public final class ShopRepository: Sendable {
    public let repository: MusicRepository

    public init(repository: MusicRepository) { self.repository = repository }

    private var client: APIClient { repository.client }

    // MARK: Products

    /// Products on sale, newest first; `search` finds text in titles and details (CJK too).
    public func products(search: String? = nil, page: Int = 1, size: Int = 20) async throws -> Page<Product> {
        try await client.send(ShopAPI.products, query: ProductQuery(q: search, page: page, size: size))
    }

    public func product(id: String) async throws -> Product {
        try await client.send(ShopAPI.product, path: IDPath(id))
    }

    // MARK: Cart

    public func cart() async throws -> Cart { try await client.send(ShopAPI.cart) }

    /// Puts `quantity` of a SKU in the cart, on top of what is there.
    @discardableResult
    public func addToCart(skuID: String, quantity: Int = 1) async throws -> Cart {
        try await client.send(
            ShopAPI.addToCart,
            body: CartAddition(skuId: try ID(validating: skuID, field: "skuId"), quantity: quantity))
    }

    /// Makes the cart hold exactly `quantities` (SKU id → quantity; 0 or absent takes a SKU out), changing
    /// only what differs from the server's cart: a cart edited offline is written back this way.
    @discardableResult
    public func replaceCart(with quantities: [String: Int]) async throws -> Cart {
        var cart = try await cart()
        for item in cart.items {
            let wanted = quantities[item.sku.id] ?? 0
            if wanted <= 0 {
                cart = try await client.send(ShopAPI.removeFromCart, path: IDPath(item.id))
            } else if wanted != item.quantity {
                cart = try await client.send(
                    ShopAPI.setCartQuantity, path: IDPath(item.id), body: CartQuantity(quantity: wanted))
            }
        }
        let present = Set(cart.items.map(\.sku.id))
        for (skuID, quantity) in quantities.sorted(by: { $0.key < $1.key })
        where quantity > 0 && !present.contains(skuID) {
            cart = try await addToCart(skuID: skuID, quantity: quantity)
        }
        return cart
    }

    // MARK: Orders

    /// Orders the whole cart; the stock is reserved until the order is paid or expires.
    public func orderCart() async throws -> Order {
        try await client.send(ShopAPI.order, body: OrderDraft())
    }

    /// Orders `quantity` of one SKU.
    public func order(skuID: String, quantity: Int = 1) async throws -> Order {
        try await client.send(
            ShopAPI.order,
            body: OrderDraft(skuId: try ID(validating: skuID, field: "skuId"), quantity: quantity))
    }

    /// One's orders, newest first.
    public func orders(page: Int = 1, size: Int = 20) async throws -> Page<Order> {
        try await client.send(ShopAPI.orders, query: PageQuery(page: page, size: size))
    }

    /// One's order with its lines, history and shipment.
    public func order(id: String) async throws -> Order {
        try await client.send(ShopAPI.orderDetail, path: IDPath(id))
    }

    /// Cancels an unpaid order; its stock goes back.
    public func cancel(orderID: String) async throws -> Order {
        try await client.send(ShopAPI.cancelOrder, path: IDPath(orderID))
    }

    /// Confirms that a shipped order arrived (确认收货).
    public func confirmReceipt(orderID: String) async throws -> Order {
        try await client.send(ShopAPI.confirmReceipt, path: IDPath(orderID))
    }

    /// Starts paying: where to send the payer (a page to open, or a code to show).
    public func pay(orderID: String, with provider: PaymentProviderChoice) async throws -> PaymentLaunch {
        try await client.send(ShopAPI.pay, path: IDPath(orderID), body: PaymentChoice(provider: provider))
    }

    // MARK: Waiting for the payment

    /// How a wait for a payment ended.
    public enum PaymentWait: Sendable, Equatable {
        /// The server has the provider's notice: the order is paid (or already further along).
        case paid(Order)
        /// The order ended unpaid (expired or cancelled), so it will not be paid.
        case ended(Order)
        /// Still unpaid when the bound passed: show "waiting for the provider" and let the person look again.
        case stillUnpaid(Order)
    }

    /// Asks the server for the order's state until it is paid or ended, waiting `firstDelay` and then twice
    /// as long each time up to `maxDelay`, for at most `bound` in all. A network error in between is waited
    /// out like an unpaid answer; one on the last look is thrown.
    public func waitUntilPaid(
        orderID: String, bound: Duration = .seconds(120), firstDelay: Duration = .milliseconds(250),
        maxDelay: Duration = .seconds(5)
    ) async throws -> PaymentWait {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: bound)
        var delay = firstDelay
        var last: Order?
        while true {
            do {
                let order = try await order(id: orderID)
                last = order
                switch order.state {
                case .paid, .shipped, .completed: return .paid(order)
                // Refunded after it was paid, or a late payment of an ended order given back.
                case .refunded: return order.paidAt != nil ? .paid(order) : .ended(order)
                case .cancelled, .expired: return .ended(order)
                case .created: break
                }
            } catch let error as APIError where error.kind == .network && clock.now < deadline {
                _ = error
            }
            let left = clock.now.duration(to: deadline)
            if left <= .zero {
                if let last { return .stillUnpaid(last) }
                return .stillUnpaid(try await order(id: orderID))
            }
            try await Task.sleep(for: min(delay, left))
            delay = min(delay * 2, maxDelay)
        }
    }
}
