// The names `city.md` and its partials may use, declared once (see TemplateField.swift).
// Examples are from the demo's London page; `isobar fields city` prints this list, and
// docs/templates.md is generated from it. The measured values of the current conditions,
// an hour and a day (humidity, pressure, …) are declared with the forecast's numbers
// (Normalize/ForecastFields.swift) and join these lists through `measured`.

extension Quantity: TemplateModel {
    static let fields = TemplateFields<Quantity>("Quantity", "A measured value: prints as `text`; `value` and `unit` for drawing.", printedAs: "text", [
        .init("text", \.text, "Formatted as the page shows it", example: "1013 hPa"),
        .init("value", \.value, "The number in the city's units, `.` as decimal separator", example: "1013.2"),
        .init("unit", \.unit, "The unit of `value`", example: "hPa"),
    ])
}

extension Category: TemplateModel {
    static let fields = TemplateFields<Category>("Category", "A named band of an index, with a CSS key.", printedAs: "label", [
        .init("label", \.label, "In the site's language", example: "Moderate"),
        .init("key", \.key, "Stable ASCII key to colour by", example: "uv-moderate"),
    ])
}

extension CityPageModel.Icon: TemplateModel {
    static let fields = TemplateFields<Self>("Icon", "A condition icon.", [
        .init("src", \.src, "Relative URL of the icon from the page", example: "../assets/icons/10d.svg"),
        .init("alt", \.alt, "The condition in words: the icon's alt text", example: "Light rain"),
    ])
}

extension CityPageModel.Wind: TemplateModel {
    static let fields = TemplateFields<Self>("Wind", "Wind at a time: prints as `text`.", printedAs: "text", [
        .init("text", \.text, "Speed and compass point", example: "5 m/s SW"),
        .init("speed", \.speed, "Mean speed", example: "5 m/s"),
        .init("gust", \.gust, "Gusts, where the data has them", example: "11 m/s"),
        .init("direction", \.direction, "Compass point the wind comes from", example: "SW"),
        .init("degrees", \.degrees, "Degrees the wind comes from (0 north, 90 east)", example: "230"),
        .init("arrowRotation", \.arrowRotation, "Degrees to turn an arrow so it points where the wind blows", example: "50"),
        .init("beaufort", \.beaufort, "Beaufort description", example: "Gentle breeze"),
        .init("beaufortForce", \.beaufortForce, "Beaufort force, 0…12", example: "3"),
        .init("beaufortScale", \.beaufortScale, "The force in the language's words", example: "Beaufort 3"),
        .init("animationPeriod", \.animationPeriod, "Seconds per sweep of the wind animation; absent when calm", example: "1.20s"),
    ])
}

extension CityPageModel.Now: TemplateModel {
    static let fields = TemplateFields<Self>("Now", "Current conditions.", [
        .init("icon", \.icon, "Condition icon; absent where the data has no condition code"),
        .init("temperature", \.temperature, "Temperature, with its unit", example: "9 °C"),
        .init("description", \.description, "The main condition", example: "Light rain"),
        .init("conditions", \.conditions, "Every condition the data names, listed as the language lists (CLDR)", example: "Light rain and mist"),
        .init("high", \.high, "Today's high (never below the current temperature)", example: "11°"),
        .init("low", \.low, "Today's low", example: "6°"),
        .init("wind", \.wind, "Wind"),
    ] + TemplateField.measured(\.measured) + [
        .init("uvCategory", \.uvCategory, "UV index band (WHO)"),
        .init("sunrise", \.sunrise, "Local time of sunrise", example: "07:31"),
        .init("sunset", \.sunset, "Local time of sunset", example: "16:02"),
        .init("polarDay", \.polarDay, "\"Polar night\" or \"Midnight sun\" on a day without sunrise or sunset", example: "Polar night"),
        .init("dayLength", \.dayLength, "Daylight", example: "8 h 31 min"),
        .init("moonPhase", \.moonPhase, "Moon phase in words", example: "Waxing crescent"),
        .init("moonrise", \.moonrise, "Local time of moonrise", example: "11:20"),
        .init("moonset", \.moonset, "Local time of moonset", example: "19:45"),
    ])
}

extension CityPageModel.Nowcast: TemplateModel {
    static let fields = TemplateFields<Self>("Nowcast", "The next hour's rain or snow.", [
        .init("text", \.text, "In words", example: "Rain starting in about 20 min"),
        .init("strip", \.strip, "Inline SVG of the minutes' intensity (insert with {{{…}}})", example: "<svg …>"),
    ])
}

extension CityPageModel.AirQualityModel.Pollutant: TemplateModel {
    static let fields = TemplateFields<Self>("Pollutant", "One measured pollutant.", [
        .init("name", \.name, "Its name", example: "PM2.5"),
        .init("value", \.value, "Concentration", example: "8.4 μg/m³"),
    ])
}

