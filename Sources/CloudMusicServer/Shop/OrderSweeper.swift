import Foundation
import Logging
import Synchronization

/// Expires unpaid orders whose time is up, and completes shipped ones whose time is up, at start and then
/// every second, on a thread of its own. Both times are stored with each order, so orders whose time ran out
/// while the server was down are dealt with at start.
final class OrderSweeper: Sendable {
    let orders: OrderService
    let logger: Logger
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)

    init(orders: OrderService, logger: Logger) {
        self.orders = orders
        self.logger = logger
    }

    func start() {
        let thread = Thread { [self] in
            while !stopping.load(ordering: .relaxed) {
                do { try orders.expireDue() } catch {
                    logger.error("event=order_expiry_failed error=\"\(error)\"")
                }
                do { try orders.completeDue() } catch {
                    logger.error("event=order_completion_failed error=\"\(error)\"")
                }
                if wake.wait(timeout: .now() + .seconds(1)) == .success { break }
            }
            done.signal()
        }
        thread.name = "order-sweeper"
        thread.start()
    }

    func stop() {
        stopping.store(true, ordering: .relaxed)
        wake.signal()
        done.wait()
    }
}
