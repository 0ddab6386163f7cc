import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where a run's share cards are drawn. `helpers`: in `CardHelperProcess`es, as many as
/// the machine has cores, each drawing one card at a time with its own fonts — a card
/// is bounded by `timeLimit`, a crash while drawing costs that card only, and cards are
/// drawn in parallel. `here`: in this process, one at a time (`CardRasterizer`'s lock),
/// for a caller that is not the `isobar` binary (the tests that build in process).
///
/// When `failuresInARow` cards fail one after another, the theme's card is taken to be
/// what fails: no more cards are drawn this run, so a card that hangs costs the run a few
/// time limits, not one per city.
final class CardHelpers: @unchecked Sendable {
    static let timeLimit: TimeInterval = 10
    static let failuresInARow = 3

    private let executable: String?
    private let timeLimit: TimeInterval
    private let lock = NSLock()
    private var idle: [CardHelperProcess] = []
    private let slots: DispatchSemaphore
    private var failures = 0
    private var gaveUp: String?

    /// `executable`: the `isobar` binary to run as helpers; nil draws here.
    init(executable: String?, count: Int = ProcessInfo.processInfo.activeProcessorCount, timeLimit: TimeInterval = CardHelpers.timeLimit) {
        self.executable = executable
        self.timeLimit = timeLimit
        slots = DispatchSemaphore(value: executable == nil ? 1 : max(1, count))
        // A helper that died mid-card must fail its write, not kill the build.
        if executable != nil { signal(SIGPIPE, SIG_IGN) }
    }

    deinit {
        for helper in idle { helper.finish() }
    }

    func png(svg: String, width: Int, height: Int) throws(CardRasterizer.Failure) -> Data {
        if let gaveUp = lock.withLock({ gaveUp }) { throw CardRasterizer.Failure(message: gaveUp) }
        guard let executable else { return try counted { () throws(CardRasterizer.Failure) in try CardRasterizer.png(svg: svg, width: width, height: height) } }
        slots.wait()
        defer { slots.signal() }
        let helper: CardHelperProcess
        if let reused = lock.withLock({ idle.popLast() }) { helper = reused } else { helper = try CardHelperProcess.start(executable) }
        defer {
            // Hung or crashed: stopped, and the next card gets a new helper.
            if helper.broken { helper.kill() } else { lock.withLock { idle.append(helper) } }
        }
        return try counted { () throws(CardRasterizer.Failure) in try helper.draw(svg: svg, width: width, height: height, limit: timeLimit) }
    }

    private func counted(_ draw: () throws(CardRasterizer.Failure) -> Data) throws(CardRasterizer.Failure) -> Data {
        do {
            let png = try draw()
            lock.withLock { failures = 0 }
            return png
        } catch {
            lock.withLock {
                failures += 1
                if failures >= Self.failuresInARow, gaveUp == nil {
                    gaveUp = "no more share cards are drawn this run: \(failures) in a row could not be (the last: \(error.message))"
                }
            }
            throw error
        }
    }
}
