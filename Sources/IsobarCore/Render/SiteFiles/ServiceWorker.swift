import Foundation

/// `sw.js`: the service worker that keeps the site readable offline (README, "Offline and
/// installable"). Its logic is a theme file, `assets/offline-worker.js`; this file only
/// names the build's version and what to keep from the start, and imports it. Browsers
/// compare a worker's bytes to decide whether to update, so the version is what makes a
/// new build reach phones that have the old one.
enum ServiceWorker {
    static let script = "offline-worker.js"

    /// The index in each language (the site's entry points) and the shared assets a page
    /// uses — the stylesheet, scripts, condition icons and the app's icons — fetched when
    /// the worker installs. Pages a visitor opens are kept as they are opened. Images of
    /// places and map tiles are left to that: a site may have many.
    static func precache(_ inputs: BuildInputs) -> [String] {
        let assets = inputs.assets.files.map(\.path).filter { path in
            let inside = path.dropFirst(SiteLayout.assetsFolder.count + 1)
            return !inside.contains("/") || inside.hasPrefix("icons/") || inside.hasPrefix("\(WebAppManifest.iconFolder)/")
        }
        return inputs.languages.map { $0.folder + SiteLayout.index } + [SiteLayout.webManifest] + assets.sorted()
    }

    /// The build's version: a digest of every published asset and the manifest (what
    /// the worker serves from its cache first), so it changes exactly when one of them
    /// does. Pages are not in it: the worker always asks the network for a page first,
    /// so a new page needs no new worker.
    static func version(assets: PublicAssets, manifest: Data, precache: [String]) -> String {
        var digest = Fingerprint()
        for file in assets.files.sorted(by: { $0.path < $1.path }) {
            digest.add(file.path)
            digest.add(file.content)
        }
        digest.add(manifest)
        digest.add(precache.joined(separator: "\n"))
        return digest.value
    }

    static func source(version: String, precache: [String]) -> String {
        // JSON is JavaScript: each path is escaped as a JSON string.
        let list = (try? JSONSerialization.data(withJSONObject: precache, options: [.withoutEscapingSlashes]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        return """
            // Written by Isobar for this build; the logic is in \(SiteLayout.assetsFolder)/\(script).
            // VERSION is a digest of the site's assets and manifest: a build that changes
            // one changes this file, and browsers then install the new worker.
            const VERSION = "\(version)";
            const PRECACHE = \(list);
            importScripts("\(SiteLayout.assetsFolder)/\(script)");

            """
    }

    /// The manifest (always) and, unless `offline: false`, the worker.
    static func files(_ inputs: BuildInputs) -> [(path: String, content: Data)] {
        let manifest = WebAppManifest.data(inputs.config, language: inputs.primary, assets: inputs.assets, colors: inputs.themeColors)
        guard inputs.config.offline else { return [(SiteLayout.webManifest, manifest)] }
        let precache = precache(inputs)
        let version = version(assets: inputs.assets, manifest: manifest, precache: precache)
        return [(SiteLayout.webManifest, manifest), (SiteLayout.serviceWorker, Data(source(version: version, precache: precache).utf8))]
    }
}
