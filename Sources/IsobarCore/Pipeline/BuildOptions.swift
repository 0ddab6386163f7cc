import Foundation

/// What the command line asked for.
public struct BuildOptions: Sendable {
    public var configFile: URL
    /// `--output`, overriding the config's `output:`.
    public var output: URL?
    /// `--offline`: no network; use stored responses whatever their age.
    public var offline: Bool
    /// `--wait[=DURATION]`: wait for a run that holds the output instead of skipping this one.
    public var waiting: OutputLock.Waiting
    /// `serve --sample`: the site's cities with sample weather, written where it says;
    /// no network, no history, no deploy.
    public var sample: SampleWeather?

    public init(configFile: URL, output: URL? = nil, offline: Bool = false, waiting: OutputLock.Waiting = .no, sample: SampleWeather? = nil) {
        self.configFile = configFile
        self.output = output
        self.offline = offline || sample != nil
        self.waiting = waiting
        self.sample = sample
    }
}
