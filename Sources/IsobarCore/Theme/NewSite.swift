import Foundation

/// `isobar new DIR`: a site that builds as it is — a commented config with MET Norway and
/// Open-Meteo to fall back on (no key needed for either) and three cities, example places, and a note on what to do next. The
/// theme is the built-in one; `isobar theme eject` copies it out for editing.
public enum NewSite {
    public static let config = """
        # An Isobar weather site. Every key is described in Isobar's README, "Configuration".
        title: My Weather
        # The address the site will be served at (canonical links, the sitemap, the feed).
        base_url: https://weather.example.org/
        language: en              # UI text, dates and numbers; 31 languages ship (README, Languages)
        units: metric             # metric, imperial or standard; a city may override it
        # Who runs the site: MET Norway's terms ask every request to name a contact.
        # Put your own e-mail or web address here before the first build.
        contact: you@example.org
        # Forecasts from MET Norway (no key); a city it cannot serve falls back to
        # Open-Meteo (no key either). For OpenWeather: add openweather to the list and
        # export OPENWEATHER_API_KEY=your-key.
        provider: [met-norway, open-meteo]
        alerts: auto              # official warnings from each city's national service (README, Weather warnings)
        open_meteo:
          daily_limit: 10000      # Open-Meteo's free use: 10,000 calls a day
        cache: { dir: .isobar/cache, max_age: 15m }
        places: places.json
        # The places' map over OpenStreetMap's tiles, fetched at build time (a few a run,
        # kept a week) and published with the site. Uncomment once `contact:` is yours:
        # the tile server asks who is calling (README, Maps).
        # map: {}
        output: _site
        # The theme is built in. To change it, run `isobar theme eject`: Templates/ and
        # Public/ appear here, and every file in them overrides the built-in one.
        cities:
          - { name: London, country: GB, lat: 51.5073, lon: -0.1276, timezone: Europe/London }
          - { name: Lisbon, country: PT, lat: 38.7223, lon: -9.1393, timezone: Europe/Lisbon }
          - { name: Tokyo, country: JP, lat: 35.6895, lon: 139.6917, timezone: Asia/Tokyo }

        """

    public static let places = """
        {
          "london-gb": [
            {
              "name": "Tower of London",
              "description": "A medieval fortress on the Thames that still guards the Crown Jewels.",
              "lat": 51.5081,
              "lon": -0.0759,
              "wikipedia": "https://en.wikipedia.org/wiki/Tower_of_London"
            }
          ]
        }

        """

    public static let readme = """
        # My Weather

        Built with Isobar. Next: edit `isobar.yml` (title, base_url, your cities), run
        `isobar check`, and `isobar serve --sample` to see your cities with sample weather
        (offline, no key); then `isobar build`, and open `_site/index.html`. To change how it
        looks, `isobar theme eject` copies the theme here, `isobar serve` shows the site at
        http://127.0.0.1:8787/ and reloads it on every save, and `isobar fields` lists every
        name a template may use.

        """

    /// The languages the built-in theme ships, by file name (`pt-BR`, `zh-Hant`).
    public static var shippedLanguages: [String] {
        ThemeFiles.builtin(under: ThemeFiles.templatesFolder).keys
            .filter { $0.hasPrefix("i18n/") && $0.hasSuffix(".yml") }
            .map { String($0.dropFirst(5).dropLast(4)) }.sorted()
    }

    /// Writes the site into `folder`, which must be missing or empty: nothing of the
    /// user's is overwritten. `language`: the site's (`--language`), one that ships.
    public static func write(into folder: URL, language: String = "en") throws -> [String] {
        let manager = FileManager.default
        let templates = folder.appendingPathComponent("Templates")
        guard Strings.isLanguageCode(language),
            Strings.fileCandidates(language).contains(where: shippedLanguages.contains),
            (try? Strings.load(templates: templates, language: language))?.warning == nil
        else {
            throw IsobarError(step: .config, path: folder.path, message: "Isobar ships no strings for language \"\(language)\"",
                              hint: "use one of \(shippedLanguages.joined(separator: ", ")) (README, \"Languages\"), or add your own later")
        }
        if manager.fileExists(atPath: folder.path) {
            let contents = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? ["?"]
            guard contents.isEmpty else {
                throw IsobarError(step: .config, path: folder.path, message: "the folder is not empty",
                                  hint: "give a new folder's name (isobar new my-weather); nothing here was changed")
            }
        }
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw IsobarError(step: .config, path: folder.path, message: "cannot create the folder: \(error.localizedDescription)")
        }
        var written: [String] = []
        let config = config.replacingOccurrences(of: "\nlanguage: en ", with: "\nlanguage: \(language) ")
        for (name, text) in [("isobar.yml", config), ("places.json", places), ("README.md", readme)] {
            let file = folder.appendingPathComponent(name)
            _ = try AtomicFile.write(Data(text.utf8), to: file, step: .config)
            written.append(file.path)
        }
        return written
    }
}
