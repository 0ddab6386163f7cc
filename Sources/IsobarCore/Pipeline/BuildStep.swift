/// The named stages of a build, in the order they run (DESIGN.md, "The pipeline").
public enum BuildStep: String, Sendable, CaseIterable, Codable {
    case config
    case locate
    case fetch
    case normalize
    case present
    case render
    case publish
    /// Recording the observations and forecasts in the history database.
    case history
    case report
    /// After the build: the site to its web host.
    case deploy
    /// `isobar serve`: the live preview's own server, not a build.
    case serve
}
