/// The countries whose national services publish their warnings on MeteoAlarm, by ISO
/// 3166-1 code, with the name of each one's feed (`feeds-<name>`) as feeds.meteoalarm.org
/// spells it. One list: `auto`'s coverage, the requests and the README's table follow it.
public enum MeteoAlarmCountries {
    public static let feeds: [String: String] = [
        "AT": "austria", "BA": "bosnia-herzegovina", "BE": "belgium", "BG": "bulgaria", "CH": "switzerland",
        "CY": "cyprus", "CZ": "czechia", "DE": "germany", "DK": "denmark", "EE": "estonia", "ES": "spain",
        "FI": "finland", "FR": "france", "GB": "united-kingdom", "GR": "greece", "HR": "croatia", "HU": "hungary",
        "IE": "ireland", "IL": "israel", "IS": "iceland", "IT": "italy", "LT": "lithuania", "LU": "luxembourg",
        "LV": "latvia", "MD": "moldova", "ME": "montenegro", "MK": "north-macedonia", "MT": "malta",
        "NL": "netherlands", "NO": "norway", "PL": "poland", "PT": "portugal", "RO": "romania", "RS": "serbia",
        "SE": "sweden", "SI": "slovenia", "SK": "slovakia", "TR": "turkey", "UA": "ukraine",
    ]

    /// The feed's name for a country code (any case), nil where MeteoAlarm has none.
    public static func feedName(of country: String) -> String? { feeds[country.uppercased()] }
}
