import Foundation

/// The Deploy stage: puts the output folder's files (those the manifest says Isobar
/// wrote) on the target, uploading only what changed since the last deploy to it, each
/// file under a temporary name and renamed into place, in `DeployPlan`'s order.
public struct Deployer: Sendable {
    public var settings: DeploySettings
    /// The process environment, for a password the config names by variable.
    public var variables: [String: String]
    public var clock: MonotonicClock
    public var log: @Sendable (String) -> Void

    public init(settings: DeploySettings, variables: [String: String] = [:], clock: MonotonicClock = .system,
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.settings = settings
        self.variables = variables
        self.clock = clock
        self.log = log
    }

    func destination() throws -> DeployDestination {
        switch settings.target {
        case .folder(let url):
            return try FolderDestination(url)
        case .sftp(var account, let variable):
            account.password = variables[variable].flatMap { $0.isEmpty ? nil : $0 }
            return try SFTPDestination(account)
        case .ftp(var account, let variable):
            account.password = variables[variable].flatMap { $0.isEmpty ? nil : $0 }
            return try FTPDestination(account)
        }
    }

    /// How many confirmed uploads go by before the ledger is saved again: a killed deploy
    /// redoes at most these.
    static let saveEvery = 50

    public func deploy(output: URL, dryRun: Bool = false) throws -> DeployReport {
        let started = clock.now()
        // One run at a time per output folder: a build must not rewrite files mid-deploy.
        let lock = try OutputLock(output: output)
        defer { lock.markClean() }
        let manifest = Manifest.load(from: output)
        guard !manifest.files.isEmpty else {
            throw IsobarError(step: .deploy, path: output.path, message: "there is no site to deploy here",
                              hint: "run `isobar build` first")
        }
        // Each file is read to stamp it and again only if it goes: a 10,000-city site is not
        // held in memory at once.
        func read(_ path: String) throws -> Data {
            guard let data = FileManager.default.contents(atPath: output.appendingPathComponent(path).path) else {
                throw IsobarError(step: .deploy, path: output.appendingPathComponent(path).path,
                                  message: "a file of the site is missing", hint: "run `isobar build` again, then deploy")
            }
            return data
        }
        var files: [String: String] = [:]
        var sizes: [String: Int] = [:]
        for path in manifest.files.keys {
            let data = try read(path)
            files[path] = DeployLedger.stamp(data)
            sizes[path] = data.count
        }
        var ledger = DeployLedger.load(from: output, target: settings.name)
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

        let ownOutput = try OwnedFolder(output, step: .deploy)
        var sinceSave = 0
        do {
            let target = try destination()
            for path in plan.uploads {
                // The output lock keeps a build from changing it since it was stamped.
                try target.upload(try read(path), to: path)
                ledger.files[path] = files[path]
                sinceSave += 1
                if sinceSave == Self.saveEvery { try ledger.save(in: ownOutput); sinceSave = 0 }
            }
            for path in plan.deletions {
                try target.remove(path)
                ledger.files[path] = nil
            }
        } catch {
            // What was confirmed stays recorded: the next deploy goes on from there.
            try? ledger.save(in: ownOutput)
            throw error
        }
        try ledger.save(in: ownOutput)
        report.seconds = clock.now() - started
        return report
    }
}
