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
    /// daylight-saving changes `FixedOffsetCheck` warns about.
    public func check(configFile: URL, now: Date = BuildEnvironment.process(log: { _ in }).now()) -> Result {
        let config: SiteConfig
        do {
            config = try ConfigLoader.load(from: configFile)
            try OutputSafety.check(config)
        } catch {
            return Result(errors: [Self.userError(error)], warnings: [], summary: "1 error in the config; templates and places not checked")
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
        warnings += FixedOffsetCheck(config: config, zones: CountryZones.system(), now: now).warnings().map { $0.description(label: nil) }
        if config.provider != .snapshot, !config.nwsCitiesWithoutContact.isEmpty {
            let names = config.nwsCitiesWithoutContact.map(\.name).joined(separator: ", ")
            warnings.append("\(config.file.path): no official warnings for \(names): the NWS issues them and asks every request to carry a contact; add `contact: you@example.org` at the top level (or `nws: { contact: … }`)")
        }
        if config.provider == .metNorway {
            // The build would fail each of these cities at Normalize; said here before one runs.
            errors += config.cities.filter { $0.timeZone == nil }.map {
                MetNorwayDecoder.zoneMissing($0, latitude: $0.latitude, longitude: $0.longitude, step: .config, path: config.file.path, location: $0.listedAt)
            }
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
        let summary = errors.isEmpty
            ? "ok: \(config.cities.count) cities, \(templateCount) templates, \(placeCount) places; \(warnings.count) warning\(warnings.count == 1 ? "" : "s")"
            : "\(errors.count) error\(errors.count == 1 ? "" : "s"), \(warnings.count) warning\(warnings.count == 1 ? "" : "s")"
        return Result(errors: errors, warnings: warnings, notes: [BudgetEstimate.describe(config)].compactMap { $0 }, summary: summary)
    }

    static func userError(_ error: Error) -> IsobarError {
        error as? IsobarError ?? IsobarError(step: .config, message: "\(error)")
    }
}
