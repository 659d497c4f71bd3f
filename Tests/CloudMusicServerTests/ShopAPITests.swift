import Cryptography
import Foundation
import Payments
import ServerTestSupport
import Storage
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Alipay's keys for the shop tests, made by openssl: the app's own and Alipay's (which signs notifications),
/// and a stranger's.
private enum ShopKeys {
    static let app = SharedFixture { try await OpenSSLKeyPair.generate() }
    static let alipay = SharedFixture { try await OpenSSLKeyPair.generate() }
    static let stranger = SharedFixture { try await OpenSSLKeyPair.generate() }
    static let appID = "2021000000000077"
}

@Suite struct ShopAPITests {
    @Test func aCartBecomesAnOrderPaidOnlyByTheSandboxsSignedNotice() async throws {
        let world = try await ShopWorld.start(stock: 10)
        let server = world.server
        // The details were sanitized on the way in.
        let page = try await server.call("GET", "/v1/shop/products?q=耳机")
        #expect(page.ids == [world.productID], "\(page.json)")
        let details = page.items.first?["details"] as? String ?? ""
        #expect(details.contains("<b>headphones</b>") && !details.contains("script"), "\(details)")
        #expect(try await server.call("GET", "/v1/shop/products?q=nothing-like-it").ids.isEmpty)

        let cart = try await server.call(
            "POST", "/v1/carts", json: ["skuId": world.skuID, "quantity": 2], token: world.bob)
        #expect(cart.status == 200 && cart.data["totalCents"] as? Int == 3980, "\(cart.json)")
        // The cart is the server's: another session of Bob's sees it.
        let again = try await server.signIn(["email": "bob@example.com"])
        #expect((try await server.call("GET", "/v1/carts", token: again).data["items"] as? [Any])?.count == 1)

        let made = try await server.call("POST", "/v1/orders", json: [:], token: world.bob)
        #expect(made.status == 201, "\(made.json)")
        let orderID = made.data["id"] as? String ?? ""
        #expect(made.data["state"] as? String == "created")
        #expect(made.data["totalCents"] as? Int == 3980)
        #expect(try await world.stock() == 8)
        #expect(
            (try await server.call("GET", "/v1/carts", token: world.bob).data["items"] as? [Any])?.isEmpty
                == true)

