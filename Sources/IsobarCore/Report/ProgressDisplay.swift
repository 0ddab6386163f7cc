import Foundation

/// The run's progress on stderr. On a terminal, one line redrawn in place: cities
/// done/total, requests sent, whether the rate limit is holding requests back, and the
/// time left. Elsewhere (cron, systemd, a log file) a plain line each time the run is
/// another 10 % further and a minute older, whichever comes later, so a long run leaves a
/// short log. `--quiet` shows neither; `--verbose` adds a line per city. Every other
/// line (warnings, errors) goes through `log`, which keeps the progress line below it.
public final class ProgressDisplay: BuildObserver, @unchecked Sendable {
    // @unchecked: every field is only touched under `lock`.
    public enum Mode: Sendable {
        case terminal
        case lines
        case quiet
    }

    private let lock = NSLock()
    private let mode: Mode
    private let verbose: Bool
    private let clock: MonotonicClock
    private let write: @Sendable (String) -> Void
    /// The least time between two plain lines (a minute; shorter in tests).
    private let lineInterval: TimeInterval
    private var total = 0
    private var done = 0
    private var requests = 0
    private var waiting = 0
    private var started: TimeInterval = 0
    private var lastLine: (time: TimeInterval, tenths: Int) = (0, 0)
    private var lastDraw: TimeInterval = -1
    /// What the terminal line shows now, "" when none.
    private var shown = ""

    public init(mode: Mode, verbose: Bool, clock: MonotonicClock = .system, lineInterval: TimeInterval = 60,
                write: @escaping @Sendable (String) -> Void) {
        self.mode = mode
        self.verbose = verbose
        self.clock = clock
        self.lineInterval = lineInterval
        self.write = write
    }

    public func runStarted(cities: Int) {
        lock.withLock {
            total = cities
            started = clock.now()
            lastLine = (started, 0)
            draw(force: true)
        }
    }

    public func requestSent() {
        lock.withLock {
            requests += 1
            draw(force: false)
        }
    }

    public func rateLimit(waiting isWaiting: Bool) {
        lock.withLock {
            waiting += isWaiting ? 1 : -1
            draw(force: false)
        }
    }

    public func cityDone(_ outcome: CityOutcome, requests sent: Int) {
        lock.withLock {
            done += 1
            if verbose {
                let detail = sent == 1 ? ", 1 request" : sent > 1 ? ", \(sent) requests" : ""
                emit("\(outcome.name): \(outcome.status.rawValue)\(detail)")
            }
            switch mode {
            case .terminal: draw(force: done == total)
            case .lines: lineIfDue()
            case .quiet: break
            }
        }
    }

    /// A line for stderr (a warning, an error, a summary) that must not be drawn over.
    public func log(_ line: String) {
        lock.withLock { emit(line) }
    }

    /// The run is over: the terminal line goes, so the summary stands alone.
    public func finish() {
        lock.withLock {
            if mode == .terminal, !shown.isEmpty {
                write("\r\u{1B}[K")
                shown = ""
            }
        }
    }

    // MARK: Under the lock

    private func emit(_ line: String) {
        if mode == .terminal, !shown.isEmpty {
            write("\r\u{1B}[K" + line + "\n" + shown)
        } else {
            write(line + "\n")
        }
    }

    /// Redraws the terminal line, at most ten times a second unless forced.
    private func draw(force: Bool) {
        guard mode == .terminal, total > 0 else { return }
        let now = clock.now()
        guard force || now - lastDraw >= 0.1 else { return }
        lastDraw = now
        shown = "isobar: " + status(now: now)
        write("\r\u{1B}[K" + shown)
    }

    private func lineIfDue() {
        guard total > 0 else { return }
        let now = clock.now()
        let tenths = done * 10 / total
        guard tenths > lastLine.tenths, now - lastLine.time >= lineInterval else { return }
        lastLine = (now, tenths)
        write("progress: " + status(now: now) + "\n")
    }

    private func status(now: TimeInterval) -> String {
        var parts = ["\(done)/\(total) cities (\(done * 100 / max(1, total)) %)", requests == 1 ? "1 request" : "\(requests) requests"]
        if waiting > 0 { parts.append("waiting for the rate limit") }
        let elapsed = now - started
        if done > 0, done < total, elapsed >= 2 {
            parts.append("about \(Self.duration(elapsed / Double(done) * Double(total - done))) left")
        }
        return parts.joined(separator: " · ")
    }

    /// `45 s`, `12 min`, `1 h 55 min`.
    public static func duration(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        if total < 60 { return "\(total) s" }
        let minutes = (total + 30) / 60
        if minutes < 60 { return "\(minutes) min" }
        if minutes < 48 * 60 { return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min" }
        let hours = (minutes + 30) / 60
        return hours % 24 == 0 ? "\(hours / 24) d" : "\(hours / 24) d \(hours % 24) h"
    }
}
