import Foundation

/// "Rain starting in about 20 min, stopping around 14:40", or "No rain expected in the
/// next hour": the next hour of a nowcast in words. Only said when the data covers that
/// hour; a forecast without a nowcast says nothing about it.
struct NowcastText {
    /// mm/h from which a step counts as wet: less is a trace nobody notices.
    static let wet = 0.1

    let strings: Strings
    let clock: LocalTimeFormatter

    /// The steps that overlap the hour after `now`, or nil when they do not reach across it.
    static func window(_ steps: [NowcastStep], from now: Date) -> [NowcastStep]? {
        let end = now.addingTimeInterval(3600)
        let inside = steps.filter { $0.time < end && $0.time.addingTimeInterval(Double($0.minutes) * 60) > now }
        guard let first = inside.first, let last = inside.last, first.time <= now.addingTimeInterval(60),
              last.time.addingTimeInterval(Double(last.minutes) * 60) >= end.addingTimeInterval(-60)
        else { return nil }
        return inside
    }

    /// `steps` with each run of wet (or dry) steps as one step of the run's length: all
    /// `sentence` reads (when it starts and stops), a few steps where a nowcast has sixty.
    static func runs(_ steps: [NowcastStep]) -> [NowcastStep] {
        var runs: [NowcastStep] = []
        for step in steps {
            if let last = runs.last, (last.intensity >= wet) == (step.intensity >= wet),
               last.time.addingTimeInterval(Double(last.minutes) * 60) == step.time {
                runs[runs.count - 1].minutes += step.minutes
            } else {
                runs.append(step)
            }
        }
        return runs
    }

    func sentence(_ steps: [NowcastStep], from now: Date, kind: String) -> String {
        let isWet = steps.map { $0.intensity >= Self.wet }
        let values = ["kind": kind, "Kind": Presenter.sentence(kind)]
        if isWet.first == true {
            guard let dry = isWet.firstIndex(of: false) else { return strings.format("nowcast_continues", values) }
            return strings.format("nowcast_stops", values.merging(["time": clock.time(steps[dry].time)]) { $1 })
        }
        guard let wet = isWet.firstIndex(of: true) else { return strings.format("nowcast_dry", values) }
        let minutes = String(max(1, Int((steps[wet].time.timeIntervalSince(now) / 60).rounded())))
        if let dry = isWet[wet...].firstIndex(of: false) {
            return strings.format("nowcast_starts_stops", values.merging(["minutes": minutes, "time": clock.time(steps[dry].time)]) { $1 })
        }
        return strings.format("nowcast_starts", values.merging(["minutes": minutes]) { $1 })
    }
}
