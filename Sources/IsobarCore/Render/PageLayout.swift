import Foundation

extension BuildInputs {
    /// `page` wrapped in the layout: its language's strings, its links from where it is
    /// (`root`, the 404 page's absolute path of the site instead), and the same page in the
    /// site's other languages (`pages`, none for the 404 page).
    func layout(
        _ page: LanguagePage, pages: [LanguagePage], title: String, description: String, kind: String,
        content: RenderedHTML, attributions: [LayoutModel.Attribution], root: String? = nil, image: LayoutModel.Image? = nil,
        dataTime: String? = nil, timeZone: String? = nil
    ) -> LayoutModel {
        let strings = page.language.strings, base = config.baseURL.absoluteString
        let root = root ?? SiteLayout.root(of: page.path)
        let feed = page.language.folder + SiteLayout.alertsFeed
        return LayoutModel(
            t: strings.table,
            site: .init(title: config.title, language: strings.language, direction: strings.direction, baseURL: base,
                        offline: config.offline, themeColor: themeColors.accent, sample: config.sampleWeather),
            attributions: attributions,
            page: .init(title: title, description: description, canonicalURL: SiteLayout.url(of: page.path, base: base), root: root,
                        kind: kind, noIndex: kind == "not-found", home: root + page.language.folder + SiteLayout.index,
                        feed: root + feed, feedURL: SiteLayout.url(of: feed, base: base),
                        alternates: alternates(pages, from: page.path),
                        defaultURL: SiteLanguage.topPage(pages).map { SiteLayout.url(of: $0.path, base: base) } ?? "",
                        dataTime: dataTime, timeZone: timeZone, image: image),
            content: content)
    }
}
