import Foundation

/// What `isobar check` says of the call budget: the requests the cities need a day at
/// their refresh intervals, and how often each can be refreshed within the limits.
public enum BudgetEstimate {
    /// Requests one refresh of a city sends (geocoding, once per city, left out).
    public static func callsPerRefresh(_ config: SiteConfig) -> Int? {
        ServiceRegistry.service(config.provider)?.callsPerRefresh(config)
    }

    public static func limits(_ config: SiteConfig) -> (CallLimits, key: String)? {
        ServiceRegistry.service(config.provider)?.limits(config)
    }

    public static func describe(_ config: SiteConfig) -> String? {
        guard let calls = callsPerRefresh(config), let (limits, key) = limits(config) else { return nil }
        let refreshes = config.cities.map { (calls: calls, refresh: $0.refresh ?? config.cache.maxAge) }
        let needed = refreshes.reduce(0.0) { $0 + Double($1.calls) * CallPeriod.daySeconds / max($1.refresh, 60) }
        let cities = "\(grouped(config.cities.count)) \(config.cities.count == 1 ? "city" : "cities") × \(counted(calls, "call", "calls"))"
        let note = ServiceRegistry.service(config.provider)?.callsNote(config) ?? ""
        let uniform = Set(refreshes.map(\.refresh)).count == 1
        let cadence = uniform ? " every \(ProgressDisplay.duration(max(refreshes[0].refresh, 60)))" : " at their refresh intervals"
        guard !limits.isEmpty else {
            return "budget: none set (\(key).daily_limit, \(key).monthly_limit); \(cities)\(note)\(cadence) need about \(grouped(Int(needed.rounded()))) calls a day"
        }
        let perDay = callsPerDay(limits)
        var allowed: [String] = []
        if let daily = limits.daily { allowed.append("\(grouped(daily)) calls a day") }
        if let monthly = limits.monthly { allowed.append("\(grouped(monthly)) a month") }
        var budget = allowed.joined(separator: " and ")
        if limits.daily == nil || perDay < Double(limits.daily!) { budget += " (about \(grouped(Int(perDay))) a day)" }
        guard let interval = RefreshPlan.refreshInterval(refreshes, callsPerDay: perDay) else {
            return "budget: \(cities)\(note)\(cadence) need about \(grouped(Int(needed.rounded()))) calls a day, within \(budget): every city refreshed as configured"
        }
        guard interval.isFinite, interval < 365 * CallPeriod.daySeconds else {
            return "budget: \(cities)\(note), \(budget): too little to refresh any city"
        }
        let longer = uniform ? "" : " (or its own refresh: when longer)"
        return "budget: \(cities)\(note), \(budget): each city refreshed about every \(ProgressDisplay.duration(interval))\(longer)"
    }

    /// `normals: archive`: a call to Open-Meteo's archive for each city, the first time a
    /// run meets it (the answer is kept for good), spent from Open-Meteo's limits: not in
    /// the refreshes `describe` counts, but a first run of many cities spends them at once.
    public static func normals(_ config: SiteConfig) -> String? {
        guard case .archive = config.normals, config.provider != .snapshot else { return nil }
        let count = config.cities.count, limits = config.openMeteo.limits
        let calls = "normals: \(grouped(count)) call\(count == 1 ? "" : "s") to Open-Meteo's archive, one per city, once (the answers are kept)"
        let perDay = callsPerDay(limits)
        guard perDay.isFinite else { return calls + "; open_meteo sets no limit" }
        let days = Int((Double(count) / max(perDay, 1)).rounded(.up))
        return calls + ", from open_meteo's limits (about \(grouped(Int(perDay))) a day"
            + (config.providersUsed.contains(.openMeteo) ? ", shared with its forecasts" : "") + ")"
            + (days > 1 ? ": the last cities get theirs after about \(days) days" : "")
    }

    /// The calls a day the limits allow, ∞ without any: a month's limit is spread over its
    /// longest month, so that no month runs short.
    private static func callsPerDay(_ limits: CallLimits) -> Double {
        min(limits.daily.map(Double.init) ?? .infinity, limits.monthly.map { Double($0) / 31 } ?? .infinity)
    }

    /// `1,000`: counts as people read them.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return (number < 0 ? "-" : "") + text
    }
}