extension CityPageModel.AirQualityModel: TemplateModel {
    static let fields = TemplateFields<Self>("AirQuality", "Air quality (OpenWeather only).", [
        .init("index", \.index, "OpenWeather's Air Quality Index, 1…5", example: "2"),
        .init("category", \.category, "The index's band"),
        .init("pollutants", \.pollutants, "PM2.5, PM10, O₃, NO₂ where measured"),
    ])
}

extension CityPageModel.History.PastDay: TemplateModel {
    static let fields = TemplateFields<Self>("PastDay", "A day of the past week as observed.", [
        .init("weekday", \.weekday, "Short weekday", example: "Mon"),
        .init("date", \.date, "Short date", example: "17 Nov"),
        .init("datetime", \.datetime, "The day, `yyyy-MM-dd` (for <time datetime>)", example: "2026-11-17"),
        .init("high", \.high, "Highest observed; absent on a day without observations (a gap)", example: "12°"),
        .init("low", \.low, "Lowest observed; absent on a gap", example: "6°"),
        .init("precipitation", \.precipitation, "Rain and snow observed; absent on a gap", example: "1.2 mm"),
    ])
}

extension CityPageModel.History.Extreme: TemplateModel {
    static let fields = TemplateFields<Self>("Extreme", "A record: the value and the first day it was reached.", [
        .init("temperature", \.temperature, "The temperature", example: "15°"),
        .init("date", \.date, "The day", example: "14 November 2026"),
        .init("datetime", \.datetime, "The day, `yyyy-MM-dd`", example: "2026-11-14"),
    ])
}

extension CityPageModel.History.Records: TemplateModel {
    static let fields = TemplateFields<Self>("Records", "The warmest high and coldest low over a date or a month, in every year recorded.", [
        .init("period", \.period, "The date or the month", example: "November"),
        .init("warmest", \.warmest, "The warmest high"),
        .init("coldest", \.coldest, "The coldest low"),
    ])
}

extension CityPageModel.History.Check: TemplateModel {
    static let fields = TemplateFields<Self>("Check", "How the temperature forecasts made some hours ahead did.", [
        .init("ahead", \.ahead, "How far ahead, in words", example: "24 hours ahead"),
        .init("hours", \.hours, "How far ahead, in hours", example: "24"),
        .init("error", \.error, "Mean absolute error of the temperature", example: "1°"),
        .init("forecasts", \.forecasts, "Forecasts compared", example: "72"),
        .init("text", \.text, "All of it in words", example: "24 hours ahead: off by 1° on average, over 72 forecasts"),
    ])
}

extension CityPageModel.History: TemplateModel {
    static let fields = TemplateFields<Self>("History", "The city's past, recorded by earlier builds; each part only where the history backs it.", [
        .init("pastWeek", \.pastWeek, "The 7 days before today, oldest first, gaps included"),
        .init("hasPastWeek", \.hasPastWeek, "Whether any of the 7 days was observed", example: "true"),
        .init("pastWeekChart", \.pastWeekChart, "Inline SVG of the days' highs and lows, gaps left open (insert with {{{…}}})", example: "<svg …>"),
        .init("pastWeekSummary", \.pastWeekSummary, "The chart in words", example: "Highs from 9° to 14°, lows from 3° to 8°."),
        .init("since", \.since, "The first day in the history", example: "13 November 2026"),
        .init("sinceDateTime", \.sinceDateTime, "The first day, `yyyy-MM-dd`", example: "2026-11-13"),
        .init("onThisDate", \.onThisDate, "Records for today's date, once an earlier year has it"),
        .init("inThisMonth", \.inThisMonth, "Records for this month, once an earlier day of it is recorded"),
        .init("hasRecords", \.hasRecords, "Whether either kind of records is there", example: "true"),
        .init("newRecords", \.newRecords, "A sentence for each record today breaks", example: "Today’s high so far, 15 °C, is the warmest of any November day on record."),
        .init("comparedWithYesterday", \.comparedWithYesterday, "Now against yesterday at this time", example: "3° warmer than yesterday at this time"),
        .init("yesterdayDifference", \.yesterdayDifference, "The difference, unsigned (the words say which way)", example: "3°"),
        .init("checks", \.checks, "Forecast checks with enough data: 24 and 72 hours ahead"),
        .init("hasChecks", \.hasChecks, "Whether `checks` has any", example: "true"),
        .init("rainCheck", \.rainCheck, "How often likely rain fell, with enough forecasts", example: "Rain forecast 24 hours ahead at a chance of 50 % or more fell 9 times out of 18 (50 %)."),
        .init("checkIntro", \.checkIntro, "What the checks are, in words", example: "Temperature forecasts of the last 30 days, against what was then observed:"),
    ])
}

