import Dispatch

/// Runs blocking file reads off Swift's cooperative thread pool, which has one thread per
/// core: a read that waits for the disk there leaves a core idle. On this project's
/// machine little of a large data set stays in the page cache, and scheduler traces of a
/// 1,000-city build showed 87 % of its threads' sleeps were such reads. A queue of our own
/// runs on Dispatch's overcommitting threads, which may outnumber the cores, so the pool
/// goes on rendering other cities while the disk works.
enum BlockingReads {
    private static let queue = DispatchQueue(label: "isobar.blocking-reads", attributes: .concurrent)

    static func perform<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
