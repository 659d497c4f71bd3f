import Foundation
import Synchronization

/// Collects what a stream yields, so that a test can wait for it by polling.
final class Collector<Element: Sendable>: Sendable {
    private final class Box: Sendable {
        let items = Mutex<[Element]>([])
        let ended = Mutex(false)
    }

    private let box = Box()
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<Element>) {
        let box = self.box
        task = Task {
            for await item in stream { box.items.withLock { $0.append(item) } }
            box.ended.withLock { $0 = true }
        }
    }

    deinit { task.cancel() }

    var values: [Element] { box.items.withLock { $0 } }
    var isFinished: Bool { box.ended.withLock { $0 } }
}
