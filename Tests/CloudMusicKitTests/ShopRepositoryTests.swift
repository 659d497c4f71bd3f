import Foundation
import MusicCore
import ServerTestSupport
import Testing

@testable import CloudMusicKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The shop through CloudMusicKit against a real server: browse, the cart written whole, an order from the
/// cart and one from a SKU, and the wait for the sandbox's signed notice to make the order paid.
@Suite struct ShopRepositoryTests {
    static func client(_ url: URL) -> APIClient {
        var configuration = APIClient.Configuration()
        configuration.baseRetryDelay = 0.02
        configuration.maxAttempts = 2
        return APIClient(baseURL: url, configuration: configuration)
    }

    @Test func aBuyerOrdersFromTheCartAndWaitsForTheServerToSayPaid() async throws {
        let server = try await TestServer.start()
        defer { server.stop() }
        let admin = MusicRepository(client: Self.client(server.baseURL))
        _ = try await admin.signUp(
            .email("shop-admin@example.com"), password: "shop-admin-pass-1", nickname: "店长")
        _ = try await admin.login(.email("shop-admin@example.com"), password: "shop-admin-pass-1")
        let headphones = try await admin.client.send(
            ShopAPI.createProduct,
            body: ProductDraft(
                title: "云音乐 耳机", details: "<p>好听</p>", onSale: true,
                skus: [
                    SKUDraft(options: ["colour": "red"], priceCents: 1990, stock: 10),
                    SKUDraft(options: ["colour": "blue"], priceCents: 2990, stock: 10),
                ]))
        let (red, blue) = (headphones.skus[0].id, headphones.skus[1].id)

        let buyer = MusicRepository(client: Self.client(server.baseURL))
        _ = try await buyer.signUp(
            .email("shop-bob@example.com"), password: "shop-bob-pass-1", nickname: "Bob")
        _ = try await buyer.login(.email("shop-bob@example.com"), password: "shop-bob-pass-1")
        let shop = ShopRepository(repository: buyer)

        #expect(try await shop.products(search: "耳机").data.map(\.id) == [headphones.id])
        #expect(try await shop.products(search: "no such thing").data.isEmpty)
        #expect(try await shop.product(id: headphones.id).skus.count == 2)

        try await shop.addToCart(skuID: red, quantity: 3)
        // Written whole: red down to 1, blue added.
        let cart = try await shop.replaceCart(with: [red: 1, blue: 2])
        #expect(
            Dictionary(uniqueKeysWithValues: cart.items.map { ($0.sku.id, $0.quantity) }) == [
                red: 1, blue: 2,
            ])
        #expect(cart.totalCents == 1990 + 2 * 2990)
        #expect(try await shop.replaceCart(with: [blue: 2]).items.map(\.sku.id) == [blue])

        let order = try await shop.orderCart()
        #expect(order.state == .created && order.totalCents == 2 * 2990)
        #expect(try await shop.cart().items.isEmpty)
        // Unpaid at the bound: said so, not taken for paid.
        guard case .stillUnpaid = try await shop.waitUntilPaid(orderID: order.id, bound: .milliseconds(300))
        else {
            Issue.record("an unpaid order was not reported unpaid")
            return
        }

        // The payer presses pay on the sandbox's page (as a browser would); the kit only asks the server.
        let launch = try await shop.pay(orderID: order.id, with: .sandbox)
        let page = try #require(launch.redirectUrl)
        let waiting = Task { try await shop.waitUntilPaid(orderID: order.id, firstDelay: .milliseconds(50)) }
        var press = URLRequest(url: URL(string: page + "&action=pay", relativeTo: server.baseURL)!)
        press.httpMethod = "POST"
        _ = try await URLSession.shared.data(for: press)
        guard case .paid(let paid) = try await waiting.value else {
            Issue.record("the paid order was not reported paid")
            return
        }
        #expect(paid.history?.map(\.to) == [.created, .paid])

        // One SKU, then cancelled: the wait ends at once.
        let single = try await shop.order(skuID: red, quantity: 2)
        #expect(single.totalCents == 2 * 1990)
        #expect(try await shop.cancel(orderID: single.id).state == .cancelled)
        guard case .ended = try await shop.waitUntilPaid(orderID: single.id) else {
            Issue.record("a cancelled order was not reported ended")
            return
        }
        let mine = try await shop.orders()
        #expect(mine.data.map(\.id) == [single.id, order.id])
        #expect(try await shop.order(id: order.id).state == .paid)
        // Another person's order is none of theirs.
        await #expect(throws: APIError.self) {
            try await ShopRepository(repository: admin).order(id: order.id)
        }
    }
}
