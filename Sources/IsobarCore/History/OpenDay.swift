/// A city's open day: what recording changes run after run, in one row of `open_day`
/// rewritten each run, where it used to change a row in each of `observed_day`,
/// `forecast_lead`, `verification` and `check_day` (and their pages: some four of the
/// seven 4 KiB pages a run wrote per city, each written twice, to the WAL and at the
/// checkpoint; Benchmarks/README.md, "history.sh"). It holds
/// - `tally`: the city's latest local day so far (`observed_day` has no row for it);
/// - `leads`: the forecast hours the checks may still pair (`forecast_lead`'s rows);
/// - `pairs`: the checks made since the day began (`verification`'s rows, not yet summed
///   into `check_day`).
/// The finished day goes to `observed_day`, and its settled pairs to `verification`, when
/// the next day's first observation comes: once a day. A run recorded out of time order
/// (an import) writes the tables instead (`OpenDayRows.spill`, then `DerivedRows`), and
/// the open day is taken back out of them after it (`OpenDayRows.fold`).
struct OpenDay: Sendable, Equatable {
    var tally: DayTally
    var leads: [Lead] = []
    var pairs: [Pair] = []

    /// A forecast hour kept for the checks: its temperature and chance of precipitation,
    /// from the run whose data time (`issued`) was nearest `made`, the whole hour `lead`
    /// hours before the target.
    struct Lead: Sendable, Equatable {
        var made: Int
        var lead: Int
        var issued: Int
        var temperature: Double
        var chance: Double?

        var target: Int { made + lead * 3600 }
    }

    /// A forecast hour paired with the observation nearest its target (a row of `verification`).
    struct Pair: Sendable, Equatable {
        var target: Int
        var lead: Int
        var issued: Int
        var forecast: Double
        var chance: Double?
        var observedTime: Int
        var observed: Double
        var precipitated: Bool
    }

    init(tally: DayTally, leads: [Lead] = [], pairs: [Pair] = []) {
        self.tally = tally
        self.leads = leads
        self.pairs = pairs
    }

    /// A new city's first observation.
    init(_ fact: ObservationFacts) {
        tally = DayTally(day: fact.day, time: fact.time, temperature: fact.temperature, precipitation: fact.precipitation)
    }

    /// Adds an observation later than every one the day holds (a new day's first when its
    /// day is another: the caller writes the finished day out first).
    mutating func add(_ fact: ObservationFacts) {
        if fact.day == tally.day {
            tally.add(time: fact.time, temperature: fact.temperature, precipitation: fact.precipitation)
        } else {
            tally = DayTally(day: fact.day, time: fact.time, temperature: fact.temperature, precipitation: fact.precipitation)
        }
    }

    /// Keeps the forecast's hours that a check can pair, as `DerivedRows.addLeads` keeps them.
    mutating func addLeads(of hours: some Collection<some PackableHour>, issued: Int) {
        DerivedRows.forEachLead(of: hours, issued: issued) { kept in
            if let index = leads.firstIndex(where: { $0.made == kept.made && $0.lead == kept.lead }) {
                if abs(kept.made - issued) < abs(kept.made - leads[index].issued) { leads[index] = kept }
            } else {
                leads.append(kept)
            }
        }
    }

    /// Pairs the observation with the forecasts made `leads` hours before its nearest whole
    /// hour, as `DerivedRows.verify` pairs them, then lets go of the hours no later
    /// observation can pair: those more than half an hour before this one.
    mutating func verify(_ fact: ObservationFacts) {
        let target = DerivedRows.targetHour(of: fact.time)
        for lead in DerivedRows.leads {
            guard let forecast = leads.first(where: { $0.made == target - lead * 3600 && $0.lead == lead }) else { continue }
            let pair = Pair(target: target, lead: lead, issued: forecast.issued, forecast: forecast.temperature, chance: forecast.chance,
                            observedTime: fact.time, observed: fact.temperature, precipitated: fact.precipitated)
            if let index = pairs.firstIndex(where: { $0.target == target && $0.lead == lead }) {
                if abs(fact.time - target) < abs(pairs[index].observedTime - target) { pairs[index] = pair }
            } else {
                pairs.append(pair)
            }
        }
        leads.removeAll { $0.target <= fact.time - 1800 }
    }

