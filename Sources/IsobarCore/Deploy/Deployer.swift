import Foundation

/// How a deploy knows what is on the target.
public enum DeployMode: Sendable {
    /// By the ledger (listing the target only when the ledger is in doubt).
    case update
    /// By listing the target: the ledger is written again from the listing and the site.
    case repair
    /// As `repair`, and every file on the target that the site does not have is deleted:
    /// for a target that holds nothing but the site.
    case fromScratch
}

/// What a deploy confirmed, as it happens (for progress, and for tests that act mid-deploy).
public enum DeployEvent: Sendable, Equatable {
    case uploaded(String)
    case removed(String)
}

/// The Deploy stage: puts the output folder's files (those the manifest says Isobar
/// wrote) on the target, uploading only what changed since the last deploy to it, each
/// file under a temporary name and renamed into place, in `DeployPlan`'s order,
/// `concurrency` at a time.
public struct Deployer: Sendable {
    public var settings: DeploySettings
    /// The process environment, for the secrets the config names by variable.
    public var variables: [String: String]
    public var clock: MonotonicClock
    public var retry: RetryPolicy
    /// Waits between tries of a transfer; tests pass one that does not sleep.
    public var pause: @Sendable (TimeInterval) -> Void
    /// Lines for the operator: a dry run's list, retries.
    public var log: @Sendable (String) -> Void
    public var observe: @Sendable (DeployEvent) -> Void

    public init(settings: DeploySettings, variables: [String: String] = [:], clock: MonotonicClock = .system,
                retry: RetryPolicy = RetryPolicy(), pause: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
                log: @escaping @Sendable (String) -> Void = { _ in }, observe: @escaping @Sendable (DeployEvent) -> Void = { _ in }) {
        self.settings = settings
        self.variables = variables
        self.clock = clock
        self.retry = retry
        self.pause = pause
        self.log = log
        self.observe = observe
    }

    private func secret(_ variable: String) -> String? {
        variables[variable].flatMap { $0.isEmpty ? nil : $0 }
    }

    func destination() throws -> DeployDestination {
        switch settings.target {
        case .folder(let url):
            return try FolderDestination(url)
        case .sftp(var account, let variable):
            account.password = secret(variable)
            return try SFTPDestination(account)
        case .ftp(var account, let variable):
            account.password = secret(variable)
            return try FTPDestination(account)
        case .s3(var bucket, let accessVariable, let secretVariable):
            bucket.accessKey = secret(accessVariable)
            bucket.secretKey = secret(secretVariable)
            guard bucket.accessKey != nil, bucket.secretKey != nil else {
                throw IsobarError(step: .deploy, path: settings.name,
                                  message: "no S3 key: set the environment variables \(accessVariable) and \(secretVariable)",
                                  hint: "cron and systemd start with almost no environment: set them in the crontab or with EnvironmentFile= in the service")
            }
            return try S3Destination(bucket, keyVariables: (accessVariable, secretVariable))
        }
    }

