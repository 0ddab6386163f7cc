import Foundation

/// What a deploy did, for stderr and the `deploy` section of `--report`.
public struct DeployReport: Sendable, Equatable {
    /// The target, without credentials.
    public var target: String
    public var uploaded: Int
    public var deleted: Int
    public var unchanged: Int
    public var bytes: Int
    public var seconds: Double
    public var dryRun: Bool
    /// What the operator should know though the deploy went on (a ledger in doubt, files
    /// left in place), one line each.
    public var warnings: [String] = []

    public var summary: String {
        let verb = dryRun ? "would deploy" : "deployed"
        return "\(verb) to \(target): \(uploaded) uploaded (\(bytes) bytes), \(deleted) deleted, \(unchanged) unchanged"
    }
}
