// The names `index.md`, `404.md` and `layout.html` may use, declared once (see
// TemplateField.swift); `isobar fields index|404|layout` prints them.

extension IndexPageModel.Card: TemplateModel {
    static let fields = TemplateFields<Self>("Card", "A city on the front page.", [
        .init("name", \.name, "City name", example: "London"),
        .init("country", \.country, "ISO country code", example: "GB"),
        .init("href", \.href, "Relative link to the city page's file (so it opens from disk too)", example: "london-gb/index.html"),
        .init("icon", \.icon, "Condition icon; absent where the data has no condition code"),
        .init("temperature", \.temperature, "Temperature, with its unit", example: "9 °C"),
        .init("description", \.description, "The main condition", example: "Light rain"),
        .init("high", \.high, "Today's high", example: "11°"),
        .init("low", \.low, "Today's low", example: "6°"),
        .init("alertCount", \.alertCount, "How many alerts", example: "1"),
        .init("hasAlerts", \.hasAlerts, "Whether there are any", example: "true"),
        .init("alertLabel", \.alertLabel, "The alerts counted in words, by the language's plural rules", example: "1 active alert"),
        .init("alertSeverity", \.alertSeverity, "The most severe alert's CAP severity in words; absent where none says", example: "Severe"),
        .init("alertSeverityClass", \.alertSeverityClass, "That severity as a class name: extreme, severe, moderate, minor or unknown", example: "severe"),
        .init("staleNote", \.staleNote, "Shown when older data is shown", example: "Data from Sun 23 Nov 11:50"),
        .init("nowcast", \.nowcast, "The next hour's rain or snow in words", example: "No rain for at least an hour"),
        .init("updated", \.updated, "Local time of the data", example: "14:20"),
    ])
}

extension IndexPageModel.Missing: TemplateModel {
    static let fields = TemplateFields<Self>("MissingCity", "A city that could not be built, still listed.", [
        .init("name", \.name, "City name", example: "Lod"),
        .init("country", \.country, "ISO country code", example: "IL"),
        .init("href", \.href, "Its last published page, when there is one", example: "lod-il/index.html"),
        .init("before", \.before, "The language's words before it in the list (its list pattern)", example: ", and "),
    ])
}

extension IndexPageModel: TemplateModel {
    static let fields = TemplateFields<Self>("IndexPage", "The front page (`index.md`).", [
        .init("t", \.t, "The UI strings in the site's language; keys from Templates/i18n/en.yml"),
        .init("title", \.title, "The site's title", example: "Isobar Weather"),
        .init("cards", \.cards, "A card per city, in config order"),
        .init("missing", \.missing, "Cities that could not be built"),
        .init("missingAfter", \.missingAfter, "The language's words after the list's last item; mostly none"),
        .init("hasMissing", \.hasMissing, "Whether `missing` has any", example: "false"),
    ])
}

extension NotFoundPageModel: TemplateModel {
    static let fields = TemplateFields<Self>("NotFoundPage", "The 404 page (`404.md`), served at any depth.", [
        .init("t", \.t, "The UI strings in the site's language; keys from Templates/i18n/en.yml"),
        .init("root", \.root, "Absolute path of the site root under base_url", example: "/"),
    ])
}

extension LayoutModel.Site: TemplateModel {
    static let fields = TemplateFields<Self>("Site", "The site, from isobar.yml.", [
        .init("title", \.title, "`title`", example: "Isobar Weather"),
        .init("language", \.language, "The page's language, for <html lang>", example: "en"),
        .init("direction", \.direction, "`ltr`, or `rtl` for Arabic, Hebrew, Persian…, for <html dir>", example: "ltr"),
        .init("baseURL", \.baseURL, "`base_url`", example: "https://weather.example.org/"),
        .init("offline", \.offline, "Whether the service worker is published (`offline:`)", example: "true"),
        .init("themeColor", \.themeColor, "The theme's colour for the browser's bar (`--accent` in style.css)", example: "#1d5fbf"),
        .init("sample", \.sample, "Whether the weather is `isobar serve --sample`'s, not a forecast: say so on the page (`t.sample_weather`)", example: "false"),
    ])
}

