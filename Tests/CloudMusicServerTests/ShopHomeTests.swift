import Foundation
import ServerTestSupport
import Testing

/// The home carries the shop (商城): the products on sale, newest first, and a link to the whole list.
@Suite struct ShopHomeTests {
    @Test func theHomeShowsTheProductsOnSaleAndNotTheOthers() async throws {
        let world = try await ShopWorld.start()
        defer { _ = world.server.stop() }
        let hidden = try await world.server.call(
            "POST", "/v1/admin/shop/products",
            json: [
                "title": "未上架的杯子", "details": "<p>陶瓷</p>", "onSale": false,
                "skus": [["options": ["colour": "white"], "priceCents": 500, "stock": 3]],
            ], token: world.ann)
        try #require(hidden.status == 201, "\(hidden.json)")
        let shown = try await world.server.call(
            "POST", "/v1/admin/shop/products",
            json: [
                "title": "云音乐T恤", "details": "<p>纯棉</p>", "onSale": true,
                "skus": [["options": ["size": "M"], "priceCents": 9900, "stock": 3]],
            ], token: world.ann)
        try #require(shown.status == 201, "\(shown.json)")

        for token in [world.bob, nil] {
            let home = try await world.server.call("GET", "/v1/home", token: token)
            #expect(home.status == 200)
            let module = try #require(home.list.first { $0["moduleType"] as? String == "products" })
            let items = module["items"] as? [[String: Any]] ?? []
            #expect(items.compactMap { $0["title"] as? String } == ["云音乐T恤", "CloudMusic 耳机"])
            #expect(items.first?["priceCents"] as? Int == 9900)
            #expect(module["more"] as? String == "v1/shop/products")
        }
    }
}
