import Foundation
import Testing
@testable import IsobarCore

@Suite struct ConfigLoaderTests {
    let file = URL(fileURLWithPath: "/sites/demo/isobar.yml")

    func load(_ yaml: String) throws -> SiteConfig {
        try ConfigLoader.parse(yaml, file: file)
    }

    /// Parses `yaml`, expecting an error; returns it for the caller to inspect.
    func failure(_ yaml: String) -> IsobarError? {
        do {
            _ = try load(yaml)
            return nil
        } catch {
            return error as? IsobarError
        }
    }

    @Test func loadsTheDemoConfig() throws {
        let config = try ConfigLoader.load(from: TestPaths.repository.appendingPathComponent("isobar.yml"))
        #expect(config.cities.map(\.slug) == [
            "london-gb", "paris-fr", "rome-it", "new-york-us", "berlin-de", "lod-il", "tokyo-jp", "sao-paulo-br",
        ])
        #expect(config.cities[3].units == .imperial)
        #expect(config.cities[3].state == "NY")
        #expect(config.cities[0].units == .metric)
        #expect(config.provider == .snapshot)
        #expect(config.cache.maxAge == 600)
        #expect(config.snapshotDirectory.path == TestPaths.repository.appendingPathComponent("Samples").path)
    }

    /// Spaces around a name (any script's) are not part of it; a name of nothing but spaces is empty.
    @Test func namesAreTrimmed() throws {
        let config = try load("base_url: https://w.example.org\ncities:\n  - { name: \" Oslo  \", country: no }\n  - { name: \"\u{3000}東京 \", country: jp, slug: tokyo-jp }\n  - { name: \"Zürich\", country: ch }\n")
        #expect(config.cities.map(\.name) == ["Oslo", "東京", "Zürich"])
        #expect(failure("base_url: https://w.example.org\ncities:\n  - { name: \"   \", country: no }\n")?.message.contains("must not be empty") == true)
    }

    @Test func defaultsAndPathsResolveAgainstTheConfigFolder() throws {
        let config = try load("base_url: https://w.example.org\ncities:\n  - { name: Oslo, country: no }\n")
        #expect(config.baseURL.absoluteString == "https://w.example.org/")
        #expect(config.outputDirectory.path == "/sites/demo/_site")
        #expect(config.templatesDirectory.path == "/sites/demo/Templates")
        #expect(config.language == "en")
        #expect(config.units == .metric)
        #expect(config.openWeather.requestsPerMinute == 60)
        #expect(config.cities[0].country == "NO")
        #expect(config.cities[0].slug == "oslo-no")
    }

    @Test func unknownKeyNamesLineColumnAndSuggestsTheKey() throws {
        let error = try #require(failure("base_url: https://w.example.org\nunits: metric\ncitys:\n  - { name: Oslo, country: NO }\n"))
        #expect(error.location?.line == 3)
        #expect(error.location?.column == 1)
        #expect(error.message.contains("citys"))
        #expect(error.hint?.contains("cities") == true)
        #expect(error.description.hasPrefix("/sites/demo/isobar.yml:3:1: error:"))
        #expect(error.description.contains(" 3 | citys:"))
    }

    @Test func badUnitNamesTheCityKeyAndTheChoices() throws {
        let yaml = "base_url: https://w.example.org\ncities:\n  - name: Oslo\n    country: NO\n    units: kelvin\n"
        let error = try #require(failure(yaml))
        #expect(error.location?.line == 5)
        #expect(error.location?.column == 12)
        #expect(error.message.contains("cities[0].units"))
        #expect(error.message.contains("kelvin"))
        #expect(error.hint?.contains("metric, imperial, standard") == true)
    }

    /// Coordinates in YAML's forms for a number; quoted, infinite or not a number at all, an error.
    @Test(arguments: [("59.91", 59.91), ("+59.5", 59.5), ("-3", -3), ("5.99e1", 59.9), ("5_9.5", 59.5)] as [(String, Double)])
    func coordinatesInYAMLsNumberForms(lat: String, expected: Double) throws {
        let config = try load("base_url: https://w.example.org\ncities:\n  - { name: Oslo, country: NO, lat: \(lat), lon: 10.75 }\n")
        #expect(config.cities[0].latitude == expected)
        for bad in ["\"59.9\"", ".inf", "-", "1e", "59.9.1"] {
            let error = failure("base_url: https://w.example.org\ncities:\n  - { name: Oslo, country: NO, lat: \(bad), lon: 10.75 }\n")
            #expect(error?.message.contains("expected a number") == true, "\(bad)")
        }
    }

    @Test func wrongTypeIsAnError() throws {
        let error = try #require(failure("base_url: https://w.example.org\ncities:\n  - { name: Oslo, country: NO, lat: north, lon: 10.7 }\n"))
        #expect(error.location?.line == 3)
        #expect(error.message.contains("cities[0].lat"))
        #expect(error.message.contains("expected a number"))
        let listError = try #require(failure("base_url: https://w.example.org\ncities: Oslo\n"))
        #expect(listError.location?.line == 2)
        #expect(listError.message.contains("expected a list"))
    }

    @Test func missingRequiredKeysAreNamed() throws {
        let noCities = try #require(failure("base_url: https://w.example.org\n"))
        #expect(noCities.message.contains("\"cities\""))
        #expect(noCities.location?.line == 1)
        let noCountry = try #require(failure("base_url: https://w.example.org\ncities:\n  - name: Oslo\n"))
        #expect(noCountry.message.contains("cities[0].country"))
        #expect(noCountry.location?.line == 3)
        #expect(noCountry.location?.column == 5)
    }

    @Test func duplicateSlugsAreAnErrorAtTheSecondCity() throws {
        let yaml = """
            base_url: https://w.example.org
            cities:
              - { name: São Paulo, country: BR }
              - { name: Sao Paulo, country: BR }
            """
        let error = try #require(failure(yaml))
        #expect(error.location?.line == 4)
        #expect(error.message.contains("sao-paulo-br"))
        #expect(error.message.contains("cities[0]"))
        #expect(error.hint?.contains("slug") == true)
    }

    @Test func unsafeSlugsAreRejected() throws {
        for bad in ["../etc", ".hidden", "a/b", "UPPER", "-x"] {
            let error = try #require(failure("base_url: https://w.example.org\ncities:\n  - { name: X, country: GB, slug: \"\(bad)\" }\n"), "\(bad)")
            #expect(error.message.contains("cities[0].slug"))
        }
        // A name that folds to nothing ASCII needs its own slug.
        let error = try #require(failure("base_url: https://w.example.org\ncities:\n  - { name: 東京, country: JP }\n"))
        #expect(error.hint?.contains("slug") == true)
        let ok = try load("base_url: https://w.example.org\ncities:\n  - { name: 東京, country: JP, slug: tokyo }\n")
        #expect(ok.cities[0].slug == "tokyo")
    }

    /// Issue 12, item 5: a slug may not be a name Isobar writes at the top of the site.
    @Test(arguments: SiteLayout.topLevelNames)
    func reservedSlugsAreRejected(name: String) throws {
        let error = try #require(failure("base_url: https://w.example.org\ncities:\n  - { name: Assets, country: GB, slug: \"\(name)\" }\n"))
        #expect(error.message.contains("cities[0].slug"))
        #expect(error.location?.line == 3)
        // Names with a dot are already impossible; the one a slug could be gets its own words.
        if name == "assets" {
            #expect(error.message.contains("is a name Isobar uses for its own files"), "\(error)")
            #expect(error.hint == "choose another slug, e.g. assets-gb")
        }
    }

    /// Issue 12, item 3: every duration is checked against the range its message states;
    /// a sub-millisecond timeout is an error, never rounded to 0 (libcurl's "no limit").
    @Test(arguments: [
        ("openweather: { timeout: 0.0001s }", "openweather.timeout: \"0.0001s\" is not a duration between 1s and 10m"),
        ("openweather: { connect_timeout: 0.5ms }", "openweather.connect_timeout: \"0.5ms\" is not a duration"),
        ("openweather: { connect_timeout: 0s }", "openweather.connect_timeout: \"0s\" is not a duration between 1s and 10m"),
        ("openweather: { timeout: 11m }", "is not a duration between 1s and 10m"),
        ("openweather: { timeout: 1e300d }", "openweather.timeout: \"1e300d\" is not a duration"),
        ("cache: { max_age: 400d }", "cache.max_age: \"400d\" is not a duration between 0s and 30d"),
        ("stale_after: 10s", "stale_after: \"10s\" is not a duration between 1m and 365d"),
    ])
    func durationsOutsideTheirRangeAreRejected(yaml: String, expected: String) throws {
        let error = try #require(failure("base_url: https://w.example.org\n\(yaml)\ncities:\n  - { name: Oslo, country: NO }\n"))
        #expect(error.description.contains(expected), "\(error)")
        #expect(error.location?.line == 2)
    }

    /// The words a message states a range in are the numbers the check uses.
    @Test(arguments: [DurationRange.timeout, .cacheAge, .staleAfter])
    func statedRangesAreTheCheckedOnes(_ range: DurationRange) {
        #expect(DurationParser.seconds(from: range.lowest) == range.seconds.lowerBound)
        #expect(DurationParser.seconds(from: range.highest) == range.seconds.upperBound)
    }

    @Test func durationsAtTheEdgesOfTheirRangesPass() throws {
        let config = try load("base_url: https://w.example.org\nopenweather: { timeout: 1s, connect_timeout: 10m }\ncache: { max_age: 0s }\nstale_after: 1m\ncities:\n  - { name: Oslo, country: NO }\n")
        #expect(config.openWeather.timeout == 1 && config.openWeather.connectTimeout == 600)
        #expect(config.cache.maxAge == 0 && config.staleAfter == 60)
        // What reaches libcurl is never 0 ms for a positive timeout.
        #expect(CurlHTTPClient.milliseconds(0.0001) == 1 && CurlHTTPClient.milliseconds(1) == 1000 && CurlHTTPClient.milliseconds(1e300) == 86_400_000)
    }

    /// Issue 12, item 4: nested aliases ("billion laughs") are refused from what they would
    /// add, before Yams expands anything: as keys (Yams hashes each expanded key: minutes),
    /// values, or anchors nothing uses.
    @Test func aliasBombsAreRefusedQuickly() throws {
        var bomb = "base_url: https://w.example.org\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        for (name, previous) in zip("bcdefg", "abcdef") {
            bomb += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]\n"
        }
        #expect(bomb.utf8.count < 400)
        for use in ["? *g\n: x\n", "*g : y\n", "{ *g : z }: 1\n", "? [*g, *f]\n: 1\n", "?\n  - *g\n: 1\n", "title: *g\n", ""] {
            let started = Date()
            let error = try #require(failure(bomb + use + "cities: []\n"), "\(use)")
            #expect(error.message == "f[0]: aliases make the document larger than 100000 values", "\(error)")
            #expect(error.location?.line == 7 && error.location?.column == 8, "\(error)")
            #expect(Date().timeIntervalSince(started) < 30, "generous: the bomb took minutes before")
        }
        // Aliases within reason, and asterisks in text, are fine, as keys too.
        let ok = try load("base_url: https://w.example.org\ntitle: \"Weather *now* ? yes\"\nunits: &u imperial\ncities:\n  - { name: Oslo, country: NO, units: *u }\n")
        #expect(ok.cities[0].units == .imperial)
        let key = try #require(failure("base_url: https://w.example.org\ntitle: &k nonsense\n*k : 1\ncities: []\n"))
        #expect(key.message == "nonsense: unknown key", "\(key)")
    }

    /// What aliases add is counted from the anchors' sizes, nothing expanded: `*x` here
    /// adds four values (the list and its three items).
    @Test func aliasesAreCountedByWhatTheyAdd() throws {
        let text = "a: &x [1, 2, 3]\nb: [*x, *x, *x]\n"
        #expect(YAMLEvents.aliasOverrun(in: text, budget: 12) == nil)
        let overrun = try #require(YAMLEvents.aliasOverrun(in: text, budget: 11))
        #expect((overrun.line, overrun.column, overrun.keyPath) == (2, 13, "b[2]"))
        // An anchor holding aliases stands for all they expand to.
        let nested = "a: &x [1, 2, 3]\nb: &y [*x, *x]\nc: [*y]\n"
        #expect(YAMLEvents.aliasOverrun(in: nested, budget: 17) == nil)  // 8, then 1 + 8
        #expect(YAMLEvents.aliasOverrun(in: nested, budget: 16)?.keyPath == "c[0]")
    }

    /// The key path of a position where the text cannot be read or parsed.
    @Test func positionsAreNamedByTheKeyAroundThem() {
        let text = "title: x\nopenweather:\n  timeout: 5s\ncities:\n  - { name: Oslo, country: NO }\n"
        #expect(YAMLEvents.keyPath(line: 1, column: 9, in: text) == "title")
        #expect(YAMLEvents.keyPath(line: 3, column: 12, in: text) == "openweather.timeout")
        #expect(YAMLEvents.keyPath(line: 5, column: 15, in: text) == "cities[0].name")
        #expect(YAMLEvents.keyPath(line: 5, column: 34, in: text) == "cities")  // past the city's `}`
        #expect(YAMLEvents.keyPath(line: 1, column: 1, in: "") == "")
    }

    /// Issue 12, item 8: every config error has file:line:col (or says why not) and a
    /// key path that is never empty.
    @Test func everyConfigErrorHasAPositionAndAPath() throws {
        let lone = try #require(failure("---\n"))
        #expect(lone.location?.line == 1 && lone.message.contains("holds no settings"))
        let listKey = try #require(failure("base_url: https://w.example.org\n? [a, b]\n: 1\ncities: []\n"))
        #expect(listKey.location?.line == 2 && listKey.message == "the top level: a list used as a key", "\(listKey)")
        let scalarTop = try #require(failure("just text\n"))
        #expect(scalarTop.message.hasPrefix("the top level: expected a mapping"), "\(scalarTop)")
        let control = try #require(failure("base_url: https://w.example.org\ntitle: \"a\u{1}b\"\ncities: []\n"))
        #expect(control.location?.line == 2 && control.location?.column == 10, "\(control)")
        #expect(control.description.hasPrefix("/sites/demo/isobar.yml:2:10: error: title: control character U+0001 is not allowed in YAML"), "\(control)")
        let empty = try #require(failure("# nothing yet\n"))
        #expect(empty.location == nil && empty.message == "the top level: the config file is empty", "\(empty)")
        let syntax = try #require(failure("base_url: https://w.example.org\ncities:\n  - { name: Oslo, country: NO\n"))
        #expect(syntax.message.hasPrefix("cities[0].country: YAML syntax: "), "\(syntax)")

        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let file = folder.url.appendingPathComponent("isobar.yml")
        try Data("base_url: https://w.example.org\ntitle: caf".utf8 + [0xE9] + Data(" latin-1\ncities: []\n".utf8)).write(to: file)
        do {
            _ = try ConfigLoader.load(from: file)
            Issue.record("loaded a non-UTF-8 config")
        } catch let error as IsobarError {
            #expect(error.location?.line == 2 && error.location?.column == 11, "\(error)")
            #expect(error.message == "title: byte 0xE9 is not valid UTF-8", "\(error)")
            #expect(error.location?.sourceLine == "title: caf\u{FFFD} latin-1", "the line is shown, the byte as U+FFFD")
        }
    }

    @Test func yamlSyntaxErrorsHaveAPosition() throws {
        let error = try #require(failure("base_url: https://w.example.org\ncities:\n  - { name: Oslo, country: NO\n"))
        #expect(error.location != nil)
        #expect(error.message.contains("YAML syntax"))
    }

    @Test func latitudeAndLongitudeComeTogetherAndInRange() throws {
        let half = try #require(failure("base_url: https://w.example.org\ncities:\n  - { name: Oslo, country: NO, lat: 59.9 }\n"))
        #expect(half.message.contains("both lat and lon"))
        let range = try #require(failure("base_url: https://w.example.org\ncities:\n  - { name: Oslo, country: NO, lat: 99, lon: 10 }\n"))
        #expect(range.message.contains("between -90 and 90"))
    }

    @Test func durationsAndTimeZones() throws {
        let config = try load("base_url: https://w.example.org\ncache: { max_age: 6h }\ncities:\n  - { name: Lod, country: IL, timezone: Asia/Jerusalem }\n")
        #expect(config.cache.maxAge == 6 * 3600)
        #expect(config.cities[0].timeZone == "Asia/Jerusalem")
        let zone = try #require(failure("base_url: https://w.example.org\ncities:\n  - { name: Lod, country: IL, timezone: Mars/Olympus }\n"))
        #expect(zone.message.contains("IANA"))
        let age = try #require(failure("base_url: https://w.example.org\ncache: { max_age: soon }\ncities:\n  - { name: Lod, country: IL }\n"))
        #expect(age.message.contains("cache.max_age"))
    }
}