extension CityPageModel.Alert: TemplateModel {
    static let fields = TemplateFields<Self>("Alert", "An official weather alert.", [
        .init("event", \.event, "What it warns of", example: "Yellow wind warning"),
        .init("sender", \.sender, "Who issued it, where the data says", example: "Met Office"),
        .init("start", \.start, "Local start, day and time", example: "Mon 24 Nov 06:00"),
        .init("startDateTime", \.startDateTime, "Start, ISO 8601 (for <time datetime>)", example: "2026-11-24T06:00:00Z"),
        .init("end", \.end, "Local end, day and time", example: "Mon 24 Nov 21:00"),
        .init("endDateTime", \.endDateTime, "End, ISO 8601", example: "2026-11-24T21:00:00Z"),
        .init("description", \.description, "The sender's text", example: "Strong winds may cause delays."),
        .init("upcoming", \.upcoming, "\"Upcoming\" when it starts after the data time; absent when in force", example: "Upcoming"),
        .init("tags", \.tags, "The sender's categories", example: "Wind"),
        .init("hasTags", \.hasTags, "Whether `tags` has any", example: "true"),
        .init("severity", \.severity, "CAP severity in the page's language; absent where the source sends none", example: "Severe"),
        .init("severityClass", \.severityClass, "The severity as a class name: extreme, severe, moderate, minor or unknown", example: "severe"),
        .init("instruction", \.instruction, "What to do, in the sender's words; absent where it says nothing", example: "Secure loose objects."),
        .init("area", \.area, "The area it is issued for, in the sender's words", example: "Vestland"),
        .init("source", \.source, "The warning service it came from", example: "MeteoAlarm"),
    ])
}

extension CityPageModel.Hour: TemplateModel {
    static let fields = TemplateFields<Self>("Hour", "One step of the hourly forecast (an hour, or three with the free API).", [
        .init("time", \.time, "Local time", example: "14:00"),
        .init("datetime", \.datetime, "ISO 8601 (for <time datetime>)", example: "2026-11-23T14:00:00Z"),
        .init("icon", \.icon, "Condition icon; absent where the data has no condition code"),
    ] + TemplateField.measured(\.measured) + [
        .init("precipitationKind", \.precipitationKind, "\"rain\", or \"snow\" at or below freezing", example: "rain"),
        .init("precipitationAmount", \.precipitationAmount, "Rain and snow expected in the step; absent when none", example: "0.4 mm"),
        .init("wind", \.wind, "Wind, with gusts where the data has them"),
    ])
}

extension CityPageModel.Day: TemplateModel {
    static let fields = TemplateFields<Self>("Day", "One local day of the daily forecast.", [
        .init("weekday", \.weekday, "Short weekday", example: "Mon"),
        .init("date", \.date, "Short date", example: "24 Nov"),
        .init("datetime", \.datetime, "The local day, yyyy-MM-dd", example: "2026-11-24"),
        .init("icon", \.icon, "Condition icon; absent where the data has no condition code"),
        .init("low", \.low, "Low", example: "4°"),
        .init("high", \.high, "High", example: "10°"),
        .init("rangeStart", \.rangeStart, "Where the low–high bar starts, in % of the week's range", example: "12.5%"),
        .init("rangeWidth", \.rangeWidth, "How wide the bar is, in % of the week's range", example: "40.0%"),
    ] + TemplateField.measured(\.measured) + [
        .init("precipitationKind", \.precipitationKind, "\"rain\", or \"snow\" when the high is at or below freezing", example: "rain"),
        .init("precipitationAmount", \.precipitationAmount, "The day's total of rain and snow", example: "3.2 mm"),
        .init("summary", \.summary, "The provider's summary of the day (OpenWeather's, or NWS's forecast text; in English: on English pages only)", example: "Rain in the afternoon"),
        .init("wind", \.wind, "The day's wind (the provider's daily figure: its maximum with Open-Meteo), prevailing direction and strongest gust"),
        .init("uvCategory", \.uvCategory, "UV index band (WHO)"),
        .init("sunrise", \.sunrise, "Local time of sunrise", example: "07:33"),
        .init("sunset", \.sunset, "Local time of sunset", example: "16:01"),
        .init("dayLength", \.dayLength, "Daylight", example: "8 h 28 min"),
        .init("moonPhase", \.moonPhase, "Moon phase in words", example: "First quarter"),
        .init("moonrise", \.moonrise, "Local time of moonrise", example: "12:02"),
        .init("moonset", \.moonset, "Local time of moonset", example: "20:51"),
        .init("normal", \.normal, "The day's climate normal high and low; absent without one"),
    ])
}

