import Foundation

/// The call budget of one provider for one run: `daily_limit` and `monthly_limit`
/// counted across runs in the cache's `budget.json`. Every request is counted, and the
/// ledger written, before it is sent; one the limits do not allow is never sent.
///
/// Several runs may share one cache at once — a cron build and `isobar serve`, or builds
/// with different `--output` folders — so each count is read from the ledger on disk,
/// incremented and written back under an exclusive lock on `budget.lock` beside it:
/// no run's calls are lost to another's write.
public actor CallBudget {
    public nonisolated let provider: String
    public nonisolated let limits: CallLimits
    public nonisolated let file: URL
    private let now: @Sendable () -> Date
    private var ledger = CallLedger()
    private var count = CallLedger.Count(day: "", dayCalls: 0, month: "", monthCalls: 0)
    /// When the run before this one started (nil: none recorded).
    public private(set) var previousRun: Date?
    private var sentThisRun = 0
    private var refusedThisRun = 0
    /// `budget.lock`, opened once per run; -1 until the ledger is opened.
    private var lockDescriptor: Int32 = -1

    deinit {
        if lockDescriptor >= 0 { close(lockDescriptor) }
    }

    public init(provider: String, limits: CallLimits, cache: URL, now: @escaping @Sendable () -> Date) {
        self.provider = provider
        self.limits = limits
        self.file = cache.appendingPathComponent(CallLedger.fileName)
        self.now = now
    }

    /// Reads the ledger and writes it back with this run's start (the next run paces from
    /// it), under the output lock, before any request. Returns what to tell the user about
    /// a ledger that cannot be trusted: missing while the cache holds responses,
    /// unreadable, empty, corrupt, or another version. Then it counts high: as many calls
    /// as the limits' pace can have allowed by now — the share of the day and month gone
    /// plus the longest interval (1 h) ahead, which the run before may have spent — and
    /// never fewer than the responses the cache shows were fetched in them (`cachedSince`
    /// counts those).
    public func open(cachedSince: @Sendable (Date) -> Int) throws -> String? {
        try locked { try openLocked(cachedSince: cachedSince) }
    }

    private func openLocked(cachedSince: @Sendable (Date) -> Int) throws -> String? {
        let time = now()
        let period = CallPeriod(time)
        var doubt: CallLedger.Doubt?
        switch CallLedger.load(from: file) {
        case .ledger(let loaded): ledger = loaded
        case .none: if cachedSince(period.monthStart) > 0 { doubt = .missing }
        case .doubtful(let why): doubt = why
        }
        count = ledger.providers[provider] ?? CallLedger.Count(day: period.day, dayCalls: 0, month: period.month, monthCalls: 0)
        var warning: String?
        if let doubt {
            // The most a paced Isobar can have sent by now: each run may spend the limits'
            // share up to the end of its interval, and an interval is at most an hour, so a
            // run just before this one may have spent up to an hour ahead. The pace lines at
            // now + 1 h, rounded up, and never fewer than the responses in the cache.
            let ahead = time.addingTimeInterval(RefreshPlan.intervalRange.upperBound)
            let day = max(Int(saturating: Double(limits.daily ?? 0) * period.dayFraction(ahead), rounding: .up), cachedSince(period.dayStart))
            let month = max(Int(saturating: Double(limits.monthly ?? 0) * period.monthFraction(ahead), rounding: .up),
                            cachedSince(period.monthStart), day)
            // Counted as if runs had kept the pace since the day and month began, each an
            // interval ahead, and go on from there.
            count = CallLedger.Count(day: period.day, dayCalls: day, month: period.month, monthCalls: month,
                                     dayFirstRun: period.dayStart, monthFirstRun: period.monthStart)
            warning = "\(file.path): the call ledger \(doubt.reason); counting \(day) calls to \(provider) as made today and \(month) this month "
                + "(the most the limits' pace can have allowed by now, an hour's share ahead included, and at least the responses in the cache) "
                + "so that no limit is exceeded; this run rewrites it"
        }
        count.roll(to: period)
        previousRun = count.lastRun
        count.lastRun = time
        if count.dayFirstRun == nil { count.dayFirstRun = time }
        if count.monthFirstRun == nil { count.monthFirstRun = time }
        try save()
        return warning
    }

    /// What the limits allow now.
    public struct State: Sendable, Equatable {
        public var dayCalls: Int
        public var monthCalls: Int
        public var now: Date
        public var previousRun: Date?
        /// The first run of the day and of the month; nil: their start.
        public var dayFirstRun: Date?
        public var monthFirstRun: Date?
    }

    public func state() -> State {
        let time = now()
        count.roll(to: CallPeriod(time))
        return State(dayCalls: count.dayCalls, monthCalls: count.monthCalls, now: time, previousRun: previousRun,
                     dayFirstRun: count.dayFirstRun, monthFirstRun: count.monthFirstRun)
    }

    /// Counts one request about to be sent, or refuses it when a limit is reached.
    func spend() throws {
        try locked { try spendLocked() }
    }

    private func spendLocked() throws {
        let time = now()
        count.roll(to: CallPeriod(time))
        catchUp(to: CallPeriod(time))
        if let daily = limits.daily, count.dayCalls >= daily {
            refusedThisRun += 1
            throw IsobarError(step: .fetch, path: file.path,
                              message: "not sent: \(provider)'s daily_limit of \(daily) calls is reached for \(count.day) (UTC)",
                              hint: "the city keeps its cached data; requests resume after 00:00 UTC, or raise daily_limit")
        }
        if let monthly = limits.monthly, count.monthCalls >= monthly {
            refusedThisRun += 1
            throw IsobarError(step: .fetch, path: file.path,
                              message: "not sent: \(provider)'s monthly_limit of \(monthly) calls is reached for \(count.month) (UTC)",
                              hint: "the city keeps its cached data; requests resume next month, or raise monthly_limit")
        }
        let before = count
        count.dayCalls = count.dayCalls.saturatingAdd(1)
        count.monthCalls = count.monthCalls.saturatingAdd(1)
        sentThisRun += 1
        do {
            try save()
        } catch {
            // Not recorded, so not sent: the ledger must never count fewer than went out.
            count = before
            sentThisRun -= 1
            throw error
        }
    }

    /// Takes in what other runs sharing the cache have counted since this one last wrote:
    /// the ledger on disk never holds fewer calls than this run knows of, so the higher
    /// count of the same day (and month) is the true one. The other providers' entries
    /// are theirs, and are kept as they are on disk.
    private func catchUp(to period: CallPeriod) {
        guard case .ledger(let onDisk) = CallLedger.load(from: file) else { return }
        let mine = count
        ledger = onDisk
        guard var theirs = onDisk.providers[provider] else { return }
        theirs.roll(to: period)
        if theirs.day == mine.day { count.dayCalls = max(mine.dayCalls, theirs.dayCalls) }
        if theirs.month == mine.month { count.monthCalls = max(mine.monthCalls, theirs.monthCalls) }
    }

    /// Runs `body` holding `budget.lock`, so reading, counting and writing the ledger is
    /// one step for every run sharing the cache.
    private func locked<T>(_ body: () throws -> T) throws -> T {
        if lockDescriptor < 0 {
            try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let path = file.deletingLastPathComponent().appendingPathComponent(Self.lockName).path
            lockDescriptor = openLockFile(path)
            guard lockDescriptor >= 0 else {
                throw IsobarError(step: .fetch, path: path, message: "cannot open the call ledger's lock: \(String(cString: strerror(errno)))",
                                  hint: "requests are counted in the cache folder before they are sent; make it writable")
            }
        }
        while flock(lockDescriptor, LOCK_EX) != 0 && errno == EINTR {}
        defer { flock(lockDescriptor, LOCK_UN) }
        return try body()
    }

    static let lockName = "budget.lock"

    private func save() throws {
        ledger.providers[provider] = count
        do {
            try ledger.save(to: file)
        } catch let error as IsobarError {
            throw IsobarError(step: .fetch, path: file.path, message: "cannot write the call ledger: \(error.message)",
                              hint: "requests are counted there before they are sent; make the cache folder writable")
        }
    }

    /// The budget as the report shows it.
    public struct Summary: Sendable, Equatable {
        public var provider: String
        public var limits: CallLimits
        public var day: String
        public var dayCalls: Int
        public var month: String
        public var monthCalls: Int
        public var sentThisRun: Int
        public var refusedThisRun: Int

        public var leftToday: Int? { limits.daily.map { max(0, $0.saturatingSubtract(dayCalls)) } }
        public var leftThisMonth: Int? { limits.monthly.map { max(0, $0.saturatingSubtract(monthCalls)) } }
    }

    public func summary() -> Summary {
        Summary(provider: provider, limits: limits, day: count.day, dayCalls: count.dayCalls, month: count.month,
                monthCalls: count.monthCalls, sentThisRun: sentThisRun, refusedThisRun: refusedThisRun)
    }
}

