import Foundation

/// The "next 48 hours" chart as inline SVG: a temperature line over chance-of-precipitation
/// bars, on a local-time axis. No script, no external resource; colours come from the
/// theme's CSS classes so dark mode applies. Drawn twice from the same points: wide, and
/// narrow for a phone (`Frame`), where a 720-unit drawing shrunk to the screen would
/// shrink its labels to 6 px; the theme's CSS shows one of them.
public struct HourlyChart: Sendable {
    public struct Point: Sendable {
        public var time: Date
        /// In the city's display units.
        public var temperature: Double
        /// 0…1.
        public var precipitationChance: Double
    }

    public var points: [Point]
    public var clock: LocalTimeFormatter
    public var temperatureLabel: @Sendable (Double) -> String
    /// Accessible name and the sentence a screen reader gets instead of the picture.
    public var title: String
    public var summary: String

    /// A drawing's size in SVG units (which a page scales to its width, labels with it)
    /// and how many hours apart its time labels are.
    struct Frame {
        var name: String
        var width: Double, height: Double
        var left = 40.0, right = 22.0, top = 18.0, bottom = 44.0
        var labelHours: Int

        /// A desktop's card: labels every 6 hours.
        static let wide = Frame(name: "wide", width: 720, height: 240, labelHours: 6)
        /// A 360 px phone's card, about 300 px wide, drawn near its own size so labels stay
        /// at the theme's size: every 12 hours.
        static let narrow = Frame(name: "narrow", width: 320, height: 200, right: 16, labelHours: 12)
    }

    public func svg(id: String) -> RenderedHTML {
        guard points.count >= 2 else { return "" }
        return RenderedHTML(utf8: svg(id: id, .wide).utf8 + svg(id: id + "-narrow", .narrow).utf8)
    }

    func svg(id: String, _ frame: Frame) -> RenderedHTML {
        let plotWidth = frame.width - frame.left - frame.right
        let plotHeight = frame.height - frame.top - frame.bottom
        let temperatures = points.map(\.temperature)
        var low = (temperatures.min() ?? 0).rounded(.down) - 1
        var high = (temperatures.max() ?? 0).rounded(.up) + 1
        if high - low < 6 { let pad = (6 - (high - low)) / 2; low -= pad; high += pad }
        let step = plotWidth / Double(points.count - 1)
        func x(_ index: Int) -> Double { frame.left + Double(index) * step }
        func y(_ temperature: Double) -> Double { frame.top + (high - temperature) / (high - low) * plotHeight }

        // Labels are escaped and numbers written as SVG numbers by `SVGMarkup`.
        var svg: SVGMarkup = #"<svg class="chart chart-\#(frame.name)" viewBox="0 0 \#(Int(frame.width)) \#(Int(frame.height))" role="img" aria-labelledby="\#(id)-title \#(id)-desc" preserveAspectRatio="xMidYMid meet">"#
        svg += #"<title id="\#(id)-title">\#(title)</title><desc id="\#(id)-desc">\#(summary)</desc>"#

        // Horizontal grid with temperature labels, about four lines.
        let gridStep = max(1, ((high - low) / 4).rounded())
        var gridValue = (low / gridStep).rounded(.up) * gridStep
        while gridValue <= high {
            let gy = y(gridValue)
            svg += #"<line class="chart-grid" x1="\#(frame.left)" x2="\#(frame.width - frame.right)" y1="\#(gy)" y2="\#(gy)"/>"#
            svg += #"<text class="chart-label" x="\#(frame.left - 6)" y="\#(gy)" text-anchor="end" dominant-baseline="middle">\#(temperatureLabel(gridValue))</text>"#
            gridValue += gridStep
        }

        // Precipitation-chance bars, full height meaning 100 %.
        let barWidth = max(2, step * 0.6)
        for (index, point) in points.enumerated() where point.precipitationChance > 0 {
            let barHeight = point.precipitationChance * plotHeight
            svg += #"<rect class="chart-pop" x="\#(x(index) - barWidth / 2)" y="\#(frame.top + plotHeight - barHeight)" width="\#(barWidth)" height="\#(barHeight)"/>"#
        }

        // The temperature line.
        svg += #"<path class="chart-temp" d=""#
        for (index, point) in points.enumerated() {
            svg += index == 0 ? "M\(x(index)) \(y(point.temperature))" : " L\(x(index)) \(y(point.temperature))"
        }
        svg += #""/>"#

        // Time axis: a label every `labelHours` (on hours divisible by it where the steps
        // meet them), and the weekday where a new local day begins.
        let baseline = frame.top + plotHeight
        svg += #"<line class="chart-axis" x1="\#(frame.left)" x2="\#(frame.width - frame.right)" y1="\#(baseline)" y2="\#(baseline)"/>"#
        let hours = points.map { clock.hour($0.time) }
        let stepHours = max(1, Int(exactly: (points[1].time.timeIntervalSince(points[0].time) / 3600).rounded()) ?? 1)
        let every = max(1, frame.labelHours / stepHours)
        let first = hours.firstIndex { $0 % frame.labelHours == 0 } ?? 0
        let offset = first % every
        var previousDay = clock.dayNumber(points[0].time)
        for (index, point) in points.enumerated() {
            if (index - offset) % every == 0 {
                svg += #"<text class="chart-label" x="\#(x(index))" y="\#(frame.top + plotHeight + 16)" text-anchor="middle">\#(clock.time(point.time))</text>"#
            }
            let day = clock.dayNumber(point.time)
            if day != previousDay {
                // The line sits where the new day begins: on a step at midnight, or halfway
                // between the last step of one day and the first of the next.
                let lineX = hours[index] == 0 ? x(index) : x(index) - step / 2
                svg += #"<line class="chart-midnight" x1="\#(lineX)" x2="\#(lineX)" y1="\#(frame.top)" y2="\#(baseline)"/>"#
                svg += #"<text class="chart-day" x="\#(lineX)" y="\#(frame.top + plotHeight + 34)" text-anchor="middle">\#(clock.shortWeekday(point.time))</text>"#
                previousDay = day
            }
        }
        svg += "</svg>"
        return svg.html
    }
}
