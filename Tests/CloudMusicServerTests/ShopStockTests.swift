import Foundation
import Logging
import MusicCore
import Payments
import ServerTestSupport
import Storage
import Synchronization
import Testing

@testable import CloudMusicServer

/// Stock under concurrency, on a real SQLite file: the services as the server runs them, many buyers at once.
@Suite struct ShopStockTests {
    @Test func sixtyFourBuyersOfTheLastFiveItemsMakeFiveOrders() async throws {
        let database = try Database(path: temporaryFolder() + "/shop.sqlite")
        _ = try Schema.migrator.migrate(database)
        let buyers: [Int64] = try database.write { db in
            try (0..<64).map { index in
                try db.execute(
                    """
                    INSERT INTO users(email, nickname, nickname_key, password_hash, created_at, updated_at)
                    VALUES (?, ?, ?, 'x', 0, 0)
                    """, "buyer\(index)@example.com", "Buyer \(index)", "buyer \(index)")
                return db.lastInsertRowID
            }
        }
        let shop = ShopService(database: database)
        let product = try shop.createProduct(
            ProductDraft(title: "Last ones", onSale: true, skus: [SKUDraft(priceCents: 500, stock: 5)]))
        let skuID = try #require(product.skus.first?.id)
        let skuReference = try #require(ID<SKU>(skuID))
        let providers = try PaymentProviders(
            alipay: nil, wechatPay: nil,
            sandbox: SandboxConfiguration(privateKey: try SandboxConfiguration.newPrivateKey()))
        let orders = OrderService(
            database: database, providers: providers, logger: Logger(level: .error), expirySeconds: 600)

        // Every buyer on a thread of its own, all let go at once.
        let outcomes = try await offThread { () -> [Bool] in
            let results = Mutex<[Bool]>([])
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for buyer in buyers {
                group.enter()
                Thread {
                    start.wait()
                    let made =
                        (try? orders.create(userID: buyer, OrderDraft(skuId: skuReference, quantity: 1)))
                        != nil
                    results.withLock { $0.append(made) }
                    group.leave()
                }.start()
            }
            for _ in buyers { start.signal() }
            group.wait()
            return results.withLock { $0 }
        }
        #expect(outcomes.count == 64)
        #expect(outcomes.filter { $0 }.count == 5)
        let (stock, orderCount, lines) = try database.read { db in
            (
                try db.queryOne("SELECT stock FROM shop_skus WHERE id = ?", Int64(skuID)!) {
                    try $0.int("stock")
                },
                try db.queryOne("SELECT count(*) AS n FROM shop_orders") { try $0.int("n") },
                try db.queryOne("SELECT sum(quantity) AS n FROM shop_order_lines") { try $0.int("n") }
            )
        }
        #expect(stock == 0)
        #expect(orderCount == 5)
        #expect(lines == 5)
        // The table itself refuses a negative stock, whatever the SQL.
        #expect(throws: (any Error).self) {
            try database.write { db in try db.execute("UPDATE shop_skus SET stock = stock - 1") }
        }
    }
}
