import Synchronization

/// A clock a test moves by hand, for a service's `clock`: windows of seconds (sign-in back-off, posting limits,
/// plays counted once in 30 s, a day's end) are tested at their edges, however long the machine takes to run
/// the steps.
final class TestClock: Sendable {
    private let seconds: Mutex<Int64>

    init(_ now: Int64 = 1_800_000_000) { seconds = Mutex(now) }

    var now: Int64 {
        get { seconds.withLock { $0 } }
        set { seconds.withLock { $0 = newValue } }
    }

    func read() -> Int64 { now }

    func advance(_ by: Int64) { seconds.withLock { $0 += by } }
}
