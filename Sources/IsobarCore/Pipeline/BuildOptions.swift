import Foundation

/// What the command line asked for.
public struct BuildOptions: Sendable {
    public var configFile: URL
    /// `--output`, overriding the config's `output:`.
    public var output: URL?
    /// `--offline`: no network; use stored responses whatever their age.
    public var offline: Bool

    public init(configFile: URL, output: URL? = nil, offline: Bool = false) {
        self.configFile = configFile
        self.output = output
        self.offline = offline
    }
}
