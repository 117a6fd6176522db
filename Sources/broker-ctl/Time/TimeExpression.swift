import FoundationEssentials
import Localization

/// Reads a point in time as a person types it after `--since` or `--until`:
///
/// - ISO-8601: `2026-11-29`, `2026-11-29T14:05`, `2026-11-29T14:05:07.250`, optionally ending in
///   `Z` or an offset such as `+01:00`. Without an offset the reading is local time, because that
///   is the clock the person looks at.
/// - How long ago: `90s`, `15m`, `2h`, `3d`, `1w`, or combined such as `1h30m`. A day is 24 hours.
/// - `now`, `today` (local midnight) and `yesterday` (the local midnight before).
enum TimeExpression {
    static func date(
        from text: String, now: Date, timeZone: some UTCOffsetRule
    ) throws(InvalidTimeError) -> Date {
        switch text.lowercased() {
        case "now": return now
        case "today": return timeZone.instant(at: timeZone.civilTime(at: now).startOfDay)
        case "yesterday": return timeZone.instant(at: timeZone.civilTime(at: now).startOfDay.addingDays(-1))
        default: break
        }
        let bytes = Array(text.utf8)
        if let first = bytes.first, first.isDigit {
            if bytes.count >= 5, bytes[0..<4].allSatisfy(\.isDigit), bytes[4] == UInt8(ascii: "-") {
                return try parseISO8601(bytes, text: text, timeZone: timeZone)
            }
            if bytes.allSatisfy(\.isDigit) {
                throw InvalidTimeError(text: text, reason: localized("a number needs a unit, like 90s, 15m, 2h, 3d or 1w"))
            }
            if let seconds = try durationInSeconds(bytes, text: text) {
                return now.addingTimeInterval(-Double(seconds))
            }
        }
        throw InvalidTimeError(text: text, reason: InvalidTimeError.expectedForms)
    }

    /// A length of time typed as `90s`, `15m`, `2h`, `1h30m`, in seconds.
    static func duration(from text: String) throws(InvalidTimeError) -> Int64 {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first.isDigit, !bytes.allSatisfy(\.isDigit), let seconds = try durationInSeconds(bytes, text: text)
        else { throw InvalidTimeError(text: text, reason: localized("expected a duration like 90s, 15m, 2h or 1h30m")) }
        return seconds
    }

    private static let secondsPerUnit: [UInt8: Int64] = [
        UInt8(ascii: "s"): 1, UInt8(ascii: "m"): 60, UInt8(ascii: "h"): 3600,
        UInt8(ascii: "d"): 86_400, UInt8(ascii: "w"): 604_800,
    ]

    /// The total of `1h30m`-style text, or nil when it is not of that shape at all.
    private static func durationInSeconds(_ bytes: [UInt8], text: String) throws(InvalidTimeError) -> Int64? {
        let tooLong = InvalidTimeError(text: text, reason: localized("that duration is too long"))
        var total: Int64 = 0
        var number: Int64 = 0
        var digitsSinceUnit = 0
        for byte in bytes {
            if byte.isDigit {
                let (shifted, overflowed) = number.multipliedReportingOverflow(by: 10)
                let (sum, sumOverflowed) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                guard !overflowed, !sumOverflowed else { throw tooLong }
                number = sum
                digitsSinceUnit += 1
            } else if let unit = secondsPerUnit[byte], digitsSinceUnit > 0 {
                let (seconds, overflowed) = number.multipliedReportingOverflow(by: unit)
                let (sum, sumOverflowed) = total.addingReportingOverflow(seconds)
                guard !overflowed, !sumOverflowed else { throw tooLong }
                total = sum
                number = 0
                digitsSinceUnit = 0
            } else {
                return nil
            }
        }
        return digitsSinceUnit == 0 ? total : nil
    }

