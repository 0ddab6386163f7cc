import Foundation

/// `isobar serve --sample`: the site's own cities, theme and languages with sample weather,
/// built with no network and no key. Every city gets the demo's recorded London
/// (`recording`), placed in the city's own time zone: the recorded local time of day,
/// on the latest such moment before now, so a city's afternoon is its own afternoon.
/// Its coordinates are the config's, or the world list's (`WorldCities`); sunrise, sunset
/// and the moon are then computed for the place (the recording's are London's), and the
/// recording's English day summaries are left out. Every page says it is a sample
/// (`sample_weather`, in its language). Nothing is recorded in the history, deployed,
/// or fetched: not tiles, not warnings, not normals.
public struct SampleWeather: Sendable {
    /// Where the cities' sample responses are written (a snapshot folder, one per city).
    public var directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// The config as a sample build reads it, with each placed city's response written
    /// under `directory`; a city that cannot be placed is left out and said in `log`.
    func prepare(_ config: SiteConfig, now: Date, log: (String) -> Void) throws -> SiteConfig {
        var sample = config
        sample.providers = [.snapshot]
        sample.snapshotDirectory = directory
        sample.cache.directory = directory.appendingPathComponent(".cache")
        sample.history.enabled = false
        sample.history.startFrom = nil
        sample.deploy = nil
        sample.map = nil
        sample.alerts = .off
        if sample.normals == .archive { sample.normals = .off }
        sample.sampleWeather = true
        let recording = try Self.recorded()
        var placed: [CityConfig] = []
        for var city in config.cities {
            guard let place = Self.place(city) else {
                let at = city.listedAt.map { "\($0.file):\($0.line):\($0.column): " } ?? ""
                log("\(at)warning: \(city.name) (\(city.country)) is not in the sample's list of the world's \(WorldCities.count.formatted(.number.locale(Locale(identifier: "en")))) cities of 100,000 people or more, and has no `lat:` and `lon:`; the sample leaves it out (give it both to see it)")
                continue
            }
            city.latitude = place.latitude
            city.longitude = place.longitude
            city.timeZone = place.timeZone
            city.providers = nil
            let body = try recording.placed(at: place, units: city.units, now: now)
            let file = ResponseStore(root: directory).file(for: city.slug, .oneCall)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try body.data.write(to: file, options: .atomic)
            // A stored response's time is its file's: the sample's data time.
            try FileManager.default.setAttributes([.modificationDate: body.time], ofItemAtPath: file.path)
            placed.append(city)
        }
        sample.cities = placed
        return sample
    }

    struct Place: Equatable {
        var latitude: Double
        var longitude: Double
        var timeZone: String
    }

    /// The config's coordinates and zone where it has them; else the world list's city
    /// of that name, or the zone nearest the config's coordinates in its country.
    static func place(_ city: CityConfig) -> Place? {
        let listed = WorldCities.find(city.name, country: city.country, state: city.state)
        guard let latitude = city.latitude ?? listed?.latitude, let longitude = city.longitude ?? listed?.longitude else { return nil }
        let nearest = city.coordinates == nil ? nil : CountryZones.system().flatMap {
            CountryZones.nearest($0.zones(in: city.country.uppercased()), latitude: latitude, longitude: longitude)?.identifier
        }
        guard let zone = city.timeZone ?? nearest ?? listed?.timeZone, TimeZone(identifier: zone) != nil else { return nil }
        return Place(latitude: latitude, longitude: longitude, timeZone: zone)
    }

    static func recorded() throws -> Recording {
        guard let tree = try JSONSerialization.jsonObject(with: Data(recording.utf8)) as? [String: Any],
              let current = tree["current"] as? [String: Any], let time = current["dt"] as? Double,
              let zoneName = tree["timezone"] as? String, let zone = TimeZone(identifier: zoneName)
        else { throw IsobarError(step: .fetch, message: "the built-in sample recording is not a One Call response", hint: "rebuild Isobar (Tools/embed-sample.py)") }
        return Recording(tree: tree, time: Date(timeIntervalSince1970: time), zone: zone)
    }

    /// A One Call body and its data time, moved as a whole.
    struct Recording {
        var tree: [String: Any]
        var time: Date
        var zone: TimeZone

        /// Each of a body's times is moved by the same amount, so hours and days keep their
        /// order and spacing. What a place makes different is left to the build to compute.
        static let times: Set<String> = ["dt"]
        static let placeBound: Set<String> = ["sunrise", "sunset", "moonrise", "moonset", "moon_phase", "summary"]
        static let temperatures: Set<String> = ["temp", "feels_like", "dew_point"]
        static let speeds: Set<String> = ["wind_speed", "wind_gust"]

        /// The moment in `place`'s zone with the recording's local time of day, on the
        /// latest day on which that is not after `now`.
        func moment(in zone: TimeZone, now: Date) -> Date {
            var recorded = Calendar(identifier: .gregorian), local = Calendar(identifier: .gregorian)
            recorded.timeZone = self.zone
            local.timeZone = zone
            let clock = recorded.dateComponents([.hour, .minute, .second], from: time)
            let today = local.dateComponents([.year, .month, .day], from: now)
            var wanted = DateComponents(year: today.year, month: today.month, day: today.day, hour: clock.hour, minute: clock.minute, second: clock.second)
            var moment = local.date(from: wanted) ?? now
            if moment > now {
                wanted.day = (wanted.day ?? 1) - 1
                moment = local.date(from: wanted) ?? now
            }
            return moment
        }

        func placed(at place: Place, units: Units, now: Date) throws -> (data: Data, time: Date) {
            let zone = TimeZone(identifier: place.timeZone)!
            let moment = moment(in: zone, now: now)
            let shift = moment.timeIntervalSince(time)
            let conversion = UnitConversion(units: units)
            func move(_ value: Any, key: String?) -> Any? {
                if let key, Self.placeBound.contains(key) { return nil }
                switch value {
                case let object as [String: Any]:
                    var moved: [String: Any] = [:]
                    for (name, member) in object { moved[name] = move(member, key: Self.temperatures.contains(key ?? "") ? key : name) }
                    return moved
                case let list as [Any]:
                    return list.compactMap { move($0, key: nil) }
                case let number as Double:
                    // Anything else as it came (an integer stays one).
                    guard let key else { return value }
                    if Self.times.contains(key) { return Int((number + shift).rounded()) }
                    if Self.temperatures.contains(key) { return conversion.fromCelsius(number) }
                    if Self.speeds.contains(key) { return conversion.fromMetresPerSecond(number) }
                    return value
                default:
                    return value
                }
            }
            var tree = move(tree, key: nil) as! [String: Any]
            tree["lat"] = place.latitude
            tree["lon"] = place.longitude
            tree["timezone"] = place.timeZone
            tree["timezone_offset"] = zone.secondsFromGMT(for: moment)
            let data = try JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys, .withoutEscapingSlashes])
            return (data, moment)
        }
    }
}
