import Foundation
import Testing
@testable import IsobarCore

/// Apple WeatherKit's `Weather` body, read from the fixture (Fixtures/weatherkit/, whose
/// README names the documentation its shape follows).
@Suite struct WeatherKitDecoderTests {
    let decoder = WeatherKitDecoder(describe: { "owm_\($0)" })
    static let boston = CityConfig(
        name: "Boston", country: "US", state: nil, latitude: 42.3601, longitude: -71.0589, units: .metric,
        slug: "boston-us", timeZone: "America/New_York")

    static func utc(_ text: String) throws -> Date { try Date(text, strategy: .iso8601) }
    static func close(_ value: Double?, _ expected: Double) -> Bool { value.map { abs($0 - expected) < 1e-9 } ?? false }

    /// The fixture's values, worked out by hand: km/h ÷ 3.6, fractions × 100 for humidity
    /// and cloud, chances kept as fractions, °C, hPa and mm as sent.
    @Test func decodesTheFixtureInTheModelsUnits() throws {
        let forecast = try decoder.forecast(TestPaths.response("weatherkit/weather.json", .weatherKit), city: Self.boston)
        #expect(forecast.source.api == "weatherkit")
        #expect(forecast.location.latitude == 42.36 && forecast.location.longitude == -71.06)
        #expect(forecast.location.timeZoneIdentifier == "America/New_York" && forecast.location.utcOffsetSeconds == -18000)

        let now = forecast.current
        #expect(now.time == (try Self.utc("2026-11-26T14:00:00Z")))
        #expect(now.temperature == 6.5 && now.feelsLike == 3.2 && now.dewPoint == 3.4 && now.pressure == 1012.4)
        #expect(Self.close(now.humidity, 81) && Self.close(now.cloudCover, 82))
        #expect(Self.close(now.windSpeed, 5) && Self.close(now.windGust, 10) && now.windDirection == 200)
        #expect(now.uvIndex == 1 && now.visibility == 16093.4)
        #expect(now.rainLastHour == nil, "precipitationIntensity is a rate now, not the last hour's amount")
        let (sunrise, sunset) = (try Self.utc("2026-11-26T11:51:00Z"), try Self.utc("2026-11-26T21:15:00Z"))
        #expect(now.sunrise == sunrise && now.sunset == sunset)
        #expect(now.conditions.map(\.code) == [803] && now.conditions.first?.icon == "04d" && now.conditions.first?.description == "owm_803")

        let hours = forecast.hourly
        #expect(hours.count == 5 && hours.allSatisfy { $0.stepHours == 1 })
        #expect(hours.map { $0.condition?.code } == [301, 502, 211, 804, 620])
        #expect(hours.map { $0.condition?.icon } == ["09d", "10d", "11d", "04n", "13n"])
        #expect(hours.map(\.rain) == [0.3, 4.2, 6.0, nil, nil])
        #expect(hours.map(\.snow) == [nil, nil, nil, nil, 0.8], "precipitationType snow")
        #expect(hours.map(\.precipitationChance) == [0.4, 0.85, 0.9, 0.1, 0.3])
        #expect(Self.close(hours[1].windSpeed, 7) && Self.close(hours[1].windGust, 15) && Self.close(hours[1].humidity, 90))
        #expect(hours[3].dewPoint != nil, "worked out from temperature and humidity where the body has none")
        #expect(Self.close(hours[4].cloudCover, 30) && hours[4].visibility == 12000)

        let days = forecast.daily
        #expect(days.map(\.day) == ["2026-11-26", "2026-11-27"])
        #expect(days[0].temperatureMin == 2.1 && days[0].temperatureMax == 8.2 && days[0].rain == 12.5 && days[0].snow == nil)
        #expect(days[0].condition?.code == 501 && days[0].condition?.icon == "10d" && days[0].precipitationChance == 0.9)
        #expect(Self.close(days[0].windSpeed, 7.5) && days[0].windDirection == 195 && days[0].uvIndex == 2)
        #expect(Self.close(days[0].humidity, 86) && Self.close(days[0].cloudCover, 93))
        #expect(days[0].moonPhase == 0.375 && days[1].moonPhase == 0.5)
        let (moonrise, moonset) = (try Self.utc("2026-11-26T19:02:00Z"), try Self.utc("2026-11-26T09:41:00Z"))
        #expect(days[0].moonrise == moonrise && days[0].moonset == moonset)
        #expect(days[1].condition?.code == 800, "Breezy under a 5 % sky is a clear day")
        #expect(days[1].rain == nil && days[1].snow == nil)

        #expect(forecast.nowcast.map(\.intensity) == [0, 0.2, 0.9, 2.4, 1.5])
        #expect(forecast.nowcast.allSatisfy { $0.minutes == 1 })
        #expect(forecast.nowcast.first?.time == (try Self.utc("2026-11-26T14:00:00Z")))
        #expect(forecast.nowcast.last?.time == (try Self.utc("2026-11-26T14:04:00Z")))

        try #require(forecast.alerts.count == 1)
        let alert = forecast.alerts[0]
        #expect(alert.event == "Wind Advisory" && alert.sender == "National Weather Service" && alert.description == "Suffolk County")
        let (onset, end) = (try Self.utc("2026-11-26T20:00:00Z"), try Self.utc("2026-11-27T06:00:00Z"))
        #expect(alert.start == onset && alert.end == end, "the event's own bounds, not the notice's")
        #expect(alert.tags == ["moderate"])
    }

