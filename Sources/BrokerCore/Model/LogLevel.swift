/// How much a log line matters, as sd-daemon numbers it (`<3>` error … `<7>` debug): the policy
/// types say it with their lines, and ``Log`` writes only those at or above its threshold.
package enum LogLevel: Int32, Sendable, Comparable {
    case error = 3, warning = 4, notice = 5, info = 6, debug = 7

    package static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }
}
