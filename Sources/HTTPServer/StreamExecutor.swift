import Dispatch

/// Runs stream producers on Dispatch's threads instead of the shared cooperative pool.
///
/// The cooperative pool has one thread per core; anything else in the process that blocks it
/// (a library doing synchronous I/O in an async function) would otherwise stall every open
/// stream. Dispatch adds threads when its own are blocked.
final class StreamExecutor: TaskExecutor, Sendable {
    private let queue = DispatchQueue(label: "HTTPServer.streams", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
