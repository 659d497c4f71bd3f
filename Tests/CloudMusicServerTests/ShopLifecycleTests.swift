import Foundation
import Payments
import ServerTestSupport
import Testing

/// After paid: an administrator ships, the buyer confirms receipt (or the order completes by itself after
/// the configured days, across a restart), each change one history row; refusals for wrong states and for
/// other people's orders.
@Suite struct ShopLifecycleTests {
    static let form = "application/x-www-form-urlencoded; charset=utf-8"

    /// Bob orders one and the sandbox's signed notice pays it: its id.
    private func paidOrder(_ world: ShopWorld) async throws -> String {
        let made = try await world.order(world.bob)
        let id = try #require(made.data["id"] as? String, "\(made.json)")
        let notice = try world.sandbox().notification(for: paymentOrder(made.data), now: Date())
        #expect(
            try await world.notify("sandbox", body: notice.body, contentType: Self.form) == (200, "success"))
        #expect(try await world.orderState(id, token: world.bob) == "paid")
        return id
    }

    @Test func anAdministratorShipsAndTheBuyerConfirmsReceipt() async throws {
        let world = try await ShopWorld.start(stock: 10)
        let server = world.server
        let id = try await paidOrder(world)
        let ship = ["carrier": "顺丰速运", "trackingNumber": "SF1234567890"]

        // Not yet shipped: nothing to confirm.
        let early = try await server.call("POST", "/v1/orders/\(id)/receipt", token: world.bob)
        #expect(early.status == 409 && early.message.contains("shipped"), "\(early.json)")
        // Only administrators ship, only paid orders, and with a carrier and number.
        #expect(
            try await server.call("POST", "/v1/admin/shop/orders/\(id)/ship", json: ship, token: world.bob)
                .status == 403)
        let unpaid = try await world.order(world.cy).data["id"] as? String ?? ""
        let notPaid = try await server.call(
            "POST", "/v1/admin/shop/orders/\(unpaid)/ship", json: ship, token: world.ann)
        #expect(notPaid.status == 409, "\(notPaid.json)")
        #expect(
            try await server.call(
                "POST", "/v1/admin/shop/orders/\(id)/ship", json: ["carrier": " ", "trackingNumber": "1"],
                token: world.ann
            ).status == 400)
        #expect(
            try await server.call(
                "POST", "/v1/admin/shop/orders/999999/ship", json: ship, token: world.ann
            ).status == 404)

        let shipped = try await server.call(
            "POST", "/v1/admin/shop/orders/\(id)/ship", json: ship, token: world.ann)
        #expect(shipped.data["state"] as? String == "shipped", "\(shipped.json)")
        #expect(
            try await server.call("POST", "/v1/admin/shop/orders/\(id)/ship", json: ship, token: world.ann)
                .status == 409)
        // The buyer sees how it travels; another person sees no such order.
        let seen = try await server.call("GET", "/v1/orders/\(id)", token: world.bob)
        let shipment = seen.data["shipment"] as? [String: Any] ?? [:]
        #expect(shipment["carrier"] as? String == "顺丰速运", "\(seen.json)")
        #expect(shipment["trackingNumber"] as? String == "SF1234567890")
        #expect(shipment["completesAt"] as? String != nil)
        #expect(try await server.call("POST", "/v1/orders/\(id)/receipt", token: world.cy).status == 404)
        #expect(try await server.call("POST", "/v1/orders/\(id)/cancel", token: world.cy).status == 404)
        // Shipped is past cancelling.
        #expect(try await server.call("POST", "/v1/orders/\(id)/cancel", token: world.bob).status == 409)

        let done = try await server.call("POST", "/v1/orders/\(id)/receipt", token: world.bob)
        #expect(done.data["state"] as? String == "completed", "\(done.json)")
        #expect(try await server.call("POST", "/v1/orders/\(id)/receipt", token: world.bob).status == 409)
        let history = done.data["history"] as? [[String: Any]] ?? []
        #expect(history.compactMap { $0["to"] as? String } == ["created", "paid", "shipped", "completed"])
        #expect((history[2]["why"] as? String)?.contains("SF1234567890") == true, "\(history)")
        // The stock was taken once, when the order was made (and Cy's unpaid order holds one).
        #expect(try await world.stock() == 8)
        // The buyer cancels the unpaid one: its stock goes back.
        #expect(
            try await server.call("POST", "/v1/orders/\(unpaid)/cancel", token: world.cy).data["state"]
                as? String == "cancelled")
        #expect(try await world.stock() == 9)
        let shippedList = try await server.call(
            "GET", "/v1/admin/shop/orders?state=completed", token: world.ann)
        #expect((shippedList.data["data"] as? [[String: Any]])?.count == 1, "\(shippedList.json)")
    }

    @Test func aShippedOrderCompletesByItselfAcrossARestart() async throws {
        // About 17 seconds: long enough for the server to stop first even on a loaded machine.
        let world = try await ShopWorld.start(stock: 3, arguments: ["--order-auto-complete", "0.0002"])
        let id = try await paidOrder(world)
        let shipped = try await world.server.call(
            "POST", "/v1/admin/shop/orders/\(id)/ship",
            json: ["carrier": "EMS", "trackingNumber": "EA000000001CN"], token: world.ann)
        let shipment = shipped.data["shipment"] as? [String: Any] ?? [:]
        let completesAt = try #require(
            ISO8601DateFormatter().date(from: shipment["completesAt"] as? String ?? ""), "\(shipped.json)")
        #expect(world.server.stop() == 0)
        try #require(Date() < completesAt, "the server stopped after the order completed: nothing was tested")
        #expect(await eventually { Date() > completesAt.addingTimeInterval(1) })

        let restarted = try await TestServer.start(
            .empty, extraArguments: ["--data", world.server.dataFolder])
        let back = world.on(restarted)
        #expect(await eventually { (try? await back.orderState(id, token: back.bob)) == "completed" })
        let detail = try await restarted.call("GET", "/v1/orders/\(id)", token: back.bob)
        let history = detail.data["history"] as? [[String: Any]] ?? []
        #expect(history.compactMap { $0["to"] as? String } == ["created", "paid", "shipped", "completed"])
        #expect((history.last?["why"] as? String)?.contains("by itself") == true, "\(history)")
        #expect(restarted.stop() == 0)
    }

    @Test func refusedNoticesFromOneAddressAreRateLimited() async throws {
        let world = try await ShopWorld.start(stock: 3)
        let made = try await world.order(world.bob)
        let id = made.data["id"] as? String ?? ""
        let genuine = try world.sandbox().notification(for: paymentOrder(made.data), now: Date())
        // Unsigned forgeries: each refused as the provider expects, until the address has used its allowance.
        let forged = Array(
            String(decoding: genuine.body, as: UTF8.self).replacingOccurrences(of: "sign=", with: "x=").utf8)
        var refusedCount = 0
        while refusedCount < 20 {
            let (status, answer) = try await world.notify("sandbox", body: forged, contentType: Self.form)
            #expect((status, answer) == (200, "failure"))
            refusedCount += 1
        }
        let limited = try await world.server.call(
            "POST", "/v1/shop/notify/sandbox", body: Data(forged), contentType: Self.form)
        #expect(limited.status == 429, "\(limited.json)")
        #expect(limited.json["status"] as? Int == 429, "\(limited.json)")
        #expect(limited.message.contains("Too many refused"), "\(limited.json)")
        #expect(limited.response.value(forHTTPHeaderField: "Retry-After") != nil)
        // While it waits, even a genuine notice from that address is not looked at.
        let waiting = try await world.notify("sandbox", body: genuine.body, contentType: Self.form)
        #expect(waiting.0 == 429)
        #expect(try await world.orderState(id, token: world.bob) == "created")
        // The sandbox page's own button is not a request from outside, and still pays.
        let page = try await world.server.call(
            "POST", "/v1/orders/\(id)/payments", json: ["provider": "sandbox"], token: world.bob)
        let link = try #require(page.data["redirectUrl"] as? String, "\(page.json)")
        #expect(try await world.server.call("POST", link + "&action=pay").status == 200)
        #expect(try await world.orderState(id, token: world.bob) == "paid")
    }
}