        // Another person's order is not there for them.
        #expect(try await server.call("GET", "/v1/orders/\(orderID)", token: world.cy).status == 404)
        #expect(try await server.call("POST", "/v1/orders/\(orderID)/cancel", token: world.cy).status == 404)
        #expect(
            try await server.call(
                "POST", "/v1/orders/\(orderID)/payments", json: ["provider": "sandbox"], token: world.cy
            ).status == 404)

        let launch = try await server.call(
            "POST", "/v1/orders/\(orderID)/payments", json: ["provider": "sandbox"], token: world.bob)
        #expect(launch.status == 200, "\(launch.json)")
        let address = try #require(launch.data["redirectUrl"] as? String)
        #expect(address.hasPrefix("/v1/shop/sandbox/pay?order="))
        let (status, body) = try await server.get(address)
        #expect(status == 200)
        #expect(String(decoding: body, as: UTF8.self).contains("SANDBOX"))
        // The client's word is nothing: the order is unpaid until the notice comes.
        #expect(try await world.orderState(orderID, token: world.bob) == "created")
        // A forged link's page does nothing.
        let forged = address.replacingOccurrences(of: "token=", with: "token=00")
        #expect(try await server.call("POST", forged + "&action=pay").status >= 400)

        let paid = try await server.call("POST", address + "&action=pay")
        #expect(paid.status == 200)
        let detail = try await server.call("GET", "/v1/orders/\(orderID)", token: world.bob)
        #expect(detail.data["state"] as? String == "paid", "\(detail.json)")
        let history = (detail.data["history"] as? [[String: Any]] ?? []).map { $0["to"] as? String ?? "" }
        #expect(history == ["created", "paid"])
        let lines = detail.data["lines"] as? [[String: Any]] ?? []
        #expect(
            lines.first?["title"] as? String == "CloudMusic 耳机" && lines.first?["priceCents"] as? Int == 1990)

        // An administrator refunds it through the sandbox, which completes at once.
        #expect(
            try await server.call(
                "POST", "/v1/admin/shop/orders/\(orderID)/refund", json: [:], token: world.bob
            )
            .status == 403)
        let refunded = try await server.call(
            "POST", "/v1/admin/shop/orders/\(orderID)/refund", json: ["reason": "changed my mind"],
            token: world.ann)
        #expect(refunded.data["state"] as? String == "refunded", "\(refunded.json)")
    }

    @Test func theSameNoticeTwiceChangesNothingAndTamperedOnesAreRefused() async throws {
        let world = try await ShopWorld.start(stock: 3)
        let made = try await world.order(world.bob)
        let orderID = made.data["id"] as? String ?? ""
        let order = paymentOrder(made.data)
        let sandbox = try world.sandbox()
        let message = try sandbox.notification(for: order, now: Date())
        let form = String(decoding: message.body, as: UTF8.self)
        let type = "application/x-www-form-urlencoded; charset=utf-8"

        let tampered = form.replacingOccurrences(of: "total_amount=19.90", with: "total_amount=0.01")
        #expect(tampered != form)
        #expect(
            try await world.notify("sandbox", body: Array(tampered.utf8), contentType: type) == (
                200, "failure"
            ))
        let unsigned = form.split(separator: "&").filter { !$0.hasPrefix("sign=") }.joined(separator: "&")
        #expect(
            try await world.notify("sandbox", body: Array(unsigned.utf8), contentType: type) == (
                200, "failure"
            ))
        // A notice for another amount, signed properly, does not fit the order.
        var cheaper = order
        cheaper.amount.cents = 1
        let wrongAmount = try sandbox.notification(for: cheaper, now: Date())
        #expect(
            try await world.notify("sandbox", body: wrongAmount.body, contentType: type) == (200, "failure"))
        #expect(try await world.orderState(orderID, token: world.bob) == "created")

        #expect(try await world.notify("sandbox", body: message.body, contentType: type) == (200, "success"))
        #expect(try await world.notify("sandbox", body: message.body, contentType: type) == (200, "success"))
        let detail = try await world.server.call("GET", "/v1/orders/\(orderID)", token: world.bob)
        #expect(detail.data["state"] as? String == "paid")
        #expect((detail.data["history"] as? [Any])?.count == 2, "\(detail.json)")

        // After a refund, the old notice again (a replay) pays nothing.
        let refunded = try await world.server.call(
            "POST", "/v1/admin/shop/orders/\(orderID)/refund", json: [:], token: world.ann)
        #expect(refunded.data["state"] as? String == "refunded", "\(refunded.json)")
        #expect(try await world.notify("sandbox", body: message.body, contentType: type) == (200, "success"))
        #expect(try await world.orderState(orderID, token: world.bob) == "refunded")
        // Stock taken by a paid order stays taken (its goods may have gone).
        #expect(try await world.stock() == 2)
    }

    @Test func alipayNoticesAreCheckedForSignatureAppAmountAndReplay() async throws {
        let app = try await ShopKeys.app.value
        let alipay = try await ShopKeys.alipay.value
        let stranger = try await ShopKeys.stranger.value
        let world = try await ShopWorld.start(
            stock: 5,
            arguments: [
                "--alipay-app-id", ShopKeys.appID, "--alipay-private-key", app.privateKeyPath,
                "--alipay-public-key", alipay.publicKeyPath, "--shop-public-url", "https://shop.example.com",
            ])
        let made = try await world.order(world.bob, quantity: 2)
        let orderID = made.data["id"] as? String ?? ""
        let number = made.data["number"] as? String ?? ""
        let launch = try await world.server.call(
            "POST", "/v1/orders/\(orderID)/payments", json: ["provider": "alipay"], token: world.bob)
        #expect(
            (launch.data["redirectUrl"] as? String)?.hasPrefix(AlipayConfiguration.productionGateway) == true,
            "\(launch.json)")
        // The sandbox is off when a real provider is set.
        #expect(
            try await world.server.call(
                "POST", "/v1/orders/\(orderID)/payments", json: ["provider": "sandbox"], token: world.bob
            ).status == 400)

        func pairs(app: String = ShopKeys.appID, amount: String = "39.80", notifyID: String) -> [(
            String, String
        )] {
            [
                ("notify_id", notifyID), ("notify_time", "2026-12-05 12:00:00"),
                ("notify_type", "trade_status_sync"),
                ("app_id", app), ("charset", "utf-8"), ("version", "1.0"), ("out_trade_no", number),
                ("trade_no", "2026120522001400000000000001"), ("trade_status", "TRADE_SUCCESS"),
                ("total_amount", amount), ("gmt_payment", "2026-12-05 12:00:00"),
            ]
        }
        let type = "application/x-www-form-urlencoded; charset=utf-8"
        let refused: [[UInt8]] = [
            try await alipayNotification(pairs(amount: "0.01", notifyID: "n-tampered"), signedBy: alipay),
            try await alipayNotification(pairs(app: "2021000000000999", notifyID: "n-app"), signedBy: alipay),
            try await alipayNotification(pairs(notifyID: "n-unsigned"), signedBy: nil),
            try await alipayNotification(pairs(notifyID: "n-stranger"), signedBy: stranger),
        ]
        for body in refused {
            #expect(try await world.notify("alipay", body: body, contentType: type) == (200, "failure"))
        }
        // A signed notice whose amount was changed after signing.
        let good = try await alipayNotification(pairs(notifyID: "n-good"), signedBy: alipay)
        let changed = String(decoding: good, as: UTF8.self).replacingOccurrences(
            of: "total_amount=39.80", with: "total_amount=0.01")
        #expect(
            try await world.notify("alipay", body: Array(changed.utf8), contentType: type) == (200, "failure")
        )
        #expect(try await world.orderState(orderID, token: world.bob) == "created")

        #expect(try await world.notify("alipay", body: good, contentType: type) == (200, "success"))
        #expect(try await world.orderState(orderID, token: world.bob) == "paid")
        // Replayed: acknowledged (Alipay sends until it is), nothing changes.
        #expect(try await world.notify("alipay", body: good, contentType: type) == (200, "success"))
        let detail = try await world.server.call("GET", "/v1/orders/\(orderID)", token: world.bob)
        #expect((detail.data["history"] as? [Any])?.count == 2, "\(detail.json)")
        #expect(detail.data["provider"] as? String == "alipay")
        #expect(try await world.notify("sandbox", body: good, contentType: type).0 == 404)
    }

    @Test func anUnpaidOrderExpiresAcrossARestartAndALatePaymentIsRecordedForRefund() async throws {
        // The order's time runs out while the server is down: its stored deadline is moved into the past with
        // the server stopped (waiting for a short expiry instead failed on a loaded machine, where the server
        // stopped only after the order had expired).
        let world = try await ShopWorld.start(stock: 3, arguments: ["--order-expiry", "600"])
        let made = try await world.order(world.bob, quantity: 2)
        let orderID = made.data["id"] as? String ?? ""
        let sandbox = try world.sandbox()
        let late = try sandbox.notification(for: paymentOrder(made.data), now: Date())
        #expect(try await world.stock() == 1)
        #expect(try await world.orderState(orderID, token: world.bob) == "created")
        #expect(world.server.stop() == 0)
        let database = try Database(path: world.server.dataFolder + "/cloudmusic.sqlite")
        let moved = try database.write { db in
            try db.execute(
                "UPDATE shop_orders SET expires_at = ? WHERE id = ? AND state = 'created'",
                Int64(Date().timeIntervalSince1970) - 1, Int64(orderID) ?? 0)
        }
        try #require(moved == 1, "the order was not waiting for payment")
        let restarted = try await TestServer.start(
            .empty, extraArguments: ["--data", world.server.dataFolder])
        let back = ShopWorld(
            server: restarted, ann: world.ann, bob: world.bob, cy: world.cy, productID: world.productID,
            skuID: world.skuID)
        #expect(await eventually { (try? await back.orderState(orderID, token: back.bob)) == "expired" })
        #expect(try await back.stock() == 3)

        // Paid after it expired: recorded for a refund, the order stays expired, the stock stays released.
        let type = "application/x-www-form-urlencoded; charset=utf-8"
        #expect(try await back.notify("sandbox", body: late.body, contentType: type) == (200, "success"))
        let detail = try await restarted.call("GET", "/v1/orders/\(orderID)", token: back.bob)
        #expect(detail.data["state"] as? String == "expired")
        #expect(detail.data["refundDue"] as? Bool == true, "\(detail.json)")
        let whys = (detail.data["history"] as? [[String: Any]] ?? []).compactMap { $0["why"] as? String }
        #expect(whys.last?.contains("paid late") == true, "\(whys)")
        #expect(try await back.stock() == 3)
        let due = try await restarted.call("GET", "/v1/admin/shop/orders?state=expired", token: back.ann)
        #expect((due.data["data"] as? [[String: Any]])?.first?["refundDue"] as? Bool == true, "\(due.json)")
        let refunded = try await restarted.call(
            "POST", "/v1/admin/shop/orders/\(orderID)/refund", json: [:], token: back.ann)
        #expect(refunded.data["state"] as? String == "refunded", "\(refunded.json)")
        #expect(refunded.data["refundDue"] as? Bool == false)
    }

    @Test func theOwnerCancelsAnUnpaidOrderAndAdministratorsPageThroughOrders() async throws {
        let world = try await ShopWorld.start(stock: 10)
        var ids: [String] = []
        for _ in 0..<5 { ids.append(try await world.order(world.cy).data["id"] as? String ?? "") }
        #expect(try await world.stock() == 5)
        let cancelled = try await world.server.call("POST", "/v1/orders/\(ids[0])/cancel", token: world.cy)
        #expect(cancelled.data["state"] as? String == "cancelled", "\(cancelled.json)")
        #expect(try await world.stock() == 6)
        #expect(
            try await world.server.call("POST", "/v1/orders/\(ids[0])/cancel", token: world.cy).status == 409)

        var seen: [String] = []
        var cursor: String?
        repeat {
            let path = "/v1/admin/shop/orders?size=2" + (cursor.map { "&cursor=\($0)" } ?? "")
            let page = try await world.server.call("GET", path, token: world.ann)
            #expect(page.status == 200, "\(page.json)")
            seen += (page.data["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            cursor = page.data["nextCursor"] as? String
        } while cursor != nil
        #expect(seen == ids.reversed())
        #expect(try await world.server.call("GET", "/v1/admin/shop/orders", token: world.cy).status == 403)
        let mine = try await world.server.call("GET", "/v1/orders", token: world.cy)
        #expect(mine.ids == ids.reversed())
        #expect(try await world.server.call("GET", "/v1/orders", token: world.bob).ids.isEmpty)

        // Bad input gets a sentence, not a crash.
        #expect(try await world.order(world.cy, quantity: 0).status == 400)
        #expect(
            try await world.server.call("POST", "/v1/orders", json: ["skuId": "999999"], token: world.cy)
                .status == 404)
        let tooMany = try await world.order(world.cy, quantity: 7)
        #expect(tooMany.status == 409 && tooMany.message.contains("lower the quantity"), "\(tooMany.json)")
    }
}
