// One Call bodies are read by hand from the JSON tree (`JSONFields`) rather than through
// `Codable`: it is the response every city of every build decodes, and the `Decoder`
// machinery (a container box and a coding key per field) was most of that work. Fields
// are read in declaration order, so the first problem reported is the one `JSONDecoder`
// would report; `JSONValueDecoderTests` checks both agree on samples and broken bodies.

extension OneCallBody {
    init(json: JSONValue) throws(DecodingError) {
        let fields = try JSONFields(json)
        lat = try fields.double("lat")
        lon = try fields.double("lon")
        timezone = try fields.string("timezone")
        timezone_offset = try fields.optionalInt("timezone_offset")
        current = try fields.value("current") { value throws(DecodingError) in try Current(json: value) }
        hourly = try fields.optionalValue("hourly") { value throws(DecodingError) in
            try JSONFields.array(value) { element throws(DecodingError) in try Hourly(json: element) }
        }
        daily = try fields.optionalValue("daily") { value throws(DecodingError) in
            try JSONFields.array(value) { element throws(DecodingError) in try Daily(json: element) }
        }
        alerts = try fields.optionalValue("alerts") { value throws(DecodingError) in
            try JSONFields.array(value) { element throws(DecodingError) in try Alert(json: element) }
        }
        minutely = try fields.optionalValue("minutely") { value throws(DecodingError) in
            try JSONFields.array(value) { element throws(DecodingError) in
                let minute = try JSONFields(element)
                return Minute(dt: try minute.double("dt"), precipitation: try minute.double("precipitation"))
            }
        }
    }
}

extension OneCallBody.Current {
    init(json: JSONValue) throws(DecodingError) {
        let fields = try JSONFields(json)
        dt = try fields.double("dt")
        sunrise = try fields.optionalDouble("sunrise")
        sunset = try fields.optionalDouble("sunset")
        temp = try fields.double("temp")
        feels_like = try fields.optionalDouble("feels_like")
        pressure = try fields.optionalDouble("pressure")
        humidity = try fields.optionalDouble("humidity")
        dew_point = try fields.optionalDouble("dew_point")
        uvi = try fields.optionalDouble("uvi")
        clouds = try fields.optionalDouble("clouds")
        visibility = try fields.optionalDouble("visibility")
        wind_speed = try fields.optionalDouble("wind_speed")
        wind_deg = try fields.optionalDouble("wind_deg")
        wind_gust = try fields.optionalDouble("wind_gust")
        rain = try fields.optionalValue("rain", Precipitation.init(json:))
        snow = try fields.optionalValue("snow", Precipitation.init(json:))
        weather = try fields.optionalValue("weather", OWCondition.list(json:))
    }
}

extension OneCallBody.Hourly {
    init(json: JSONValue) throws(DecodingError) {
        let fields = try JSONFields(json)
        dt = try fields.double("dt")
        temp = try fields.double("temp")
        feels_like = try fields.optionalDouble("feels_like")
        pressure = try fields.optionalDouble("pressure")
        humidity = try fields.optionalDouble("humidity")
        dew_point = try fields.optionalDouble("dew_point")
        uvi = try fields.optionalDouble("uvi")
        clouds = try fields.optionalDouble("clouds")
        visibility = try fields.optionalDouble("visibility")
        pop = try fields.optionalDouble("pop")
        wind_speed = try fields.optionalDouble("wind_speed")
        wind_deg = try fields.optionalDouble("wind_deg")
        wind_gust = try fields.optionalDouble("wind_gust")
        rain = try fields.optionalValue("rain", Precipitation.init(json:))
        snow = try fields.optionalValue("snow", Precipitation.init(json:))
        weather = try fields.optionalValue("weather", OWCondition.list(json:))
    }
}

extension OneCallBody.Daily {
    init(json: JSONValue) throws(DecodingError) {
        let fields = try JSONFields(json)
        dt = try fields.double("dt")
        sunrise = try fields.optionalDouble("sunrise")
        sunset = try fields.optionalDouble("sunset")
        moon_phase = try fields.optionalDouble("moon_phase")
        moonrise = try fields.optionalDouble("moonrise")
        moonset = try fields.optionalDouble("moonset")
        summary = try fields.optionalString("summary")
        temp = try fields.value("temp") { value throws(DecodingError) in
            let range = try JSONFields(value)
            return Temperatures(min: try range.double("min"), max: try range.double("max"))
        }
        pressure = try fields.optionalDouble("pressure")
        humidity = try fields.optionalDouble("humidity")
        dew_point = try fields.optionalDouble("dew_point")
        clouds = try fields.optionalDouble("clouds")
        pop = try fields.optionalDouble("pop")
        rain = try fields.optionalValue("rain", Precipitation.init(json:))
        snow = try fields.optionalValue("snow", Precipitation.init(json:))
        wind_speed = try fields.optionalDouble("wind_speed")
        wind_deg = try fields.optionalDouble("wind_deg")
        wind_gust = try fields.optionalDouble("wind_gust")
        uvi = try fields.optionalDouble("uvi")
        weather = try fields.optionalValue("weather", OWCondition.list(json:))
    }
}

extension OneCallBody.Alert {
    init(json: JSONValue) throws(DecodingError) {
        let fields = try JSONFields(json)
        sender_name = try fields.optionalString("sender_name")
        event = try fields.string("event")
        start = try fields.double("start")
        end = try fields.double("end")
        description = try fields.optionalString("description")
        tags = try fields.optionalValue("tags") { value throws(DecodingError) in try JSONFields.array(value, JSONFields.string) }
    }
}

extension OWCondition {
    init(json: JSONValue) throws(DecodingError) {
        let fields = try JSONFields(json)
        id = try fields.int("id")
        main = try fields.optionalString("main")
        description = try fields.optionalString("description")
        icon = try fields.optionalString("icon")
    }

    static func list(json: JSONValue) throws(DecodingError) -> [OWCondition] {
        try JSONFields.array(json, OWCondition.init(json:))
    }
}

extension Precipitation {
    /// As the `Decodable` form: a number, or an object with `1h` or `3h` (else 0).
    init(json: JSONValue) throws(DecodingError) {
        if case .number(let number, _) = json {
            millimetres = number
            return
        }
        let fields = try JSONFields(json)
        if let hour = try fields.optionalDouble("1h") {
            millimetres = hour
            hours = 1
        } else if let threeHours = try fields.optionalDouble("3h") {
            millimetres = threeHours
            hours = 3
        } else {
            millimetres = 0
        }
    }
}

// Air Pollution comes with every One Call city, so it is read by hand too (through
// `Codable` it was a sixth of decoding). `AirPollutionBody` keeps its `Decodable` form,
// which the tests hold this reader to.
extension AirPollutionBody {
    init(json: JSONValue) throws(DecodingError) {
        let fields = try JSONFields(json)
        list = try fields.value("list") { value throws(DecodingError) in try JSONFields.array(value, Entry.init(json:)) }
    }
}

extension AirPollutionBody.Entry {
    init(json: JSONValue) throws(DecodingError) {
        let fields = try JSONFields(json)
        main = try fields.value("main") { value throws(DecodingError) in Main(aqi: try JSONFields(value).int("aqi")) }
        components = try fields.optionalValue("components") { value throws(DecodingError) in try JSONFields.dictionary(value, JSONFields.double) }
        dt = try fields.double("dt")
    }
}
