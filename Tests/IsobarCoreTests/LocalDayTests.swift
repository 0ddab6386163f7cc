import Foundation
import Testing
@testable import IsobarCore

/// Day keys turned into dates by hand agree with Foundation's Gregorian calendar.
@Suite struct LocalDayTests {
    @Test func noonMatchesTheCalendarFor1900To2100() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        var date = DateComponents(calendar: calendar, year: 1900, month: 1, day: 1, hour: 12).date!
        var checked = 0
        while calendar.component(.year, from: date) <= 2100 {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let key = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
            #expect(LocalDay.noon(key) == date, "\(key)")
            date = calendar.date(byAdding: .day, value: 1, to: date)!
            checked += 1
        }
        #expect(checked == 73_414)  // 201 years, 49 of them leap years (1900 and 2100 are not)
    }

    @Test func keysOutOfRangeRollOverAndOthersAreRefused() {
        let noon = { (key: String) in LocalDay.noon(key).map { LocalDay.key(for: $0, in: TimeZone(secondsFromGMT: 0)!) } }
        #expect(noon("2026-02-30") == "2026-03-02")
        #expect(noon("2024-02-29") == "2024-02-29")
        #expect(noon("2026-03-00") == "2026-02-28")
        #expect(noon("2026-13-01") == "2027-01-01")
        #expect(noon("2026-03") == nil && noon("2026-03-1x") == nil && noon("") == nil && noon("2026-03-11-1") == nil)
        #expect(LocalDay.key("2026-03-01", plus: -1) == "2026-02-28" && LocalDay.key("2024-12-31", plus: 1) == "2025-01-01")
    }
}
