import Foundation

/// Reads `isobar.yml` into a validated `SiteConfig`. Every error names the file,
/// line, column and key, shows the line, and says how to fix it.
public enum ConfigLoader {
    static let topLevelKeys = [
        "title", "base_url", "language", "languages", "units", "provider", "snapshot_dir", 
        "contact", "alerts", "meteoalarm", "cache", "history", "templates", "public", "places", "output", "stale_after", "cities", "deploy",
        "map", "normals", "share_card", "offline",
    ] + ServiceRegistry.forecasts.map { $0.block }
    static let cacheKeys = ["dir", "max_age"]
    static let historyKeys = ["database", "enabled", "start_from"]
    static let cityKeys = ["name", "country", "state", "lat", "lon", "units", "slug", "timezone", "refresh", "language", "provider", "warning_area"]

    public static func load(from file: URL) throws -> SiteConfig {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw IsobarError(
                step: .config, path: file.path, message: "cannot read the config file",
                hint: "`isobar new DIR` writes a site to start from; or pass --config PATH (README, \"Configuration\")")
        }
        return try config(from: YAMLDocument(data: data, file: file.path), file: file)
    }

    public static func parse(_ text: String, file: URL) throws -> SiteConfig {
        try config(from: YAMLDocument(text: text, file: file.path), file: file)
    }

    private static func config(from document: YAMLDocument, file: URL) throws -> SiteConfig {
        let hint = "it needs at least `base_url` and a list of `cities`"
        guard let root = document.root else {
            // Nothing but blank lines and comments: no line to point at.
            throw IsobarError(step: .config, path: file.path, message: "\(YAMLKeyPath.shown("")): the config file is empty", hint: hint)
        }
        // A lone `---` is a document holding nothing.
        if root.isNothing {
            throw IsobarError(
                step: .config, location: SourceLocation(file: file.path, line: 1, column: 1, in: root.text),
                message: "\(YAMLKeyPath.shown("")): the config file holds no settings", hint: hint)
        }
        let problems = root.problems
        let config = problems.attempt(nil) { try read(root, file: file, problems) }
        if let combined = problems.combined() { throw combined }
        return config!
    }

    /// The config, every section read even when one before it failed (`ConfigProblems`):
    /// a failed section's stand-in is read on with, and the caller refuses the result.
    private static func read(_ root: YAMLValue, file: URL, _ problems: ConfigProblems) throws -> SiteConfig {
        let folder = file.deletingLastPathComponent()
        let top = try root.mapping(allowed: topLevelKeys)

        func path(_ key: String, default fallback: String) -> URL {
            let raw = problems.attempt(fallback) { try top[key]?.nonEmptyString() ?? fallback }
            return URL(fileURLWithPath: raw, relativeTo: folder).standardizedFileURL
        }

        let baseURL = problems.attempt(URL(string: "https://example.invalid/")!) {
            let baseURLValue = try top.required("base_url", hint: "the address the site will be served at, e.g. https://weather.example.org/")
            let baseURLText = try baseURLValue.nonEmptyString()
            guard let baseURL = URL(string: baseURLText.hasSuffix("/") ? baseURLText : baseURLText + "/"),
                let scheme = baseURL.scheme?.lowercased(), scheme == "http" || scheme == "https", baseURL.host != nil
            else {
                throw baseURLValue.error("\"\(baseURLText)\" is not an http(s) address", hint: "e.g. https://weather.example.org/")
            }
            return baseURL
        }

        // `languages:` makes a multilingual site: the first at the top, the others under
        // /<lang>/. `language:` alone is a site in one language.
        var languages = problems.attempt([]) {
            try top["languages"].map { value -> [String] in
                let items = try value.sequence()
                guard !items.isEmpty else { throw value.error("the list is empty", hint: "list the site's languages, the first at the top level, e.g. [en, he, ar]") }
                var seen: [String: YAMLValue] = [:]
                return try items.map { item -> String in
                    let code = try languageCode(item)
                    if let first = seen[Strings.htmlLanguage(code)] {
                        throw item.error("\"\(code)\" is listed twice (first at line \(first.location.line))", hint: "list each language once")
                    }
                    seen[Strings.htmlLanguage(code)] = item
                    return code
                }
            } ?? []
        }
        let language = problems.attempt(languages.first ?? "en") { try top["language"].map(languageCode) ?? languages.first ?? "en" }
        if let first = languages.first, let value = top["language"], Strings.htmlLanguage(first) != Strings.htmlLanguage(language) {
            problems.add(value.error("`language: \(language)` is not the first of `languages:` (\(first)), whose pages go at the top level",
                                     hint: "leave out `language:`, or list \(language) first in `languages:`"))
        }
        if languages.isEmpty { languages = [language] }
        let units = problems.attempt(.metric) { try top["units"]?.oneOf(Units.self, what: "a unit system") ?? .metric }
        let providers = problems.attempt([.openweather]) { try top["provider"].map(providerChain) ?? [.openweather] }
        let provider = providers[0]

        let outputDirectory = path("output", default: "_site")
        // Each `provider:` written, the site's and the cities', for the checks on what the chains need.
        var chains: [(value: YAMLValue, kinds: [ProviderKind])] = top["provider"].map { [($0, providers)] } ?? []
        let cities = problems.attempt([]) {
            try loadCities(top.required("cities", hint: "list the cities to build, e.g. `- { name: London, country: GB }`"), defaultUnits: units,
                           languages: languages, chains: &chains)
        }
        let snapshotDirectory = path("snapshot_dir", default: "Samples")
        let history = problems.attempt(HistorySettings(database: resolved(".isobar/history.sqlite", in: folder))) {
            try loadHistory(top["history"], folder: folder)
        }
        // `Samples/past` beside the snapshots is a folder of its own, unless a city's slug
        // is `past`: then the two would be one folder.
        if provider == .snapshot, let past = history.startFrom,
            let city = cities.first(where: { snapshotDirectory.appendingPathComponent($0.slug).standardizedFileURL.path == past.path }),
            let value = try top["history"]?.mapping(allowed: historyKeys)["start_from"]
        {
            throw value.error("\(past.path) is the snapshot folder of \(city.name) (slug \(city.slug))",
                              hint: "keep the recorded past in another folder, or give the city another `slug:`")
        }

        var config = SiteConfig(
            file: file.standardizedFileURL,
            title: problems.attempt("Isobar Weather") { try top["title"]?.nonEmptyString() ?? "Isobar Weather" },
            baseURL: baseURL,
            language: language,
            languages: languages,
            units: units,
            providers: providers,
            snapshotDirectory: snapshotDirectory,
            cache: problems.attempt(CacheSettings(directory: resolved(".isobar/cache", in: folder))) { try loadCache(top["cache"], folder: folder) },
            history: history,
            templatesDirectory: path("templates", default: "Templates"),
            publicDirectory: path("public", default: "Public"),
            placesFile: path("places", default: "Data/places.json"),
            outputDirectory: outputDirectory,
            staleAfter: problems.attempt(6 * 3600) { try top["stale_after"].map { try duration($0, in: .staleAfter) } ?? 6 * 3600 },
            deploy: nil,
            cities: cities)
        config.contact = problems.attempt(nil) { try top["contact"].map(contact) }
        // Each service reads its own block, knowing where the chains that name it are.
        let blocks = ServiceConfigContext(folder: folder, chains: chains)
        for service in ServiceRegistry.forecasts {
            problems.attempt(()) { try service.load(top[service.block], blocks, into: &config) }
        }
        problems.attempt(()) { try loadWarnings(top, into: &config) }
        config.map = problems.attempt(nil) { try loadMap(top["map"]) }
        config.normals = problems.attempt(.off) { try loadNormals(top["normals"], folder: folder) }
        config.shareCard = problems.attempt(true) { try top["share_card"]?.bool() ?? true }
        config.offline = problems.attempt(true) { try top["offline"]?.bool() ?? true }
        if config.map != nil, config.contact == nil, let value = top["map"] {
            // OpenStreetMap's tile usage policy: an identifying User-Agent, or be blocked.
            problems.add(value.error(
                "map tiles need a contact: tile servers ask every request's User-Agent to say who sends it",
                hint: "add `contact: you@example.org` (an e-mail or web address where the tile server can reach the site's owner) at the top level of \(file.lastPathComponent), or write `map: off`"))
        }
        for (value, kinds) in chains {
            guard let provider = kinds.first(where: { $0.contactRequiredBy != nil && config.contact(for: $0) == nil }),
                let askedBy = provider.contactRequiredBy else { continue }
            // MET's terms and NWS's documentation: an unidentified client may be blocked without warning (403).
            problems.add(value.error(
                "\(provider.rawValue) needs a contact: \(askedBy)",
                hint: "add `contact: you@example.org` (an e-mail or web address where the service can reach the site's owner) at the top level of \(file.lastPathComponent)"))
            break
        }
        // Last: a `file://` target is checked against every folder the site reads and writes.
        config.deploy = problems.attempt(nil) {
            try loadDeploy(top["deploy"], siteFolders: [("the output folder", outputDirectory)] + OutputSafety.sources(of: config))
        }
        return config
    }

    /// `contact:`: goes into a User-Agent header as written, so one line of visible text
    /// (no control character could then end the header early) that reads as an e-mail or a
    /// web address, as MET Norway's terms ask.
    static func contact(_ value: YAMLValue) throws -> String {
        let text = try value.nonEmptyString()
        let hint = "an e-mail (ops@example.org) or a web address (https://weather.example.org/) where the site's owner can be reached"
        guard text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw value.error("\"\(text)\" holds a space or a character a User-Agent header cannot carry", hint: hint)
        }
        guard text.contains("@") || text.contains(".") else { throw value.error("\"\(text)\" is neither an e-mail nor a web address", hint: hint) }
        return text
    }

    /// `daily_limit` and `monthly_limit` of a provider's block.
    static func limits(_ map: YAMLMapping) throws -> CallLimits {
        func limit(_ key: String) throws -> Int? {
            guard let value = map[key] else { return nil }
            let number = try value.int()
            guard (1...100_000_000).contains(number) else {
                throw value.error("must be between 1 and 100000000", hint: "leave \(key) out for no limit")
            }
            return number
        }
        return CallLimits(daily: try limit("daily_limit"), monthly: try limit("monthly_limit"))
    }

    static func httpURL(_ value: YAMLValue) throws -> URL {
        let text = try value.nonEmptyString()
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw value.error("\"\(text)\" is not an http(s) address")
        }
        return url
    }

    /// A duration within `range`, which the message states; what is outside it (0.0001s,
    /// which libcurl would read as "no limit" once rounded to milliseconds) is an error,
    /// never rounded into it.
    /// The name of an environment variable that holds a secret (`api_key_env`,
    /// `password_env`…): a name, never the secret itself.
    static func variableName(_ value: YAMLValue, example: String) throws -> String {
        let name = try value.nonEmptyString()
        guard name.range(of: #"^[A-Za-z_][A-Za-z0-9_]*$"#, options: .regularExpression) != nil else {
            throw value.error("\"\(name)\" is not an environment variable name", hint: "e.g. \(example) (the secret itself never goes in the config)")
        }
        return name
    }

    static func duration(_ value: YAMLValue, in range: DurationRange) throws -> TimeInterval {
        let text = try value.string()
        // One message for what does not parse (`0.5ms`) and what is out of range: both say the range.
        guard let seconds = DurationParser.seconds(from: text), range.seconds.contains(seconds) else {
            throw value.error("\"\(text)\" is not a duration between \(range.lowest) and \(range.highest)", hint: "write it like \(range.examples)")
        }
        return seconds
    }

    /// A path in the config, relative to the config file's folder.
    private static func resolved(_ path: String, in folder: URL) -> URL {
        URL(fileURLWithPath: path, relativeTo: folder).standardizedFileURL
    }

    private static func loadCache(_ value: YAMLValue?, folder: URL) throws -> CacheSettings {
        var settings = CacheSettings(directory: resolved(".isobar/cache", in: folder))
        guard let map = try value?.mapping(allowed: cacheKeys) else { return settings }
        if let dir = map["dir"] { settings.directory = resolved(try dir.nonEmptyString(), in: folder) }
        if let age = map["max_age"] { settings.maxAge = try duration(age, in: .cacheAge) }
        return settings
    }

    private static func loadHistory(_ value: YAMLValue?, folder: URL) throws -> HistorySettings {
        var settings = HistorySettings(database: resolved(".isobar/history.sqlite", in: folder))
        guard let map = try value?.mapping(allowed: historyKeys) else { return settings }
        if let file = map["database"] { settings.database = resolved(try file.nonEmptyString(), in: folder) }
        if let enabled = map["enabled"] { settings.enabled = try enabled.bool() }
        if let start = map["start_from"] {
            let text = try start.nonEmptyString()
            let folder = resolved(text, in: folder)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw start.error("\"\(text)\" is not a folder (\(folder.path))",
                                  hint: "a folder of recorded responses, DIR/<time>/<slug>/onecall.json … (see README, \"History\"), or leave start_from out")
            }
            settings.startFrom = folder
        }
        return settings
    }

    /// A language code as `language:` takes it: `en`, `pt_br`, `zh-Hant`.
    static func languageCode(_ value: YAMLValue) throws -> String {
        let code = try value.nonEmptyString()
        guard Strings.isLanguageCode(code) else {
            throw value.error("\"\(code)\" is not a language code", hint: "use a code such as en, de, he or pt_br")
        }
        return code
    }

    /// `provider:`, the site's or a city's: one name, or a chain tried in order
    /// (`[met-norway, open-meteo]`). Snapshots are a site's whole source, never a link.
    static func providerChain(_ value: YAMLValue) throws -> [ProviderKind] {
        let items = value.isSequence ? try value.sequence() : [value]
        guard !items.isEmpty else { throw value.error("the list is empty", hint: "name one provider, or several to fall back on, e.g. [met-norway, open-meteo]") }
        var kinds: [ProviderKind] = []
        for item in items {
            let kind = try item.oneOf(ProviderKind.self, what: "a provider")
            if kinds.contains(kind) { throw item.error("\(kind.rawValue) is listed twice", hint: "list each provider once") }
            if kind == .snapshot, items.count > 1 {
                throw item.error("snapshot cannot be part of a chain", hint: "use `provider: snapshot` alone, or a chain of live providers")
            }
            kinds.append(kind)
        }
        return kinds
    }

    private static func loadCities(_ value: YAMLValue, defaultUnits: Units, languages: [String],
                                   chains: inout [(value: YAMLValue, kinds: [ProviderKind])]) throws -> [CityConfig] {
        // A language's pages may live in a folder of its own (`he/`, `pt-br/`; `en/lod-il/`
        // for a city whose own language is another), which no city may share.
        let languageFolders = Set(languages.count > 1 ? languages.map(SiteLayout.languageFolder) : [])
        let items = try value.sequence()
        guard !items.isEmpty else { throw value.error("the list is empty", hint: "add at least one city, e.g. `- { name: London, country: GB }`") }
        var cities: [CityConfig] = []
        var slugOwners: [String: YAMLValue] = [:]
        // Each city read on its own: one city's problem does not hide the next one's.
        for item in items {
            let city = item.problems.attempt(nil) { () throws -> CityConfig? in
                let map = try item.mapping(allowed: cityKeys)
                let nameHint = "every city needs the name visitors read, e.g. `- { name: London, country: GB }`"
                let nameValue = try map.required("name", hint: nameHint)
                let name = try nameValue.nonEmptyString(hint: nameHint)
                let countryValue = try map.required("country", hint: "the two-letter ISO 3166 code, e.g. GB")
                let country = try countryValue.nonEmptyString().uppercased()
                guard country.count == 2, country.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                    throw countryValue.error("\"\(country)\" is not a two-letter country code", hint: "use the ISO 3166 code, e.g. GB, US, BR")
                }
                let state = try map["state"]?.nonEmptyString()
                let lat = try map["lat"].map { value -> Double in
                    let number = try value.double()
                    guard (-90...90).contains(number) else { throw value.error("latitude must be between -90 and 90") }
                    return number
                }
                let lon = try map["lon"].map { value -> Double in
                    let number = try value.double()
                    guard (-180...180).contains(number) else { throw value.error("longitude must be between -180 and 180") }
                    return number
                }
                if (lat == nil) != (lon == nil) {
                    throw item.error("give both lat and lon, or neither", hint: "without them the city is geocoded by name")
                }
                let units = try map["units"]?.oneOf(Units.self, what: "a unit system") ?? defaultUnits
                let timeZone = try map["timezone"].map { value -> String in
                    let id = try value.nonEmptyString()
                    guard TimeZone(identifier: id) != nil else {
                        throw value.error("\"\(id)\" is not an IANA time zone", hint: "e.g. Europe/London or America/Sao_Paulo")
                    }
                    return id
                }
                let refresh = try map["refresh"].map { try duration($0, in: .refresh) }
                let slugValue = map["slug"]
                let slug: String
                if let slugValue {
                    slug = try slugValue.nonEmptyString()
                    if let problem = Slug.problem(with: slug) {
                        throw slugValue.error("\"\(slug)\" \(problem)", hint: "choose another slug, e.g. \(Slug.make(from: [name, country]))")
                    }
                } else {
                    // A name in a non-Latin script folds to nothing; "jp" alone would be a poor slug.
                    slug = Slug.make(from: [name]).isEmpty ? "" : Slug.make(from: [name, country])
                    if let problem = Slug.problem(with: slug) {
                        throw item.error("the slug made from \"\(name)\" \(problem)", hint: "give the city its own `slug:`, e.g. slug: tokyo-jp")
                    }
                }
                let at = slugValue ?? item
                if languageFolders.contains(slug) {
                    throw at.error("slug \"\(slug)\" is the folder of the site's language \(slug)", hint: "give the city another `slug:`")
                }
                let language = try map["language"].map { value -> String in
                    let code = try languageCode(value)
                    guard let listed = languages.first(where: { Strings.htmlLanguage($0) == Strings.htmlLanguage(code) }) else {
                        throw value.error("\"\(code)\" is not one of the site's languages (\(languages.joined(separator: ", ")))",
                                          hint: "add it to `languages:` at the top, e.g. languages: [\((languages + [code]).joined(separator: ", "))]")
                    }
                    return listed
                }
                let warningAreas = try map["warning_area"].map(warningAreaCodes) ?? []
                if let first = slugOwners[slug] {
                    throw at.error(
                        "slug \"\(slug)\" is already used by \(first.keyPath) (line \(first.location.line))",
                        hint: "give one of them its own `slug:`")
                }
                slugOwners[slug] = item
                let providers = try map["provider"].map(providerChain)
                if let value = map["provider"], let providers { chains.append((value, providers)) }
                return CityConfig(
                    name: name, country: country, state: state, latitude: lat, longitude: lon,
                    units: units, slug: slug, timeZone: timeZone, refresh: refresh, language: language, providers: providers, warningAreas: warningAreas,
                    listedAt: SourceLocation(file: item.file, line: item.node.mark?.line ?? 1, column: item.node.mark?.column ?? 1))
            }
            if let city { cities.append(city) }
        }
        return cities
    }
}