    /// Every condition code WeatherKit sends (Fixtures/weatherkit/conditions.txt) has an
    /// icon and an existing `owm_` text; the four that say nothing of the sky read it from
    /// the cloud cover, and have none without one.
    @Test func everyConditionCodeHasAnIconAndAText() throws {
        let english = Set(try Strings.englishKeys(templates: TestPaths.repository.appendingPathComponent("Templates")))
        let codes = try String(contentsOf: TestPaths.fixture("weatherkit/conditions.txt"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(codes.count == 34)
        for code in codes {
            let condition = try #require(WeatherKitCondition.condition(code, cloudCover: 0.6, isDay: false, describe: { "owm_\($0)" }), "\(code)")
            #expect(condition.icon.hasSuffix("n") && condition.icon.count == 3, "\(code)")
            #expect(condition.main == code)
            #expect(english.contains(condition.textKey), "\(code): \(condition.textKey) is not a UI string")
        }
        #expect(WeatherKitCondition.condition("Windy", cloudCover: 0.6, isDay: true, describe: { "\($0)" })?.code == 803)
        #expect(WeatherKitCondition.condition("Hot", cloudCover: nil, isDay: true, describe: { "\($0)" }) == nil)
        let unknown = try #require(WeatherKitCondition.condition("VolcanicAsh", cloudCover: nil, isDay: true, describe: { "\($0)" }))
        #expect(unknown.icon.isEmpty && unknown.description == "VolcanicAsh")
    }

    /// Issue 54: "No warnings in force" only when a source answered. A WeatherKit body
    /// without `weatherAlerts` did not say, so with no other source the page says warnings
    /// are not available; with the data set and no alert in it, none are in force.
    @Test func aBodyWithoutWeatherAlertsDoesNotSayNoneAreInForce() throws {
        let text = try String(contentsOf: TestPaths.fixture("weatherkit/weather.json"), encoding: .utf8)
        var document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let presenter = try Fixtures.presenter()
        func note(_ document: [String: Any]) throws -> String? {
            let response = RawResponse(endpoint: .weatherKit, body: try JSONSerialization.data(withJSONObject: document), fetchedAt: Date())
            let forecast = try decoder.forecast(response, city: Self.boston)
                .withWarnings(CityWarnings(sources: [.weatherkit], language: "en"), city: Self.boston)
            return presenter.warningsNote(forecast.warnings, shown: forecast.alerts.count)
        }
        document["weatherAlerts"] = ["name": "WeatherAlertCollection", "alerts": [[String: Any]]()]
        #expect(try note(document) == "No warnings in force")
        document["weatherAlerts"] = nil
        #expect(try note(document) == "Official weather warnings are not available for this place")
    }

    @Test func anImplausibleValueIsRefusedWithItsPath() throws {
        let text = try String(contentsOf: TestPaths.fixture("weatherkit/weather.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"windSpeed\": 25.2", with: "\"windSpeed\": 2520")
        let response = RawResponse(endpoint: .weatherKit, body: Data(text.utf8), fetchedAt: Date(), file: URL(fileURLWithPath: "/tmp/weatherkit.json"))
        do {
            _ = try decoder.forecast(response, city: Self.boston)
            Issue.record("a wind of 2520 km/h was accepted")
        } catch let error as IsobarError {
            #expect(error.message.contains("forecastHourly.hours[1].windSpeed") && error.message.contains("km/h"), "\(error.message)")
        }
    }

    @Test func aCityWithoutAZoneIsToldToAddOne() throws {
        var city = Self.boston
        city.timeZone = nil
        do {
            _ = try decoder.forecast(TestPaths.response("weatherkit/weather.json", .weatherKit), city: city)
            Issue.record("a city without timezone: was decoded")
        } catch let error as IsobarError {
            #expect(error.message.contains("Apple WeatherKit") && error.message.contains("`timezone:`"), "\(error.message)")
            #expect(error.hint?.contains("America/") == true, "\(error.hint ?? "")")
        }
    }
}

/// The developer token and the key it is signed with, without a server.
@Suite struct WeatherKitTokenTests {
    static func key(in folder: TemporaryFolder, name: String = "AuthKey.p8") throws -> URL {
        let file = folder.url.appendingPathComponent(name)
        try WeatherKitStandIn.makeKey(file)
        return file
    }

    static func decoded(_ part: Substring) throws -> [String: Any] {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let data = try #require(Data(base64Encoded: text))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Three base64url parts without padding; the header and exactly the claims Apple
    /// documents; a 64-byte r||s signature that the `cryptography` package (not libcrypto
    /// through Isobar) verifies with the public key.
    @Test func theTokenHasTheDocumentedShapeAndItsSignatureVerifies() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let file = try Self.key(in: folder)
        let key = try WeatherKitKey(pem: Data(contentsOf: file), origin: file.path)
        let issued = Date(timeIntervalSince1970: 1_795_700_000)
        let token = WeatherKitToken(teamID: "TEAM123456", serviceID: "org.example.weather", keyID: "KEY1234567", key: key, now: { issued })
        let jwt = try token.current()
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        #expect(!jwt.contains("=") && !jwt.contains("+") && !jwt.contains("/"))
        let header = try Self.decoded(parts[0]), claims = try Self.decoded(parts[1])
        #expect(header as? [String: String] == ["alg": "ES256", "kid": "KEY1234567", "id": "TEAM123456.org.example.weather"])
        #expect(Set(claims.keys) == ["iss", "iat", "exp", "sub"])
        #expect(claims["iss"] as? String == "TEAM123456" && claims["sub"] as? String == "org.example.weather")
        #expect(claims["iat"] as? Int == 1_795_700_000 && claims["exp"] as? Int == 1_795_703_600)

        let publicKey = folder.url.appendingPathComponent("public.pem")
        try SSHServer.run("/usr/bin/openssl", ["pkey", "-in", file.path, "-pubout", "-out", publicKey.path])
        _ = try folder.write(jwt, to: "token.txt")
        let verify = """
            import base64, sys
            from cryptography.hazmat.primitives import hashes, serialization
            from cryptography.hazmat.primitives.asymmetric import ec
            from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
            head, claims, sig = open(sys.argv[1]).read().split(".")
            raw = base64.urlsafe_b64decode(sig + "=" * (-len(sig) % 4))
            assert len(raw) == 64, len(raw)
            key = serialization.load_pem_public_key(open(sys.argv[2], "rb").read())
            key.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                       (head + "." + claims).encode(), ec.ECDSA(hashes.SHA256()))
            """
        let python = try Child("/usr/bin/env", ["python3", "-c", verify, folder.url.appendingPathComponent("token.txt").path, publicKey.path], stderr: .pipe)
        let stderr = String(decoding: python.stderr!.readDataToEndOfFile(), as: UTF8.self)
        python.waitForExit()
        #expect(python.terminationStatus == 0, "the signature does not verify: \(stderr)")
    }

    /// One token for the run's cities, a new one only when it is about to expire.
    @Test func theTokenIsReusedWithinItsLifetime() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let file = try Self.key(in: folder)
        let clock = Locked(Date(timeIntervalSince1970: 1_795_700_000))
        let token = try WeatherKitToken(teamID: "T", serviceID: "S", keyID: "K", key: WeatherKitKey(pem: Data(contentsOf: file), origin: "test"),
                                        now: { clock.value })
        let first = try token.current()
        clock.set(clock.value.addingTimeInterval(3000))
        #expect(try token.current() == first)
        clock.set(clock.value.addingTimeInterval(400))
        #expect(try token.current() != first, "less than five minutes left: a new token")
    }

    /// A file that is no key, or another curve's key, is refused by where it came from,
    /// never by what it holds; a key pasted into one line with `\n` for its breaks loads.
    @Test func aKeyThatIsNotAP256KeyIsRefusedWithoutShowingIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let secret = "-----BEGIN PRIVATE KEY-----\nTHISISNOTAKEYBUTASECRETTEXT\n-----END PRIVATE KEY-----\n"
        do {
            _ = try WeatherKitKey(pem: Data(secret.utf8), origin: "/keys/AuthKey.p8")
            Issue.record("garbage was loaded as a key")
        } catch let error as IsobarError {
            #expect(error.message.contains("/keys/AuthKey.p8") && !"\(error)".contains("THISISNOTAKEY"), "\(error)")
        }
        let p384 = folder.url.appendingPathComponent("p384.pem")
        try SSHServer.run("/usr/bin/openssl", ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", p384.path])
        #expect(throws: IsobarError.self) { try WeatherKitKey(pem: Data(contentsOf: p384), origin: "p384.pem") }
        do { _ = try WeatherKitKey(pem: Data(contentsOf: p384), origin: "p384.pem") } catch { #expect("\(error)".contains("not an EC P-256 key"), "\(error)") }

        let good = try String(contentsOf: try Self.key(in: folder), encoding: .utf8)
        let oneLine = good.replacingOccurrences(of: "\n", with: "\\n")
        _ = try WeatherKitKey.load(.environment("WK"), variables: ["WK": oneLine])
        do {
            _ = try WeatherKitKey.load(.environment("WK"), variables: [:])
            Issue.record("an unset variable was accepted")
        } catch { #expect("\(error)".contains("WK (weatherkit.private_key_env) is not set"), "\(error)") }
    }

    @Test func theConfigNamesEachMissingPiece() throws {
        let file = URL(fileURLWithPath: "/tmp/site/isobar.yml")
        let base = "base_url: https://w.example.org/\nprovider: weatherkit\ncities: [{ name: Boston, country: US, timezone: America/New_York }]\n"
        let full = base + "weatherkit: { team_id: TEAM123456, service_id: org.example.weather, key_id: KEY1234567, private_key_file: keys/AuthKey.p8 }\n"
        let config = try ConfigLoader.parse(full, file: file)
        #expect(config.provider == .weatherKit && config.weatherKit.teamID == "TEAM123456" && config.weatherKit.keyID == "KEY1234567")
        #expect(config.weatherKit.key == .file(URL(fileURLWithPath: "/tmp/site/keys/AuthKey.p8")))
        #expect(config.weatherKit.baseURL.absoluteString == "https://weatherkit.apple.com")
        let cases = [
            (base, "weatherkit.team_id, weatherkit.service_id, weatherkit.key_id, weatherkit.private_key_file"),
            (base + "weatherkit: { team_id: TEAM123456, service_id: org.example.weather, private_key_env: WK }\n", "needs weatherkit.key_id in isobar.yml"),
            (full.replacingOccurrences(of: " }\n", with: ", private_key_env: WK }\n"), "give the key once"),
            (full.replacingOccurrences(of: "KEY1234567", with: "KEY 1234567"), "is not an id"),
        ]
        for (text, expected) in cases {
            do {
                _ = try ConfigLoader.parse(text, file: file)
                Issue.record("accepted: \(text)")
            } catch {
                #expect("\(error)".contains(expected) && "\(error)".contains("isobar.yml"), "\(error)")
            }
        }
        // A chain, or a city's own, that names weatherkit needs the block as well.
        let cityChain = base.replacingOccurrences(of: "provider: weatherkit\n", with: "provider: open-meteo\n")
            .replacingOccurrences(of: "timezone: America/New_York }", with: "timezone: America/New_York, provider: [weatherkit, open-meteo] }")
        do {
            _ = try ConfigLoader.parse(cityChain, file: file)
            Issue.record("a city's weatherkit chain without the block was accepted")
        } catch { #expect("\(error)".contains("cities[0].provider") && "\(error)".contains("needs weatherkit.team_id"), "\(error)") }
        // Another provider's site may keep an incomplete block.
        _ = try ConfigLoader.parse(base.replacingOccurrences(of: "weatherkit", with: "open-meteo") + "weatherkit: { team_id: T }\n", file: file)
    }
}
