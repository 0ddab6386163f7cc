import Foundation

/// The page `isobar serve` answers every page request with while the last build failed:
/// the error as the terminal shows it (file:line:col, the line, a caret, the hint), in a
/// page of its own that needs nothing from the site, whose theme may be what is broken.
/// It carries the reload script, so it gives way to the site as soon as a build succeeds.
enum ErrorPage {
    static func failed(_ message: String, build: Int) -> Data {
        // What is wrong and the hint wrap on a narrow screen; the source line and its
        // caret (` 22 | …`, `    | ^`) must not, or the caret would point elsewhere.
        var blocks: [(isSource: Bool, lines: [Substring])] = []
        for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
            let isSource = isSourceLine(line)
            if blocks.last?.isSource == isSource { blocks[blocks.count - 1].lines.append(line) } else { blocks.append((isSource, [line])) }
        }
        let shown = blocks.map { block in
            "<pre class=\"\(block.isSource ? "source" : "what")\">\(MarkupEscaping.escape(block.lines.joined(separator: "\n")))</pre>"
        }
        return page(title: "Build failed", heading: "The site could not be built",
                    body: """
                    <div class="error">
                    \(shown.joined(separator: "\n"))
                    </div>
                    <p>Fix it and save: this page reloads by itself when the next build succeeds.</p>
                    """, build: build)
    }

    /// A line of `IsobarError`'s excerpt: a gutter of spaces and a line number, then `|`.
    private static func isSourceLine(_ line: Substring) -> Bool {
        let gutter = line.prefix { $0 == " " || $0.isNumber }
        let rest = line.dropFirst(gutter.count)
        return gutter.hasPrefix(" ") && (rest == "|" || rest.hasPrefix("| "))
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
            .error { background: #fff; border: 1px solid #d5dbe1; border-left: 4px solid #b3261e; border-radius: 6px;
                     padding: 1rem; margin: 0 0 1rem; }
            pre { font: 0.9rem/1.45 ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; margin: 0; }
            .what { white-space: pre-wrap; overflow-wrap: anywhere; }
            .what:first-child { font-weight: 600; }
            .source { overflow-x: auto; margin: 0.5rem 0; }
            p { margin: 0; color: #4a5866; }
            @media (prefers-color-scheme: dark) {
              body { background: #14191f; color: #e3e8ee; }
              h1 { color: #ff8a80; }
              .error { background: #1d242c; border-color: #36414d; border-left-color: #ff8a80; }
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
