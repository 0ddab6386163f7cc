import Foundation

/// `normals:` — where each city's climate normals come from (README, "Compared with
/// normal"): `off` (the default: nothing is compared), `archive` (Open-Meteo's historical
/// weather API, ERA5, asked once per city and kept for good), or `{ file: PATH }`, the
/// site's own normals (`NormalsFile`).
public enum NormalsSettings: Sendable, Equatable {
    case off
    case archive
    /// `source:` says on the page where the file's numbers come from.
    case file(URL, source: String?)

    /// Where the page says `normals` come from: the file's `source:`, or the archive's
    /// line with the years its answer covers ("ERA5 1991–2020, Open-Meteo").
    public func source(of normals: ClimateNormals?) -> String? {
        switch self {
        case .off: return nil
        case .archive: return normals.map { ArchiveNormals.label(ofSource: $0.source) }
        case .file(_, let source): return source
        }
    }
}

extension ConfigLoader {
    /// `normals: off | archive | { file: Data/normals.csv, source: "…" }`; a relative file
    /// is relative to the config file's folder.
    static func loadNormals(_ value: YAMLValue?, folder: URL) throws -> NormalsSettings {
        guard let value else { return .off }
        let hint = "write `normals: archive` (Open-Meteo's ERA5 archive, one call per city, ever), `normals: { file: Data/normals.csv }` or `normals: off` (README, \"Compared with normal\")"
        if let text = try? value.string() {
            switch text {
            case "off": return .off
            case "archive": return .archive
            default: throw value.error("\"\(text)\" is not `off`, `archive` or a block", hint: hint)
            }
        }
        let map = try value.mapping(allowed: ["file", "source"])
        let file = try map.required("file", hint: hint)
        return .file(URL(fileURLWithPath: try file.nonEmptyString(), relativeTo: folder).standardizedFileURL,
                     source: try map["source"]?.nonEmptyString())
    }
}
