import Foundation

/// The "past 7 days" chart as inline SVG: each day's observed low-to-high range as a bar,
/// the highs and the lows joined by lines that break where a day has no observations (a
/// gap is shown as a gap, never bridged). No script; colours from the theme's CSS.
public struct PastWeekChart: Sendable {
    public struct Column: Sendable {
        public var label: String
        /// In the city's display units; nil for a day without observations.
        public var low: Double?
        public var high: Double?
        public var lowText: String
        public var highText: String
    }

    public var columns: [Column]
    public var noData: String
    public var title: String
    public var summary: String

    // Narrower than the hourly chart: seven columns, whose labels stay legible when a
    // phone scales the picture down.
    static let width = 480.0, height = 210.0
    static let left = 8.0, right = 8.0, top = 24.0, bottom = 44.0

    public func svg(id: String) -> RenderedHTML {
        let values = columns.flatMap { [$0.low, $0.high].compactMap { $0 } }
        guard let least = values.min(), let most = values.max() else { return "" }
        var low = least.rounded(.down) - 1, high = most.rounded(.up) + 1
        if high - low < 6 { let pad = (6 - (high - low)) / 2; low -= pad; high += pad }
        let plotHeight = Self.height - Self.top - Self.bottom
        let step = (Self.width - Self.left - Self.right) / Double(columns.count)
        func x(_ index: Int) -> Double { Self.left + (Double(index) + 0.5) * step }
        func y(_ value: Double) -> Double { Self.top + (high - value) / (high - low) * plotHeight }

        // Labels are escaped and numbers written as SVG numbers by `SVGMarkup`.
        var svg: SVGMarkup = #"<svg class="chart history-chart" viewBox="0 0 \#(Int(Self.width)) \#(Int(Self.height))" role="img" aria-labelledby="\#(id)-title \#(id)-desc" preserveAspectRatio="xMidYMid meet">"#
        svg += #"<title id="\#(id)-title">\#(title)</title><desc id="\#(id)-desc">\#(summary)</desc>"#
        let baseline = Self.top + plotHeight
        svg += #"<line class="chart-axis" x1="\#(Self.left)" x2="\#(Self.width - Self.right)" y1="\#(baseline)" y2="\#(baseline)"/>"#
        let barWidth = min(28, step * 0.4)
        for (index, column) in columns.enumerated() {
            let cx = x(index)
            if let lowValue = column.low, let highValue = column.high {
                let top = y(highValue), bottom = y(lowValue)
                svg += #"<rect class="history-range" x="\#(cx - barWidth / 2)" y="\#(top)" width="\#(barWidth)" height="\#(max(2, bottom - top))" rx="4"/>"#
                svg += #"<text class="chart-label history-high" x="\#(cx)" y="\#(top - 6)" text-anchor="middle">\#(column.highText)</text>"#
                svg += #"<text class="chart-label history-low" x="\#(cx)" y="\#(bottom + 14)" text-anchor="middle">\#(column.lowText)</text>"#
            } else {
                svg += #"<text class="chart-label history-gap" x="\#(cx)" y="\#(Self.top + plotHeight / 2)" text-anchor="middle">\#(noData)</text>"#
            }
            svg += #"<text class="chart-day" x="\#(cx)" y="\#(Self.top + plotHeight + 30)" text-anchor="middle">\#(column.label)</text>"#
        }
        for (kind, value) in [("history-highs", \Column.high), ("history-lows", \Column.low)] {
            if let path = Self.path(columns.map { $0[keyPath: value] }, x: x, y: y) {
                svg += #"<path class="\#(kind)" d="\#(path)"/>"#
            }
        }
        svg += "</svg>"
        return svg.html
    }

    /// A line through the values, lifted over a missing one: each run of days with data
    /// is its own sub-path (a lone day is a dot, drawn by its bar).
    static func path(_ values: [Double?], x: (Int) -> Double, y: (Double) -> Double) -> SVGMarkup? {
        var path: SVGMarkup = ""
        var drawing = false
        for (index, value) in values.enumerated() {
            guard let value else { drawing = false; continue }
            let next = index + 1 < values.count ? values[index + 1] : nil
            if !drawing && next == nil { continue }
            if !path.utf8.isEmpty { path += " " }
            path += drawing ? "L\(x(index)) \(y(value))" : "M\(x(index)) \(y(value))"
            drawing = true
        }
        return path.utf8.isEmpty ? nil : path
    }
}