@Suite struct SlugTests {
    @Test(arguments: [
        (["São Paulo", "BR"], "sao-paulo-br"),
        (["New York", "US"], "new-york-us"),
        (["Zürich", "CH"], "zurich-ch"),
        (["Kraków", "PL"], "krakow-pl"),
        (["Düsseldorf", "DE"], "dusseldorf-de"),
        (["Straße am See", "DE"], "strasse-am-see-de"),
        (["Łódź", "PL"], "lodz-pl"),
        (["St John's", "CA"], "st-johns-ca"),
        (["  Rio   de  Janeiro ", "BR"], "rio-de-janeiro-br"),
        (["Île-de-France", "FR"], "ile-de-france-fr"),
        (["../../etc/passwd", "GB"], "etc-passwd-gb"),
    ])
    func folds(parts: [String], expected: String) {
        #expect(Slug.make(from: parts) == expected)
        #expect(Slug.problem(with: expected) == nil)
    }

    @Test func nonLatinNamesFoldToNothing() {
        #expect(Slug.make(from: ["東京"]) == "")
        #expect(Slug.problem(with: "") != nil)
    }

    /// What is wrong with a slug a config gives, in the message's words.
    @Test(arguments: [
        ("london-gb", nil),
        (String(repeating: "a", count: 100), nil),
        (String(repeating: "a", count: 101), "is longer than 100 characters"),
        (String(repeating: "é", count: 101), "is longer than 100 characters"),
        (String(repeating: "é", count: 60), "contains \"é\"; use only lowercase letters a–z, digits and hyphens"),
        ("paris_fr", "contains \"_\"; use only lowercase letters a–z, digits and hyphens"),
        ("Paris", "contains \"P\"; use only lowercase letters a–z, digits and hyphens"),
        ("zu\u{308}rich", "contains \"u\u{308}\"; use only lowercase letters a–z, digits and hyphens"),
        ("東京", "contains \"東\"; use only lowercase letters a–z, digits and hyphens"),
        ("-paris", "starts or ends with a hyphen"),
    ] as [(String, String?)])
    func slugProblems(slug: String, problem: String?) {
        #expect(Slug.problem(with: slug) == problem)
    }
}
