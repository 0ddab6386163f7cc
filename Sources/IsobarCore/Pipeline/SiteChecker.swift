import Foundation

/// `isobar check`: loads everything a build would load before fetching (config,
/// templates, UI strings, places) and reports every problem it finds; fetches nothing.
public struct SiteChecker: Sendable {
    public struct Result: Sendable {
        public var errors: [IsobarError]
        public var warnings: [String]
        /// What the config implies, for the user to read (the call budget).
        public var notes: [String] = []
        public var summary: String
    }

    public init() {}

    /// `now`: the build's clock (`SOURCE_DATE_EPOCH` when it pins one), for the coming
    /// daylight-saving changes a service may warn about.
    public func check(configFile: URL, now: Date = BuildEnvironment.process(log: { _ in }).now()) -> Result {
        let config: SiteConfig
        do {
            config = try ConfigLoader.load(from: configFile)
            try OutputSafety.check(config)
        } catch {
            let errors = (error as? IsobarError)?.eachProblem ?? [Self.userError(error)]
            return Result(errors: errors, warnings: [],
                          summary: "\(counted(errors.count, "error", "errors")) in the config; templates and places not checked")
        }
        var errors: [IsobarError] = []
        var warnings: [String] = []
        var templateCount = 0
        do {
            // Every misspelt name at once, not only the first as `build` stops at.
            let templates = try TemplateSet.loadUnchecked(from: config.templatesDirectory)
            templateCount = templates.count
            let names = try templates.nameProblems()
            errors += names.errors
            warnings += names.warnings.map { $0.description(label: nil) }
            // What the build would refuse to draw (`CardLimits`), said before it does.
            if config.shareCard, let card = templates.sources[ShareCards.template] {
                let problems = CardLimits.problems(in: card.text)
                if !problems.isEmpty {
                    warnings.append("\(card.path): no share cards are drawn: \(problems.joined(separator: "; ")); the pages have no og:image until it is lowered")
                }
            }
        } catch {
            errors.append(Self.userError(error))
        }
        do {
            // A partial translation is listed in full below, not summed up as `build` does.
            // Each of a multilingual site's languages needs its strings, as `build` requires.
            for language in config.languages {
                let (_, warning, _) = try Strings.load(templates: config.templatesDirectory, language: language)
                guard let warning else { continue }
                if config.languages.count == 1 {
                    warnings.append(warning)
                } else {
                    errors.append(SiteLanguage.withoutStrings(language, warning, config))
                }
            }
            // Every translation the theme has, not just the site's: a theme is shared.
            let english = try Strings.englishKeys(templates: config.templatesDirectory)
            for (file, missing, unknown) in try Strings.coverage(templates: config.templatesDirectory) {
                if !missing.isEmpty {
                    warnings.append("\(file.path): \(missing.count) UI string\(missing.count == 1 ? "" : "s") missing, shown in English: \(missing.joined(separator: ", "))")
                }
                for key in unknown {
                    let hint = Spelling.closest(to: key, among: english).map { " (did you mean \"\($0)\"?)" } ?? ""
                    warnings.append("\(file.path): \"\(key)\" is not a key of en.yml and is never shown\(hint)")
                }
            }
        } catch {
            errors.append(Self.userError(error))
        }
        // The build would fail each of these cities; said here before one runs. A city
        // hears it from the first service of its chain that needs the zone.
        errors += config.cities.filter { $0.timeZone == nil }.compactMap { city in
            let needing = ServiceRegistry.forecasts.first { $0.zoneRequiredBy != nil && config.providers(for: city).contains($0.kind) }
            return needing?.zoneRequiredBy.map {
                IsobarError.zoneMissing(city, latitude: city.latitude, longitude: city.longitude, step: .config, path: config.file.path,
                                        location: city.listedAt, why: $0)
            }
        }
        for service in ServiceRegistry.forecasts {
            let said = service.check(config, now: now)
            errors += said.errors
            warnings += said.warnings
        }
        // Services that ask who is calling are sent the contact as written.
        let mapContact = config.map != nil ? config.contact : nil
        for contact in Set(config.providersUsed.compactMap(config.contact(for:)) + [mapContact].compactMap { $0 }).sorted() where Self.isExampleAddress(contact) {
            let asking = ServiceRegistry.forecasts.filter { $0.contactRequiredBy != nil }.map { $0.name } + ["tile servers"]
            warnings.append("\(config.file.path): contact \"\(contact)\" is an example address: services that ask who is calling (\(asking.joined(separator: ", "))) may block it; put an e-mail or web address where you can be reached")
        }
        var placeCount = 0
        do {
            let places = try PlacesFile.load(from: config.placesFile)
            placeCount = places.values.reduce(0) { $0 + $1.count }
            let slugs = Set(config.cities.map(\.slug))
            for slug in places.keys.sorted() where !slugs.contains(slug) {
                let hint = Spelling.closest(to: slug, among: Array(slugs)).map { " (did you mean \"\($0)\"?)" } ?? ""
                warnings.append("\(config.placesFile.path): places for \"\(slug)\", which is not a city in the config\(hint)")
            }
            for (slug, list) in places.sorted(by: { $0.key < $1.key }) {
                for (index, place) in list.enumerated() {
                    if let link = place.wikipedia, Presenter.webLink(link) == nil {
                        warnings.append("\(config.placesFile.path): \(slug)[\(index)].wikipedia is not an http(s) link and will not be shown")
                    }
                }
            }
        } catch {
            errors.append(Self.userError(error))
        }
        // A site's own normals file: each bad row is a build's fatal error, so said here
        // first; rows of cities not on the site are only named.
        if case .file(let file, _) = config.normals {
            do {
                let normals = try NormalsFile.load(from: file)
                warnings += NormalsFile.unlisted(normals, slugs: Set(config.cities.map(\.slug)), file: file)
            } catch {
                errors.append(Self.userError(error))
            }
        }
        // A city only snapshots can give a forecast: its recording must be there, or the
        // build fails it.
        let snapshots = SnapshotProvider(directory: config.snapshotDirectory)
        for city in config.cities where config.providers(for: city) == [.snapshot] {
            guard var missing = snapshots.missingRecording(city) else { continue }
            missing.message = "\(city.name) (\(city.country)): \(missing.message)"
            errors.append(missing)
        }
        let summary = errors.isEmpty
            ? "ok: \(counted(config.cities.count, "city", "cities")), \(counted(templateCount, "template", "templates")), \(counted(placeCount, "place", "places")); \(counted(warnings.count, "warning", "warnings"))"
            : "\(errors.count) error\(errors.count == 1 ? "" : "s"), \(warnings.count) warning\(warnings.count == 1 ? "" : "s")"
        return Result(errors: errors, warnings: warnings, notes: Self.chainNotes(config) + [BudgetEstimate.describe(config), BudgetEstimate.normals(config), Self.mapNote(config)].compactMap { $0 },
                      summary: summary)
    }

