import Foundation

/// `isobar check`'s warning for a city whose times would keep one UTC offset: OpenWeather's
/// free 2.5 API sends the offset at the data time and no zone name, so without a
/// `timezone:` the hours after a daylight-saving change are an hour off. One Call and
/// Open-Meteo send the zone's name and need nothing. A city is warned about only when a
/// change is coming within the year (a zone without daylight saving needs no line), with
/// the line to add when its zone can be told honestly:
/// - the zone a stored One Call or Open-Meteo response of the city names;
/// - its country's only zone in the tz database (`CountryZones`);
/// - of its country's zones, those at the UTC offset of its stored free response at that
///   response's time: the only one, or the one whose reference city is nearest the city
///   (a guess the message says to check).
/// Otherwise the message says to add the city's zone without naming one.
struct FixedOffsetCheck {
    var config: SiteConfig
    var zones: CountryZones?
    var now: Date

    /// What a city's stored responses tell of its zone.
    private struct Clues {
        /// A zone named by a One Call or Open-Meteo body, with that body's file.
        var named: (zone: TimeZone, file: Endpoint)?
        /// A free weather body's offset, at its data time, and its coordinates.
        var offset: (seconds: Int, at: Date)?
        var coordinates: (latitude: Double, longitude: Double)?
    }

    private enum Finding {
        case zone(TimeZone, reason: String)
        /// No zone can be named; these are the country's (none when unknown).
        case unknown(candidates: [TimeZone])
    }

    func warnings() -> [IsobarError] {
        guard config.providersUsed.contains(.openweather), config.openWeather.api != .onecall3 else { return [] }
        let text = (try? String(contentsOf: config.file, encoding: .utf8)) ?? ""
        return config.cities.compactMap { city in warning(for: city, configText: text) }
    }

    private func warning(for city: CityConfig, configText: String) -> IsobarError? {
        guard city.timeZone == nil, !answeredByOneCall(city) else { return nil }
        let via = config.openWeather.api == .auto
            ? "OpenWeather's free 2.5 API (which `api: auto` falls back to without a One Call subscription)"
            : "OpenWeather's free 2.5 API"
        let said = "\(city.name) (\(city.country)) has no `timezone:`: with \(via) its times keep the data time's UTC offset, an hour off after a daylight-saving change"
        var message: String, hint: String
        switch find(city) {
        case .zone(let zone, let reason):
            guard let change = nextChange(zone) else { return nil }
            message = "\(said) (\(zone.identifier)'s next is on \(change))"
            hint = "add `timezone: \(zone.identifier)` to the city (\(reason))"
        case .unknown(let candidates):
            guard candidates.isEmpty || candidates.contains(where: { nextChange($0) != nil }) else { return nil }
            message = said
            hint = "add `timezone:` with the city's IANA zone"
            if let first = candidates.first {
                // A build stores the city's free response, whose offset narrows the zones down.
                hint += ", e.g. `timezone: \(first.identifier)`, one of \(city.country)'s \(candidates.count) in the tz database"
                    + " (after a build, `isobar check` may name it)"
            }
        }
        let location = city.listedAt.map { SourceLocation(file: $0.file, line: $0.line, column: $0.column, in: configText) }
        return IsobarError(step: .config, path: config.file.path, location: location, message: message, hint: hint)
    }

    /// With `api: auto`, a city whose newest stored forecast is One Call's was last fetched
    /// with a key that has the subscription: it gets the zone's name.
    private func answeredByOneCall(_ city: CityConfig) -> Bool {
        guard config.openWeather.api == .auto else { return false }
        let cache = ResponseCache(store: ResponseStore(root: config.cache.directory), maxAge: config.cache.maxAge, now: { now })
        let times = cache.fetchTimes(city.slug)
        guard let oneCall = times[.oneCall] else { return false }
        return times[.currentWeather].map { oneCall >= $0 } ?? true
    }

    private func find(_ city: CityConfig) -> Finding {
        let clues = clues(city)
        if let named = clues.named {
            let name = named.file == .oneCall ? "One Call" : "Open-Meteo"
            return .zone(named.zone, reason: "the zone its stored \(name) response names")
        }
        let all = zones?.zones(in: city.country) ?? []
        if all.count == 1, let zone = TimeZone(identifier: all[0].identifier) {
            return .zone(zone, reason: "\(city.country)'s only zone in the tz database")
        }
        guard let offset = clues.offset else { return .unknown(candidates: all.compactMap { TimeZone(identifier: $0.identifier) }) }
        let matching = all.filter { TimeZone(identifier: $0.identifier)?.secondsFromGMT(for: offset.at) == offset.seconds }
        let at = "UTC\(offset.seconds < 0 ? "−" : "+")\(String(format: "%02d:%02d", abs(offset.seconds) / 3600, abs(offset.seconds) % 3600 / 60))"
        if matching.count == 1, let zone = TimeZone(identifier: matching[0].identifier) {
            return .zone(zone, reason: "the only one of \(city.country)'s zones at \(at), its stored response's offset")
        }
        if let point = city.coordinates ?? clues.coordinates,
            let nearest = CountryZones.nearest(matching, latitude: point.latitude, longitude: point.longitude),
            let zone = TimeZone(identifier: nearest.identifier)
        {
            return .zone(zone, reason: "of \(city.country)'s \(matching.count) zones at \(at), its stored response's offset, the one whose reference city is nearest: check it")
        }
        return .unknown(candidates: all.compactMap { TimeZone(identifier: $0.identifier) })
    }

    /// The cache's responses first, then the snapshot folder's (recorded ones count too).
    /// Read leniently, field by field: a body the build would refuse can still name a zone.
    private func clues(_ city: CityConfig) -> Clues {
        var clues = Clues()
        for root in [config.cache.directory, config.snapshotDirectory] {
            let store = ResponseStore(root: root)
            for endpoint in [Endpoint.oneCall, .openMeteoForecast] where clues.named == nil {
                // Open-Meteo says "GMT" for a body asked for in GMT: no zone of the city's.
                if let name = body(store, city, endpoint)?.member("timezone")?.text, name != "GMT", name.contains("/"),
                    let zone = TimeZone(identifier: name)
                {
                    clues.named = (zone, endpoint)
                }
            }
            if clues.offset == nil, let weather = body(store, city, .currentWeather),
                let seconds = weather.member("timezone")?.number.flatMap({ Int(exactly: $0) }),
                let time = weather.member("dt")?.number
            {
                clues.offset = (seconds, Date(timeIntervalSince1970: time))
                if let lat = weather.member("coord")?.member("lat")?.number, let lon = weather.member("coord")?.member("lon")?.number {
                    clues.coordinates = (lat, lon)
                }
            }
        }
        return clues
    }

    private func body(_ store: ResponseStore, _ city: CityConfig, _ endpoint: Endpoint) -> JSONValue? {
        guard let response = try? store.read(slug: city.slug, endpoint: endpoint) else { return nil }
        return try? JSONValueDecoder.tree(response.body)
    }

    /// The zone's next change of offset within a year, as its local date; nil without one.
    private func nextChange(_ zone: TimeZone) -> String? {
        guard let change = zone.nextDaylightSavingTimeTransition(after: now), change.timeIntervalSince(now) <= 366 * 86_400 else {
            return nil
        }
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withFullDate]
        format.timeZone = zone
        return format.string(from: change)
    }
}
