import Foundation

/// The next hour's precipitation as a strip of bars (inline SVG): one bar per minute or
/// quarter hour, its height the intensity on a logarithmic scale from a trace (`trace`, the
/// lowest bar) to heavy rain (`heavy` and more fills it), so the drizzle a phone user
/// asks about is a bar of a third of the strip, not a line. The sentence beside it says
/// the same in words and is the picture's text alternative.
public struct NowcastStrip: Sendable {
    public struct Bar: Sendable {
        /// Minutes from the data time to the bar's start (may be negative for the step
        /// already under way) and its length.
        public var offset: Double
        public var minutes: Double
        /// mm per hour.
        public var intensity: Double
    }

    public var bars: [Bar]
    public var title: String
    public var labels: (now: String, half: String, hour: String)

    static let width = 300.0, height = 56.0, plotHeight = 36.0
    /// mm per hour: a trace (below it, the lowest bar), and heavy rain (WMO: 8 mm/h).
    static let trace = 0.1, heavy = 8.0

    /// The bar's share of the strip's height: a sixth for a trace or less, all of it for
    /// heavy rain, evenly between on a logarithmic scale.
    static func share(_ intensity: Double) -> Double {
        let least = 1.0 / 6
        guard intensity > trace else { return least }
        return min(1, least + (1 - least) * log(intensity / trace) / log(heavy / trace))
    }

    public func svg(id: String) -> RenderedHTML {
        // Labels are escaped and numbers written as SVG numbers by `SVGMarkup`.
        var svg: SVGMarkup = #"<svg class="nowcast-strip" viewBox="0 0 300 56" role="img" aria-labelledby="\#(id)-title" preserveAspectRatio="xMidYMid meet">"#
        svg += #"<title id="\#(id)-title">\#(title)</title>"#
        svg += #"<line class="chart-axis" x1="0" x2="300" y1="36" y2="36"/>"#
        for bar in bars where bar.intensity > 0 {
            let start = max(0, bar.offset), end = min(60, bar.offset + bar.minutes)
            guard end > start else { continue }
            let x = start / 60 * Self.width, width = max(1, (end - start) / 60 * Self.width - 0.5)
            let height = Self.share(bar.intensity) * Self.plotHeight
            svg += #"<rect class="nowcast-bar" x="\#(x)" y="\#(Self.plotHeight - height)" width="\#(width)" height="\#(height)"/>"#
        }
        for (x, anchor, label) in [(0.0, "start", labels.now), (150.0, "middle", labels.half), (300.0, "end", labels.hour)] {
            svg += #"<text class="chart-label" x="\#(x)" y="52" text-anchor="\#(anchor)">\#(label)</text>"#
        }
        svg += "</svg>"
        return svg.html
    }
}
