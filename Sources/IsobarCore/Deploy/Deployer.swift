import Foundation

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

    public func deploy(output: URL, dryRun: Bool = false, waiting: OutputLock.Waiting = .no) throws -> DeployReport {
        let started = clock.now()
        // One run at a time per output folder: a build must not rewrite files mid-deploy.
        let lock = try OutputLock(output: output, waiting: waiting)
        defer { lock.markClean() }
        let manifest = Manifest.load(from: output)
        guard !manifest.files.isEmpty else {
            throw IsobarError(step: .deploy, path: output.path, message: "there is no site to deploy here",
                              hint: "run `isobar build` first")
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
        let ledger = DeployLedger.load(from: output, target: settings.name)
        var files: [String: String] = [:]
        var sizes: [String: Int] = [:]
        var statuses: [String: String] = [:]
        for path in manifest.files.keys {
            let status = DeployLedger.status(of: output.appendingPathComponent(path))
            statuses[path] = status
            if let status, ledger.local[path] == status, let stamp = ledger.files[path] {
                files[path] = stamp
                continue
            }
            let data = try read(path)
            files[path] = DeployLedger.stamp(data)
            sizes[path] = data.count
        }
        let plan = DeployPlan.make(files: files, uploaded: ledger.files)
        var report = DeployReport(
            target: settings.name, uploaded: plan.uploads.count, deleted: plan.deletions.count,
            unchanged: plan.unchanged, bytes: plan.uploads.reduce(0) { $0 + sizes[$1, default: 0] }, seconds: 0, dryRun: dryRun)
        if dryRun {
            for path in plan.uploads { log("upload \(path)") }
            for path in plan.deletions { log("delete \(path)") }
            report.seconds = clock.now() - started
            return report
        }
        guard !plan.uploads.isEmpty || !plan.deletions.isEmpty || !ledger.pending.isEmpty else {
            // Nothing changed: no connection at all.
            report.seconds = clock.now() - started
            return report
        }

        let ownOutput = try OwnedFolder(output, step: .deploy)
        let crew = TransferCrew(count: settings.concurrency, first: try destination(), make: destination,
                                retry: retry, pause: pause, log: log)
        // The connections end here, on this thread, before the deploy returns (see `close`).
        defer { crew.close() }
        do {
            let journal = try DeployJournal(output: output, target: settings.name)
            try run(plan, pending: ledger.pending, stamps: files, statuses: statuses, crew: crew, journal: journal, read: read)
        } catch {
            // What was confirmed is in the journal: fold it in, and the next deploy goes on from there.
            try? DeployLedger.load(from: output, target: settings.name).save(in: ownOutput)
            throw error
        }
        try DeployLedger.load(from: output, target: settings.name).save(in: ownOutput)
        report.seconds = clock.now() - started
        return report
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
            let failures = crew.run(group, stopOnFailure: true) { destination, path in
                journal.started(path)
                try destination.upload(try read(path), to: path)
                journal.uploaded(path, stamp: stamps[path]!, local: statuses[path])
                observe(.uploaded(path))
            }
            if let first = failures.first { throw describe(first.error) }
        }
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
