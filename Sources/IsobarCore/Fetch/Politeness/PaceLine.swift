import Foundation

/// One limit's pace over its UTC period (a day or a month): the limit spread evenly from
/// the period's first run — or its start, for a site that runs all the time — to its end
/// (README, "A call budget"). The run's allowance is read from it, and so is the time a
/// waiting city's calls come due, so the two can never disagree.
struct PaceLine {
    var limit: Int
    /// The calls already made in the period.
    var used: Int
    /// Where the spreading starts: the period's first run (never before its start nor after now).
    var anchor: Date
    var end: Date

    init(limit: Int, used: Int, firstRun: Date?, start: Date, end: Date, now: Date) {
        self.limit = limit
        self.used = used
        anchor = min(now, max(start, firstRun ?? start))
        self.end = end
    }

    /// The calls the line has allowed by `time`, beyond those used (negative when a run
    /// spent ahead of it).
    func allowed(by time: Date) -> Double {
        let span = end.timeIntervalSince(anchor)
        let share = span <= 0 ? 1 : min(1, time.timeIntervalSince(anchor) / span)
        return Double(limit) * share - Double(used)
    }

    /// When the line has allowed `calls` more; nil when they do not fit in what is left of
    /// the period's limit.
    func time(allowing calls: Int) -> Date? {
        let needed = used.saturatingAdd(calls)
        guard needed <= limit, limit > 0 else { return nil }
        return anchor.addingTimeInterval(end.timeIntervalSince(anchor) * Double(needed) / Double(limit))
    }

    /// The lines the limits draw for the day and the month `state.now` falls in.
    static func lines(_ limits: CallLimits, _ state: CallBudget.State) -> [PaceLine] {
        let period = CallPeriod(state.now)
        var lines: [PaceLine] = []
        if let daily = limits.daily {
            lines.append(PaceLine(limit: daily, used: state.dayCalls, firstRun: state.dayFirstRun, start: period.dayStart,
                                  end: period.dayStart.addingTimeInterval(CallPeriod.daySeconds), now: state.now))
        }
        if let monthly = limits.monthly {
            lines.append(PaceLine(limit: monthly, used: state.monthCalls, firstRun: state.monthFirstRun, start: period.monthStart,
                                  end: period.monthEnd, now: state.now))
        }
        return lines
    }

    /// When every line allows `calls` more, if nothing else is sent before: today, or on a
    /// later day or month, whose count starts from 0 and is spread from its start (a site
    /// run all day). Nil when a limit is smaller than `calls`: the pace never allows them.
    static func time(allowing calls: Int, limits: CallLimits, state: CallBudget.State) -> Date? {
        guard calls <= limits.daily ?? .max, calls <= limits.monthly ?? .max else { return nil }
        var at = state
        // A day's line, then perhaps the month's, move the time on: a few steps settle it.
        for _ in 0..<8 {
            let next = lines(limits, at).reduce(at.now) { max($0, $1.time(allowing: calls) ?? $1.end) }
            if next == at.now { break }
            let (from, to) = (CallPeriod(at.now), CallPeriod(next))
            if to.day != from.day { (at.dayCalls, at.dayFirstRun) = (0, nil) }
            if to.month != from.month { (at.monthCalls, at.monthFirstRun) = (0, nil) }
            at.now = next
        }
        return at.now
    }
}