extension LayoutModel.Page: TemplateModel {
    static let fields = TemplateFields<Self>("Page", "The page being wrapped.", [
        .init("title", \.title, "For <title>", example: "London · Isobar Weather"),
        .init("description", \.description, "For search results and link previews", example: "Weather in London: 9 °C, light rain"),
        .init("canonicalURL", \.canonicalURL, "Absolute URL of the page", example: "https://weather.example.org/london-gb/"),
        .init("root", \.root, "Path from the page to the site root", example: "../"),
        .init("kind", \.kind, "`index`, `city` or `not-found`", example: "city"),
        .init("noIndex", \.noIndex, "Crawlers should not index it (the 404 page)", example: "false"),
        .init("home", \.home, "The index in the page's language, from the page", example: "../index.html"),
        .init("feed", \.feed, "The alerts feed in the page's language, from the page", example: "../alerts.xml"),
        .init("feedURL", \.feedURL, "The alerts feed's address", example: "https://weather.example.org/alerts.xml"),
        .init("alternates", \.alternates, "The page in each of the site's languages, itself included (empty for one language)"),
        .init("hasAlternates", \.hasAlternates, "Whether the site has more than one language", example: "false"),
        .init("defaultURL", \.defaultURL, "The page at the top level, for hreflang=\"x-default\"", example: "https://weather.example.org/lod-il/"),
        .init("dataTime", \.dataTime, "Time of the page's data, ISO 8601, for the offline note; absent on the 404 page", example: "2026-11-23T14:20:00Z"),
        .init("timeZone", \.timeZone, "The city's time zone (IANA) for that time; absent on the index", example: "Europe/London"),
        .init("image", \.image, "The page's share image (a city's card.png), for og:image; absent on other pages and with `share_card: false`"),
    ])
}

extension LayoutModel.Image: TemplateModel {
    static let fields = TemplateFields<Self>("Image", "A page's share image.", [
        .init("url", \.url, "Its absolute address under base_url", example: "https://weather.example.org/london-gb/card.png"),
        .init("width", \.width, "In pixels", example: "1200"),
        .init("height", \.height, "In pixels", example: "630"),
        .init("alt", \.alt, "What it shows, in words", example: "London: 9 °C · Light rain · High 11 °C · Low 6 °C"),
    ])
}

extension LayoutModel.Alternate: TemplateModel {
    static let fields = TemplateFields<Self>("Alternate", "The page in one of the site's languages.", [
        .init("language", \.language, "For hreflang and lang", example: "he"),
        .init("name", \.name, "The language's name in itself, from CLDR", example: "עברית"),
        .init("direction", \.direction, "`ltr` or `rtl`", example: "rtl"),
        .init("url", \.url, "Its address", example: "https://weather.example.org/he/london-gb/"),
        .init("href", \.href, "The link to it from this page", example: "../he/london-gb/index.html"),
        .init("current", \.current, "It is this page", example: "false"),
    ])
}

extension LayoutModel.Attribution: TemplateModel {
    static let fields = TemplateFields<Self>("Attribution", "Who the data is from, as the provider's terms ask.", [
        .init("name", \.name, "Provider", example: "Open-Meteo.com"),
        .init("url", \.url, "Its site", example: "https://open-meteo.com/"),
        .init("license", \.license, "The data's licence", example: "CC BY 4.0"),
        .init("licenseURL", \.licenseURL, "The licence's text", example: "https://creativecommons.org/licenses/by/4.0/"),
    ])
}

extension LayoutModel: TemplateModel {
    static let fields = TemplateFields<Self>("Layout", "What `layout.html` wraps every page in.", [
        .init("t", \.t, "The UI strings in the site's language; keys from Templates/i18n/en.yml"),
        .init("site", \.site, "The site"),
        .init("page", \.page, "The page"),
        .init("attributions", \.attributions, "Data providers on the page"),
        .init("content", \.content, "The rendered page body (insert with {{{content}}})", example: "<main>…</main>"),
    ])
}
