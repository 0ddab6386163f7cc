import Foundation

/// The page `isobar serve` answers every page request with while the last build failed:
/// the error as the terminal shows it (file:line:col, the line, a caret, the hint), in a
/// page of its own that needs nothing from the site, whose theme may be what is broken.
/// It carries the reload script, so it gives way to the site as soon as a build succeeds.
enum ErrorPage {
    static func failed(_ message: String, build: Int) -> Data {
        page(title: "Build failed", heading: "The site could not be built",
             body: """
             <pre>\(MarkupEscaping.escape(message))</pre>
             <p>Fix it and save: this page reloads by itself when the next build succeeds.</p>
             """, build: build)
    }

    /// Before the first build has finished: it reloads when there is something to show.
    static func building() -> Data {
        page(title: "Building", heading: "Building the site…",
             body: "<p>This page reloads by itself when the first build has finished.</p>", build: 0)
    }

    private static func page(title: String, heading: String, body: String, build: Int) -> Data {
        let html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(title) – isobar serve</title>
            <style>
            body { margin: 0; font: 16px/1.5 system-ui, sans-serif; background: #f4f6f8; color: #1d2733; }
            main { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1rem; }
            h1 { font-size: 1.4rem; margin: 0 0 1rem; color: #b3261e; }
            pre { font: 0.9rem/1.45 ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; white-space: pre-wrap;
                  overflow-wrap: anywhere; background: #fff; border: 1px solid #d5dbe1; border-left: 4px solid #b3261e;
                  border-radius: 6px; padding: 1rem; margin: 0 0 1rem; }
            p { margin: 0; color: #4a5866; }
            @media (prefers-color-scheme: dark) {
              body { background: #14191f; color: #e3e8ee; }
              h1 { color: #ff8a80; }
              pre { background: #1d242c; border-color: #36414d; border-left-color: #ff8a80; }
              p { color: #a9b4bf; }
            }
            </style>
            </head>
            <body>
            <main>
            <h1>\(heading)</h1>
            \(body)
            </main>
            </body>
            </html>

            """
        return ReloadScript.inject(into: Data(html.utf8), build: build)
    }
}
