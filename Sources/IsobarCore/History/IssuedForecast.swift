import Foundation

/// A forecast as issued, as the `forecast` table keeps it: one row per city and data time,
/// its hours and its days each packed into a blob. A run's 48 hours and 8 days as rows of
/// their own were 56 B-tree inserts per city, most of recording's cost (Benchmarks/README.md,
/// "history.sh"); nothing reads them by value but the forecast checks, which take the few
/// hours they need into `forecast_lead` as the forecast is recorded.
///
/// The blobs' layout (version 1), little-endian: a version byte, then fixed-size records
/// - hour: target (Int64, Unix seconds), step hours (UInt8), condition (Int16), then as
///   Float32 temperature, feels like, humidity, dew point, pressure, precipitation
///   chance, rain, snow, wind speed, gust, direction, cloud cover, visibility, UV index;
/// - day: the local day (10 ASCII bytes, `yyyy-MM-dd`), condition (Int16), then as Float32
///   the low, the high, precipitation chance, rain, snow, wind speed, gust, UV index.
/// A value not sent is a NaN. Float32 keeps 7 significant digits: more than any API sends.
struct IssuedForecast: Sendable, Equatable {
    struct Hour: Sendable, Equatable {
        var target: Int64
        var stepHours: Int
        var condition: Int
        var temperature: Double
        var feelsLike, humidity, dewPoint, pressure, precipitationChance, rain, snow: Double?
        var windSpeed, windGust, windDirection, cloudCover, visibility, uvIndex: Double?
    }

    struct Day: Sendable, Equatable {
        var day: String
        var condition: Int
        var temperatureMin: Double
        var temperatureMax: Double
        var precipitationChance, rain, snow, windSpeed, windGust, uvIndex: Double?
    }

    var hours: [Hour]
    var days: [Day]

    static let version: UInt8 = 1
    static let hourSize = 8 + 1 + 2 + 14 * 4
    static let daySize = 10 + 2 + 8 * 4
}

/// An hour as a blob packs it: `IssuedForecast.Hour` (migrations, tests, reading back) and
/// the recorded forecast's own `HourlyForecast`, which recording packs straight from
/// (an array of `Hour`s made first was a twentieth of recording's CPU).
protocol PackableHour {
    var targetSeconds: Int64 { get }
    var stepHours: Int { get }
    var conditionCode: Int { get }
    var temperature: Double { get }
    var feelsLike: Double? { get }
    var humidity: Double? { get }
    var dewPoint: Double? { get }
    var pressure: Double? { get }
    var precipitationChance: Double? { get }
    var rain: Double? { get }
    var snow: Double? { get }
    var windSpeed: Double? { get }
    var windGust: Double? { get }
    var windDirection: Double? { get }
    var cloudCover: Double? { get }
    var visibility: Double? { get }
    var uvIndex: Double? { get }
}

/// A day as a blob packs it (see `PackableHour`).
protocol PackableDay {
    var dayKey: String { get }
    var conditionCode: Int { get }
    var temperatureMin: Double { get }
    var temperatureMax: Double { get }
    var precipitationChance: Double? { get }
    var rain: Double? { get }
    var snow: Double? { get }
    var windSpeed: Double? { get }
    var windGust: Double? { get }
    var uvIndex: Double? { get }
}

extension IssuedForecast.Hour: PackableHour {
    var targetSeconds: Int64 { target }
    var conditionCode: Int { condition }
}

extension IssuedForecast.Day: PackableDay {
    var dayKey: String { day }
    var conditionCode: Int { condition }
}

// 0 stands for "no condition code", as it does for an unknown one.
extension HourlyForecast: PackableHour {
    var targetSeconds: Int64 { Int64(time.timeIntervalSince1970) }
    var conditionCode: Int { condition?.code ?? 0 }
}

extension DailyForecast: PackableDay {
    var dayKey: String { day }
    var conditionCode: Int { condition?.code ?? 0 }
}

extension IssuedForecast {
    /// The hours' blob.
    var hoursBlob: [UInt8] { Self.hoursBlob(hours) }

    /// The days' blob.
    var daysBlob: [UInt8] { Self.daysBlob(days) }

    static func hoursBlob(_ hours: some Collection<some PackableHour>) -> [UInt8] {
        PackedBytes.pack(records: hours.count, size: hourSize) { out in
            for hour in hours {
                out.int64(hour.targetSeconds); out.uint8(UInt8(clamping: hour.stepHours)); out.int16(hour.conditionCode)
                out.float(hour.temperature); out.float(hour.feelsLike); out.float(hour.humidity); out.float(hour.dewPoint)
                out.float(hour.pressure); out.float(hour.precipitationChance); out.float(hour.rain); out.float(hour.snow)
                out.float(hour.windSpeed); out.float(hour.windGust); out.float(hour.windDirection); out.float(hour.cloudCover)
                out.float(hour.visibility); out.float(hour.uvIndex)
            }
        }
    }

    static func daysBlob(_ days: some Collection<some PackableDay>) -> [UInt8] {
        PackedBytes.pack(records: days.count, size: daySize) { out in
            for day in days {
                out.ascii(day.dayKey, width: 10); out.int16(day.conditionCode)
                out.float(day.temperatureMin); out.float(day.temperatureMax); out.float(day.precipitationChance); out.float(day.rain)
                out.float(day.snow); out.float(day.windSpeed); out.float(day.windGust); out.float(day.uvIndex)
            }
        }
    }