    private static func parseISO8601(
        _ bytes: [UInt8], text: String, timeZone: some UTCOffsetRule
    ) throws(InvalidTimeError) -> Date {
        var reader = ByteReader(bytes: bytes)
        func malformed() -> InvalidTimeError {
            InvalidTimeError(text: text, reason: localized("expected ISO-8601 like 2026-11-29, 2026-11-29T14:05 or 2026-11-29T14:05:07+01:00"))
        }

        guard let year = reader.number(digits: 4), reader.skip("-"),
            let month = reader.number(digits: 2), reader.skip("-"),
            let day = reader.number(digits: 2)
        else { throw malformed() }
        guard (1...12).contains(month) else { throw InvalidTimeError(text: text, reason: localized("month must be 01 to 12")) }
        let daysInMonth = CivilTime.numberOfDays(inMonth: month, ofYear: year)
        guard (1...daysInMonth).contains(day) else {
            throw InvalidTimeError(text: text, reason: localized("that month has days 01 to {last}", ["last": String(daysInMonth)]))
        }
        var civil = CivilTime(year: year, month: month, day: day)
        guard !reader.isAtEnd else { return timeZone.instant(at: civil) }

        guard reader.skip("T") || reader.skip("t") || reader.skip(" "),
            let hour = reader.number(digits: 2), reader.skip(":"),
            let minute = reader.number(digits: 2)
        else { throw malformed() }
        guard hour < 24, minute < 60 else {
            throw InvalidTimeError(text: text, reason: localized("time of day must be 00:00 to 23:59"))
        }
        civil.hour = hour
        civil.minute = minute
        if reader.skip(":") {
            guard let second = reader.number(digits: 2) else { throw malformed() }
            guard second < 60 else { throw InvalidTimeError(text: text, reason: localized("seconds must be 00 to 59")) }
            civil.second = second
            if reader.skip(".") {
                guard let nanosecond = reader.fraction() else { throw malformed() }
                civil.nanosecond = nanosecond
            }
        }
        guard !reader.isAtEnd else { return timeZone.instant(at: civil) }

        let offsetSeconds: Int
        if reader.skip("Z") || reader.skip("z") {
            offsetSeconds = 0
        } else {
            let sign: Int
            if reader.skip("+") { sign = 1 } else if reader.skip("-") { sign = -1 } else { throw malformed() }
            guard let hours = reader.number(digits: 2) else { throw malformed() }
            _ = reader.skip(":")
            let minutes = reader.isAtEnd ? 0 : reader.number(digits: 2)
            guard let minutes, hours < 24, minutes < 60 else {
                throw InvalidTimeError(text: text, reason: localized("a UTC offset must be like +01:00 or -05:30"))
            }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        }
        guard reader.isAtEnd else { throw malformed() }
        let seconds = civil.secondsSinceEpoch - Int64(offsetSeconds)
        return Date(timeIntervalSince1970: Double(seconds) + Double(civil.nanosecond) / 1e9)
    }
}

/// Why a `--since` or `--until` value could not be read.
struct InvalidTimeError: Error, Equatable, CustomStringConvertible {
    static var expectedForms: String { localized("expected ISO-8601 like 2026-11-29T14:05 or a duration like 2h, 3d") }

    var text: String
    var reason: String

    /// `reason` is already in the person's language; the sentence around it is put in it here.
    var description: String { localized("invalid time '{text}': {reason}", ["text": text, "reason": reason]) }
}

/// Reads ASCII fields from the front of a byte array, as the ISO-8601 grammar needs.
private struct ByteReader {
    let bytes: [UInt8]
    var position = 0

    var isAtEnd: Bool { position == bytes.count }

    /// Consumes `character` if it is next.
    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    /// Consumes exactly `digits` decimal digits.
    mutating func number(digits: Int) -> Int? {
        guard position + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[position..<position + digits] {
            guard byte.isDigit else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        position += digits
        return value
    }

    /// Consumes the digits after a decimal point, as nanoseconds; digits past the ninth are dropped.
    mutating func fraction() -> Int? {
        var nanoseconds = 0
        var count = 0
        while position < bytes.count, bytes[position].isDigit {
            if count < 9 { nanoseconds = nanoseconds * 10 + Int(bytes[position] - UInt8(ascii: "0")) }
            count += 1
            position += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 9) { nanoseconds *= 10 }
        return nanoseconds
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
}