    /// The providers each city is fetched from, in the order they are tried (nothing for
    /// snapshots, which fetch nothing).
    static func chainNotes(_ config: SiteConfig) -> [String] {
        guard config.provider != .snapshot else { return [] }
        func chain(_ kinds: [ProviderKind]) -> String {
            kinds.map(\.rawValue).joined(separator: " → ") + (kinds.count > 1 ? " (each city from the first that answers)" : "")
        }
        var notes = ["providers: \(chain(config.providers))"]
        for city in config.cities {
            guard let own = city.providers, own != config.providers else { continue }
            notes.append("providers for \(city.name): \(chain(own))")
        }
        return notes
    }

    /// Where the map's tiles come from, and how few a run may ask for.
    static func mapNote(_ config: SiteConfig) -> String? {
        config.map.map { "map: tiles from \($0.tiles.host) (zoom up to \($0.maxZoom), at most \($0.maxTilesPerRun) tile requests a run)" }
    }

    /// The domains RFC 2606 reserves for examples, as `isobar new` writes.
    static func isExampleAddress(_ contact: String) -> Bool {
        let host = contact.lowercased().split(whereSeparator: { "@/:".contains($0) }).last { $0.contains(".") } ?? ""
        return ["example.org", "example.com", "example.net"].contains { host == $0 || host.hasSuffix("." + $0) }
    }

    static func userError(_ error: Error) -> IsobarError {
        error as? IsobarError ?? IsobarError(step: .config, message: "\(error)")
    }
}