    /// Reads the two blobs back; nil when either is not a version-1 blob of whole records.
    init?(hours hoursBlob: [UInt8], days daysBlob: [UInt8]) {
        guard var hourReader = PackedBytes.Reader(hoursBlob, recordSize: Self.hourSize),
              var dayReader = PackedBytes.Reader(daysBlob, recordSize: Self.daySize)
        else { return nil }
        hours = []
        while !hourReader.atEnd {
            let target = hourReader.int64(), step = Int(hourReader.uint8()), condition = hourReader.int16()
            let v = (0..<14).map { _ in hourReader.float() }
            hours.append(Hour(target: target, stepHours: step, condition: condition, temperature: v[0] ?? .nan,
                              feelsLike: v[1], humidity: v[2], dewPoint: v[3], pressure: v[4], precipitationChance: v[5],
                              rain: v[6], snow: v[7], windSpeed: v[8], windGust: v[9], windDirection: v[10],
                              cloudCover: v[11], visibility: v[12], uvIndex: v[13]))
        }
        days = []
        while !dayReader.atEnd {
            let day = dayReader.ascii(width: 10), condition = dayReader.int16()
            let v = (0..<8).map { _ in dayReader.float() }
            days.append(Day(day: day, condition: condition, temperatureMin: v[0] ?? .nan, temperatureMax: v[1] ?? .nan,
                            precipitationChance: v[2], rain: v[3], snow: v[4], windSpeed: v[5], windGust: v[6], uvIndex: v[7]))
        }
    }
}

/// Fixed-width little-endian fields, written after a version byte and read back.
enum PackedBytes {
    /// A version byte and `records` records of `size` bytes, written by `write` into one
    /// allocation. Stored straight into the buffer: appending to an array field by field
    /// (and an array of each hour's values) was a tenth of recording's CPU.
    static func pack(records: Int, size: Int, _ write: (inout Writer) -> Void) -> [UInt8] {
        let count = 1 + records * size
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var writer = Writer(base: UnsafeMutableRawPointer(buffer.baseAddress!), capacity: count)
            writer.uint8(IssuedForecast.version)
            write(&writer)
            precondition(writer.offset == count, "a record's fields do not add up to its size")
            initialized = count
        }
    }

    struct Writer {
        fileprivate let base: UnsafeMutableRawPointer
        fileprivate let capacity: Int
        fileprivate var offset = 0

        mutating func uint8(_ value: UInt8) { store(value) }
        mutating func int16(_ value: Int) { store(UInt16(bitPattern: Int16(clamping: value)).littleEndian) }
        mutating func int32(_ value: Int) { store(UInt32(bitPattern: Int32(clamping: value)).littleEndian) }
        mutating func int64(_ value: Int64) { store(UInt64(bitPattern: value).littleEndian) }
        /// A value kept to the bit (a temperature the checks subtract).
        mutating func double(_ value: Double) { store(value.bitPattern.littleEndian) }
        /// A value as Float32; an absent one as a NaN.
        mutating func float(_ value: Double?) { store((value.map(Float.init) ?? .nan).bitPattern.littleEndian) }

        /// The text's first `width` bytes, padded with spaces.
        mutating func ascii(_ text: String, width: Int) {
            var count = 0
            for byte in text.utf8.prefix(width) {
                store(byte)
                count += 1
            }
            for _ in count..<width { store(UInt8(0x20)) }
        }

        private mutating func store<T: FixedWidthInteger>(_ value: T) {
            precondition(offset + MemoryLayout<T>.size <= capacity)
            base.storeBytes(of: value, toByteOffset: offset, as: T.self)
            offset += MemoryLayout<T>.size
        }
    }

    struct Reader {
        private let bytes: [UInt8]
        private var offset = 1

        /// Nil unless the bytes are a version byte and whole records.
        init?(_ bytes: [UInt8], recordSize: Int) {
            guard bytes.first == IssuedForecast.version, (bytes.count - 1) % recordSize == 0 else { return nil }
            self.bytes = bytes
        }

        var atEnd: Bool { offset >= bytes.count }

        mutating func uint8() -> UInt8 {
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func int16() -> Int { Int(Int16(bitPattern: read(UInt16.self))) }
        mutating func int32() -> Int { Int(Int32(bitPattern: read(UInt32.self))) }
        mutating func int64() -> Int64 { Int64(bitPattern: read(UInt64.self)) }
        mutating func double() -> Double { Double(bitPattern: read(UInt64.self)) }

        /// A Float32 as the Double it stood for (rounded to the thousandth: Float32's own
        /// digits beyond it are noise); nil for a NaN.
        mutating func float() -> Double? {
            let value = Float(bitPattern: read(UInt32.self))
            return value.isNaN ? nil : (Double(value) * 1000).rounded() / 1000
        }

        mutating func ascii(width: Int) -> String {
            defer { offset += width }
            return String(decoding: bytes[offset..<offset + width], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }

        private mutating func read<T: FixedWidthInteger>(_: T.Type) -> T {
            var value: T = 0
            withUnsafeMutableBytes(of: &value) { $0.copyBytes(from: bytes[offset..<offset + MemoryLayout<T>.size]) }
            offset += MemoryLayout<T>.size
            return T(littleEndian: value)
        }
    }
}