extension CityPageModel.PlaceModel: TemplateModel {
    static let fields = TemplateFields<Self>("Place", "A place to visit, from places.json.", [
        .init("number", \.number, "Its number on the map, from 1", example: "1"),
        .init("anchor", \.anchor, "Its id on the page", example: "place-1"),
        .init("name", \.name, "Name", example: "Tower of London"),
        .init("description", \.description, "Description", example: "A castle on the Thames."),
        .init("wikipedia", \.wikipedia, "Wikipedia link (http/https only)", example: "https://en.wikipedia.org/wiki/Tower_of_London"),
        .init("openStreetMap", \.openStreetMap, "OpenStreetMap link to its position", example: "https://www.openstreetmap.org/?mlat=51.50810&mlon=-0.07590#map=16/51.50810/-0.07590"),
        .init("image", \.image, "Relative URL of its image, when the theme has Public/places/<file>", example: "../assets/places/tower.jpg"),
    ])
}

extension CityPageModel.Share: TemplateModel {
    static let fields = TemplateFields<Self>("Share", "Links to share the page.", [
        .init("url", \.url, "The page's absolute URL", example: "https://weather.example.org/london-gb/"),
        .init("email", \.email, "A mailto: link with the page", example: "mailto:?subject=London…"),
        .init("text", \.text, "A line to share", example: "London: 9 °C · Light rain"),
    ])
}

extension CityPageModel: TemplateModel {
    static let fields = TemplateFields<Self>("CityPage", "A city page (`city.md`).", [
        .init("t", \.t, "The UI strings in the site's language (`{{t.updated}}`); keys from Templates/i18n/en.yml"),
        .init("name", \.name, "City name", example: "London"),
        .init("country", \.country, "ISO country code", example: "GB"),
        .init("region", \.region, "State or region, where the config names one", example: "NY"),
        .init("slug", \.slug, "The page's folder name", example: "london-gb"),
        .init("updated", \.updated, "Local time of the data", example: "14:20"),
        .init("updatedDate", \.updatedDate, "Local day of the data", example: "Sun 23 Nov"),
        .init("updatedDateTime", \.updatedDateTime, "Time of the data, ISO 8601", example: "2026-11-23T14:20:00Z"),
        .init("staleNote", \.staleNote, "Shown when the latest update failed and older data is shown", example: "Data from Sun 23 Nov 11:50"),
        .init("descriptionLanguage", \.descriptionLanguage, "`lang` of the condition descriptions", example: "en"),
        .init("now", \.now, "Current conditions"),
        .init("nowcast", \.nowcast, "The next hour's rain or snow, where the data has a nowcast"),
        .init("airQuality", \.airQuality, "Air quality, where the data has it"),
        .init("alerts", \.alerts, "Official alerts"),
        .init("hasAlerts", \.hasAlerts, "Whether `alerts` has any", example: "false"),
        .init("warningsNote", \.warningsNote, "None in force, none available for the place, or not fetched; absent where not asked", example: "No warnings in force"),
        .init("temperatureUnit", \.temperatureUnit, "For column headings", example: "°C"),
        .init("hourlyStep", \.hourlyStep, "\"hourly\" or \"every 3 hours\"", example: "hourly"),
        .init("hourlyHeading", \.hourlyHeading, "\"Next 48 hours\", or fewer when the data holds fewer", example: "Next 48 hours"),
        .init("hourly", \.hourly, "The next 48 hours"),
        .init("hasHourly", \.hasHourly, "Whether `hourly` has any", example: "true"),
        .init("hourlyHasIcons", \.hourlyHasIcons, "Whether any hour has a condition icon (else no Sky column)", example: "true"),
        .init("hourlyHasPrecipitation", \.hourlyHasPrecipitation, "Whether any hour has a chance or an amount of precipitation", example: "true"),
        .init("hourlyHasWind", \.hourlyHasWind, "Whether any hour has wind", example: "true"),
        .init("hourlyChart", \.hourlyChart, "Inline SVG chart of the hours (insert with {{{…}}}); empty with fewer than two", example: "<svg …>"),
        .init("daily", \.daily, "The days ahead"),
        .init("hasDaily", \.hasDaily, "Whether `daily` has any", example: "true"),
        .init("dayCount", \.dayCount, "How many days", example: "8"),
        .init("places", \.places, "Places to visit"),
        .init("hasPlaces", \.hasPlaces, "Whether `places` has any", example: "true"),
        .init("placesMap", \.placesMap, "Inline SVG map of the places (insert with {{{…}}})", example: "<svg …>"),
        .init("history", \.history, "The city's past, from the history database; absent without one"),
        .init("normals", \.normals, "Today against the climate normals (`normals:`); absent without them"),
        .init("share", \.share, "Share links"),
        .init("source", \.source, "The data's provider", example: "OpenWeather"),
        .init("root", \.root, "Relative path from the page to the site root", example: "../"),
        .init("home", \.home, "The link to the index in the page's language", example: "../index.html"),
    ])
}