    /// The pairs no later observation can replace (their target more than half an hour
    /// before `time`), taken out.
    mutating func takeSettledPairs(before time: Int) -> [Pair] {
        let settled = pairs.filter { $0.target <= time - 1800 }
        pairs.removeAll { $0.target <= time - 1800 }
        return settled
    }

    /// A chance as the blob keeps it (Float32, read back to the thousandth), so that a
    /// pair reads the same whether it was made from the blob or before it was written.
    static func storedChance(_ chance: Double) -> Double {
        (Double(Float(chance)) * 1000).rounded() / 1000
    }
}

/// `open_day.leads` and `.pairs`: `PackedBytes` records after its version byte,
/// little-endian. A lead: the made hour (Int32, hours since 1970), the lead (UInt8),
/// `issued - made` (Int16, seconds), the temperature (Float64), the chance (Float32, NaN
/// when not sent). A pair: the target hour (Int32), the lead (UInt8), `issued` less the
/// made hour (Int16), the forecast (Float64), the chance (Float32), `observed_time -
/// target` (Int16), the observed temperature (Float64), precipitated (UInt8). Some 100
/// leads and 50 pairs fill 3.4 KB: the row stays on one page.
extension OpenDay {
    static let leadSize = 4 + 1 + 2 + 8 + 4
    static let pairSize = 4 + 1 + 2 + 8 + 4 + 2 + 8 + 1

    var leadsBlob: [UInt8] {
        PackedBytes.pack(records: leads.count, size: Self.leadSize) { out in
            for lead in leads {
                out.int32(lead.made / 3600); out.uint8(UInt8(lead.lead)); out.int16(lead.issued - lead.made)
                out.double(lead.temperature); out.float(lead.chance)
            }
        }
    }

    var pairsBlob: [UInt8] {
        PackedBytes.pack(records: pairs.count, size: Self.pairSize) { out in
            for pair in pairs {
                let made = pair.target - pair.lead * 3600
                out.int32(pair.target / 3600); out.uint8(UInt8(pair.lead)); out.int16(pair.issued - made)
                out.double(pair.forecast); out.float(pair.chance); out.int16(pair.observedTime - pair.target)
                out.double(pair.observed); out.uint8(pair.precipitated ? 1 : 0)
            }
        }
    }

    /// Nil when a blob is not a version-1 blob of whole records.
    static func leads(_ blob: [UInt8]) -> [Lead]? {
        guard var reader = PackedBytes.Reader(blob, recordSize: leadSize) else { return nil }
        var leads: [Lead] = []
        while !reader.atEnd {
            let made = reader.int32() * 3600, lead = Int(reader.uint8()), issued = made + reader.int16()
            leads.append(Lead(made: made, lead: lead, issued: issued, temperature: reader.double(), chance: reader.float()))
        }
        return leads
    }

    static func pairs(_ blob: [UInt8]) -> [Pair]? {
        guard var reader = PackedBytes.Reader(blob, recordSize: pairSize) else { return nil }
        var pairs: [Pair] = []
        while !reader.atEnd {
            let target = reader.int32() * 3600, lead = Int(reader.uint8()), issued = target - lead * 3600 + reader.int16()
            let forecast = reader.double(), chance = reader.float(), observedTime = target + reader.int16()
            pairs.append(Pair(target: target, lead: lead, issued: issued, forecast: forecast, chance: chance, observedTime: observedTime,
                              observed: reader.double(), precipitated: reader.uint8() != 0))
        }
        return pairs
    }
}