/// `open(2)` for the ledger's lock file (outside the actor, whose `open` is the ledger's).
private func openLockFile(_ path: String) -> Int32 {
    open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
}

/// The UTC day and month a moment falls in: the periods providers count their limits in
/// (OpenWeather resets its daily count at 00:00 UTC).
struct CallPeriod: Equatable {
    var day: String
    var month: String
    var dayStart: Date
    var monthStart: Date
    var monthEnd: Date

    init(_ time: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: time)
        let (year, month, day) = (parts.year!, parts.month!, parts.day!)
        self.day = String(format: "%04d-%02d-%02d", year, month, day)
        self.month = String(format: "%04d-%02d", year, month)
        dayStart = calendar.date(from: DateComponents(year: year, month: month, day: day))!
        monthStart = calendar.date(from: DateComponents(year: year, month: month, day: 1))!
        monthEnd = calendar.date(byAdding: .month, value: 1, to: monthStart)!
    }

    static let daySeconds: TimeInterval = 86_400

    func dayFraction(_ time: Date) -> Double { min(1, max(0, time.timeIntervalSince(dayStart) / Self.daySeconds)) }
    func monthFraction(_ time: Date) -> Double {
        min(1, max(0, time.timeIntervalSince(monthStart) / monthEnd.timeIntervalSince(monthStart)))
    }
}

extension CallLedger.Count {
    /// A new day (or month) starts from 0. A clock set back keeps the later day's count:
    /// when in doubt, count high.
    mutating func roll(to period: CallPeriod) {
        if period.day > day {
            day = period.day
            dayCalls = 0
            dayFirstRun = nil
        }
        if period.month > month {
            month = period.month
            monthCalls = 0
            monthFirstRun = nil
        }
    }
}