    public func deploy(output: URL, dryRun: Bool = false, waiting: OutputLock.Waiting = .no, mode: DeployMode = .update) throws -> DeployReport {
        let started = clock.now()
        // One run at a time per output folder: a build must not rewrite files mid-deploy.
        let lock = try OutputLock(output: output, waiting: waiting)
        defer { lock.markClean() }
        let manifest = Manifest.load(from: output)
        guard !manifest.files.isEmpty else {
            throw IsobarError(step: .deploy, path: output.path, message: "there is no site to deploy here",
                              hint: "run `isobar build` first")
        }
        // No path read from a file reaches a server unless it is one of the site's.
        if let (path, problem) = manifest.files.keys.sorted().lazy.compactMap({ path in SitePath.problem(path).map { (path, $0) } }).first {
            throw IsobarError(step: .deploy, path: output.appendingPathComponent(Manifest.fileName).path,
                              message: "the site's manifest lists \(Self.quoted(path)), which is not a path of the site's (\(problem)); nothing was deployed",
                              hint: "run `isobar build`: it writes the manifest again from the site's own files")
        }
        var ledger = DeployLedger.load(from: output, target: settings.name)
        if mode == .update, let refused = ledger.refused.first {
            let others = ledger.refused.count > 1 ? " (and \(ledger.refused.count - 1) more)" : ""
            throw IsobarError(step: .deploy, path: refused.file,
                              message: "it lists \(Self.quoted(refused.path))\(others), which is not a path of the site's (\(refused.problem)); nothing was deployed",
                              hint: "run `isobar deploy --repair`: it lists the target and writes the ledger again from it and the site")
        }
        // Each file is read to stamp it and again only if it goes: a 10,000-city site is not
        // held in memory at once.
        @Sendable func read(_ path: String) throws -> Data {
            guard let data = FileManager.default.contents(atPath: output.appendingPathComponent(path).path) else {
                throw IsobarError(step: .deploy, path: output.appendingPathComponent(path).path,
                                  message: "a file of the site is missing", hint: "run `isobar build` again, then deploy")
            }
            return data
        }
        var warnings = ledger.doubts.map { $0 + ": the target is listed and brought to the site" }
        // In doubt, or asked to: the target's listing, not the ledger, says what is there.
        let reconciling = mode != .update || !ledger.doubts.isEmpty
        var files: [String: String] = [:]
        var sizes: [String: Int] = [:]
        var statuses: [String: String] = [:]
        for path in manifest.files.keys {
            let status = DeployLedger.status(of: output.appendingPathComponent(path))
            statuses[path] = status
            if !reconciling, let status, ledger.local[path] == status, let stamp = ledger.files[path], stamp != DeployLedger.unknown {
                files[path] = stamp
                continue
            }
            let data = try read(path)
            files[path] = DeployLedger.stamp(data)
            sizes[path] = data.count
        }
        var crew: TransferCrew?
        // The connections end here, on this thread, before the deploy returns (see `close`).
        defer { crew?.close() }
        var plan = DeployPlan.make(files: files, uploaded: ledger.files)
        if reconciling {
            let connected = TransferCrew(count: settings.concurrency, first: try destination(), make: destination,
                                         retry: retry, pause: pause, log: log)
            crew = connected
            let listing: [String]
            do { listing = try connected.list() } catch { throw describe(error) }
            let reconciliation = Reconciliation(files: files, owned: Set(ledger.files.keys), listing: listing, fromScratch: mode == .fromScratch)
            plan = reconciliation.plan
            ledger.files = reconciliation.owned
            ledger.local = [:]
            ledger.pending = []
            warnings += reconciliation.warnings
        }
        var report = DeployReport(
            target: settings.name, uploaded: plan.uploads.count, deleted: plan.deletions.count,
            unchanged: plan.unchanged, bytes: plan.uploads.reduce(0) { $0 + sizes[$1, default: 0] }, seconds: 0, dryRun: dryRun,
            warnings: warnings)
        if dryRun {
            for path in plan.uploads { log("upload \(path)") }
            for path in plan.deletions { log("delete \(path)") }
            report.seconds = clock.now() - started
            return report
        }
        guard !plan.uploads.isEmpty || !plan.deletions.isEmpty || !ledger.pending.isEmpty || reconciling else {
            // Nothing changed: no connection at all.
            report.seconds = clock.now() - started
            return report
        }
        let transfers = try crew ?? TransferCrew(count: settings.concurrency, first: try destination(), make: destination,
                                                 retry: retry, pause: pause, log: log)
        crew = transfers

        // The journal starts afresh: what the last one held is folded into the ledger.
        // A reconciliation's ledger holds each file of Isobar's on the target, its bytes
        // unknown, so a kill from here on leaves nothing the next deploy does not know of.
        let ownOutput = try OwnedFolder(output, step: .deploy)
        ledger.refused = []
        try ledger.save(in: ownOutput)
        do {
            let journal = try DeployJournal(output: output, target: settings.name)
            try run(plan, pending: ledger.pending, stamps: files, statuses: statuses, crew: transfers, journal: journal, read: read)
        } catch {
            // What was confirmed is in the journal: fold it in, and the next deploy goes on from there.
            try? DeployLedger.load(from: output, target: settings.name).save(in: ownOutput)
            throw error
        }
        try DeployLedger.load(from: output, target: settings.name).save(in: ownOutput)
        report.seconds = clock.now() - started
        return report
    }

    /// A path from a file or a server, quoted for a message: control characters escaped,
    /// a long one shortened.
    static func quoted(_ path: String) -> String {
        QuotedInput.shortened(path.debugDescription)
    }

    private func run(_ plan: DeployPlan, pending: Set<String>, stamps: [String: String], statuses: [String: String], crew: TransferCrew,
                     journal: DeployJournal, read: @escaping @Sendable (String) throws -> Data) throws {
        // What a killed deploy may have left under temporary names goes first.
        _ = crew.run(pending.sorted(), stopOnFailure: false) { destination, path in
            destination.discardLeftovers(of: path)
            journal.discarded(path)
        }
        // Each rank (assets, cities, site-wide pages, the index) is on the target before the
        // next starts, so no published link points at a file that is not there yet.
        for group in plan.uploadGroups {
            try journal.starting(group)
            let failures = crew.run(group, stopOnFailure: true) { destination, path in
                try destination.upload(try read(path), to: path)
                journal.uploaded(path, stamp: stamps[path]!, local: statuses[path])
                observe(.uploaded(path))
            }
            if let first = failures.first { throw describe(first.error) }
        }
        try journal.removing(plan.deletions)
        let failures = crew.run(plan.deletions, stopOnFailure: false) { destination, path in
            try destination.remove(path)
            journal.removed(path)
            observe(.removed(path))
        }
        if let first = failures.first {
            let others = failures.count > 1 ? " (and \(failures.count - 1) other file\(failures.count == 2 ? "" : "s"))" : ""
            var error = describe(first.error)
            error.message += others
            throw error
        }
    }

    private func describe(_ error: Error) -> IsobarError {
        if let failure = error as? DeployFailure {
            return IsobarError(step: .deploy, path: settings.name, message: failure.message, hint: failure.hint)
        }
        return error as? IsobarError ?? IsobarError(step: .deploy, path: settings.name, message: "\(error)")
    }
}
