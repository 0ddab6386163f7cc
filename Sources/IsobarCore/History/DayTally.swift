/// A local day's observations added up in time order, as `observed_day` and a city's open
/// day (`OpenDay`) hold them and as a page adds up today before its data time: the low,
/// the high, the temperatures' sum and count, and the precipitation. Observations report
/// the last hour's amount however often they come, so each clock hour counts once, with
/// the largest amount reported in it: `hour` is the hour being counted,
/// `hourPrecipitation` its amount so far, `precipitation` the finished hours' sum.
/// `DerivedRows.addToDay` is the same arithmetic in SQL, for a day already in the table.
struct DayTally: Sendable, Equatable {
    var day: String
    var low: Double
    var high: Double
    var sum: Double
    var samples: Int
    var precipitation: Double
    var hour: Int
    var hourPrecipitation: Double
    /// The latest observation added (nil in a day summed before schema version 5).
    var lastTime: Int?

    /// The day's first observation.
    init(day: String, time: Int, temperature: Double, precipitation: Double) {
        self.day = day
        low = temperature
        high = temperature
        sum = temperature
        samples = 1
        self.precipitation = 0
        hour = time / 3600
        hourPrecipitation = precipitation
        lastTime = time
    }

    init(day: String, low: Double, high: Double, sum: Double, samples: Int, precipitation: Double, hour: Int, hourPrecipitation: Double,
         lastTime: Int?) {
        self.day = day
        self.low = low
        self.high = high
        self.sum = sum
        self.samples = samples
        self.precipitation = precipitation
        self.hour = hour
        self.hourPrecipitation = hourPrecipitation
        self.lastTime = lastTime
    }

    mutating func add(time: Int, temperature: Double, precipitation: Double) {
        low = min(low, temperature)
        high = max(high, temperature)
        sum += temperature
        samples += 1
        if time / 3600 == hour {
            hourPrecipitation = max(hourPrecipitation, precipitation)
        } else {
            self.precipitation += hourPrecipitation
            hourPrecipitation = precipitation
            hour = time / 3600
        }
        lastTime = max(lastTime ?? time, time)
    }

    /// The day as a page shows it while its current hour runs: the finished hours' precipitation.
    var observed: ObservedDay {
        ObservedDay(day: day, low: low, high: high, mean: sum / Double(samples), precipitation: precipitation, samples: samples)
    }

    /// The day with its last hour counted.
    var completed: ObservedDay {
        var day = observed
        day.precipitation += hourPrecipitation
        return day
    }
}

extension DayTally {
    /// The columns `day, temperature_min, temperature_max, temperature_sum, samples,
    /// precipitation, hour, hour_precipitation, last_time` from `first` on, as
    /// `observed_day` and `open_day` name them.
    init(_ row: ResultRow, from first: Int32 = 0) {
        self.init(day: row.text(first), low: row.double(first + 1), high: row.double(first + 2), sum: row.double(first + 3),
                  samples: row.int(first + 4), precipitation: row.double(first + 5), hour: row.int(first + 6),
                  hourPrecipitation: row.double(first + 7), lastTime: row.optionalInt(first + 8))
    }
}
