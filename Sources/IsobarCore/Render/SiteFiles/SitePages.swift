import Foundation

/// The site-wide pages, rendered once the cities are built: what lists or links every
/// city (the index, the alerts feed, the sitemap) and what belongs to no city (the 404
/// page, robots.txt), in each of the site's languages.
enum SitePages {
    /// The index, 404 page and alerts feed in each language, the sitemap, robots.txt, the
    /// web app manifest and the service worker. `previous`: the last run's manifest, for
    /// the pages of cities that failed this run (still served, so still listed); `now`:
    /// the build's clock.
    static func files(outcomes: [CityBuilder.CityResult], previous: Manifest, _ inputs: BuildInputs,
                      now: Date) throws -> [(path: String, content: Data)] {
        let config = inputs.config
        let base = config.baseURL.absoluteString
        let built = outcomes.compactMap(\.built).map(\.record)
        let newest = built.map(\.dataTime).max() ?? Date(timeIntervalSince1970: 0)
        var attributions: [LayoutModel.Attribution] = []
        for record in built {
            if let attribution = LayoutModel.Attribution.forSource(record.source), !attributions.contains(attribution) { attributions.append(attribution) }
        }
        let cities = Dictionary(config.cities.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
        // Each city's page in every language, worked out once: each language's index and
        // feed takes its own, at that language's position (both follow `inputs.languages`).
        // Working them out per language instead would be L² per city.
        let cityPages = cities.mapValues(inputs.cityPages)
        // Pages still served though their city failed this run stay in the sitemap, and
        // their alerts in the feed until they expire (the build's clock): the page shows
        // them until it is replaced. Fresh data's alerts are the API's current ones.
        let published = outcomes.compactMap { result -> (city: CityConfig, record: Manifest.City, alerts: [AlertsFeed.Item])? in
            guard let city = cities[result.slug] else { return nil }
            if let record = result.built?.record { return (city, record, record.alerts(of: city)) }
            guard cityPages[city.slug, default: []].contains(where: { previous.files[$0.path] != nil }),
                let kept = previous.cities[result.slug] else { return nil }
            return (city, kept, kept.alerts(of: city).filter { $0.alert.end > now })
        }

        var files: [(path: String, content: Data)] = []
        let indexes = inputs.sitePages(SiteLayout.index)
        for (position, index) in indexes.enumerated() {
            let language = index.language, root = SiteLayout.root(of: index.path)
            // Each built city's card, presented from its forecast in this language.
            let cards = outcomes.compactMap { result -> IndexPageModel.Card? in
                guard let record = result.built?.record, let city = cities[result.slug], let page = cityPages[city.slug]?[position]
                else { return nil }
                return language.presenter.indexCard(record.forecast, city: city, stale: record.status == .stale, root: root,
                                                    href: root + page.path)
            }
            // A city without data is still listed, linking to its last page when there is one.
            let failed = outcomes.filter { $0.built == nil }
            let joints = language.presenter.listJoints(count: failed.count)
            let missing = zip(failed, joints.before).map { result, before in
                let page = cityPages[result.slug]?[position]
                return IndexPageModel.Missing(
                    name: result.name, country: cities[result.slug]?.country ?? "",
                    href: page.flatMap { previous.files[$0.path] != nil ? root + $0.path : nil }, before: before)
            }
            let model = IndexPageModel(t: language.strings.table, title: config.title, cards: cards, missing: missing,
                                       missingAfter: joints.after)
            let page = try inputs.templates.renderPage(inputs.layout(
                index, pages: indexes, title: config.title, description: cards.map(\.name).joined(separator: " · "),
                kind: "index", content: try inputs.templates.renderBody("index", model), attributions: attributions,
                dataTime: built.isEmpty ? nil : newest.ISO8601Format()))
            files.append((index.path, Data(page)))

            if inputs.templates.has("404") {
                // Served for any missing path, at any depth: links must be absolute paths.
                let absolute = config.baseURL.path.hasSuffix("/") ? config.baseURL.path : config.baseURL.path + "/"
                let notFound = LanguagePage(language: language, path: language.folder + SiteLayout.notFound)
                let body = try inputs.templates.renderBody(
                    "404", NotFoundPageModel(t: language.strings.table, root: absolute + language.folder))
                let page = try inputs.templates.renderPage(inputs.layout(
                    notFound, pages: [], title: "\(language.strings["not_found_title"]) – \(config.title)",
                    description: language.strings["not_found_text"], kind: "not-found", content: body, attributions: attributions,
                    root: absolute))
                files.append((notFound.path, Data(page)))
            }

            let feed = language.folder + SiteLayout.alertsFeed
            let xml = AlertsFeed.xml(
                title: "\(config.title): \(language.strings["alerts"])", feedURL: SiteLayout.url(of: feed, base: base),
                homeURL: SiteLayout.url(of: index.path, base: base), updated: newest,
                items: published.flatMap { entry in
                    let page = cityPages[entry.city.slug]?[position]
                    let url = SiteLayout.url(of: page?.path ?? SiteLayout.cityPage(entry.city.slug), base: base)
                    return entry.alerts.map { (item: $0, page: url) }
                })
            files.append((feed, Data(xml.utf8)))
        }

        // Every page in every language, each with its alternates (none in a site of one).
        func entry(_ page: LanguagePage, of pages: [LanguagePage], modified: Date) -> Sitemap.Entry {
            Sitemap.Entry(url: SiteLayout.url(of: page.path, base: base), modified: modified,
                          alternates: inputs.alternates(pages, from: page.path).map { ($0.language, $0.url) }
                            + (pages.count > 1 ? SiteLanguage.topPage(pages).map { [("x-default", SiteLayout.url(of: $0.path, base: base))] } ?? [] : []))
        }
        var entries = indexes.map { entry($0, of: indexes, modified: newest) }
        for (city, record, _) in published {
            let pages = cityPages[city.slug, default: []]
            entries += pages.map { entry($0, of: pages, modified: record.dataTime) }
        }
        files.append((SiteLayout.sitemap, Data(Sitemap.xml(entries).utf8)))
        files.append((SiteLayout.robots, Data(Sitemap.robots(baseURL: config.baseURL).utf8)))
        return files + ServiceWorker.files(inputs)
    }
}
