import Foundation
import Payments
import ServerTestSupport
import Storage
import Testing

/// Whether process `pid` is stopped (SIGSTOP), from /proc.
private func isStopped(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(close, offsetBy: 2)...].first == "T"
}

/// kill -9 while a payment notice is handled, on a real SQLite file: the server stops itself at the chosen
/// point (CLOUDMUSIC_NOTIFY_STOP), the test kills it there, and a restarted server on the same data shows the
/// order paid once or not at all.
@Suite(.serialized) struct ShopCrashTests {
    /// Orders 2 of 10, sends the sandbox's signed notice to a server that stops at `point`, kills it there and
    /// starts another on the same data: the world on it, the order's id, the notice and the database.
    private func killedWhilePaying(at point: String) async throws -> (
        ShopWorld, String, ProviderMessage, Database
    ) {
        let world = try await ShopWorld.start(
            stock: 10, environment: ["CLOUDMUSIC_NOTIFY_STOP": point])
        let made = try await world.order(world.bob, quantity: 2)
        let orderID = try #require(made.data["id"] as? String, "\(made.json)")
        let notice = try world.sandbox().notification(for: paymentOrder(made.data), now: Date())
        let sending = Task { try? await world.notify("sandbox", body: notice.body, contentType: Self.form) }
        let stopped = await eventually { isStopped(world.server.child.pid) }
        try #require(stopped, "the server did not stop at \(point)")
        #expect(world.server.stop(signal: SIGKILL) == SIGKILL)
        _ = await sending.value

        let database = try Database(path: world.server.dataFolder + "/cloudmusic.sqlite")
        #expect(try database.read { try $0.queryOne("PRAGMA integrity_check") { try $0.string(0) } } == "ok")
        let restarted = try await TestServer.start(
            .empty, extraArguments: ["--data", world.server.dataFolder])
        return (world.on(restarted), orderID, notice, database)
    }

    static let form = "application/x-www-form-urlencoded; charset=utf-8"

    /// The order's state and how many of its history rows say it became paid.
    private func paidRows(_ world: ShopWorld, _ orderID: String) async throws -> (String?, Int) {
        let detail = try await world.server.call("GET", "/v1/orders/\(orderID)", token: world.bob)
        let history = detail.data["history"] as? [[String: Any]] ?? []
        return (detail.data["state"] as? String, history.filter { $0["to"] as? String == "paid" }.count)
    }

    @Test func killedInsideTheTransactionTheOrderIsUnpaidAndTheSameNoticePaysItOnce() async throws {
        let (world, orderID, notice, _) = try await killedWhilePaying(at: "in-transaction")
        #expect(try await paidRows(world, orderID) == ("created", 0))
        #expect(try await world.stock() == 8)

        #expect(
            try await world.notify("sandbox", body: notice.body, contentType: Self.form) == (200, "success"))
        #expect(try await paidRows(world, orderID) == ("paid", 1))
        #expect(
            try await world.notify("sandbox", body: notice.body, contentType: Self.form) == (200, "success"))
        #expect(try await paidRows(world, orderID) == ("paid", 1))
        #expect(try await world.stock() == 8)
        #expect(world.server.stop() == 0)
    }

    @Test func killedAfterTheCommitTheOrderIsPaidOnceAndTheResentNoticeChangesNothing() async throws {
        let (world, orderID, notice, database) = try await killedWhilePaying(at: "after-commit")
        #expect(try await paidRows(world, orderID) == ("paid", 1))
        #expect(try await world.stock() == 8)

        // The provider never heard `success`, so it sends the notice again: acknowledged, nothing changes.
        #expect(
            try await world.notify("sandbox", body: notice.body, contentType: Self.form) == (200, "success"))
        #expect(try await paidRows(world, orderID) == ("paid", 1))
        #expect(try await world.stock() == 8)
        let stored = try database.read {
            try $0.queryOne("SELECT count(*) FROM shop_payment_notifications") { try $0.int(0) }
        }
        #expect(stored == 1)
        #expect(world.server.stop() == 0)
    }
}
