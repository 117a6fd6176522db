import Localization

extension CivilTime {
    /// This reading as the person's locale writes it (`LC_TIME`; the rules are ``LocaleTime``'s):
    /// `2026-11-29 14:05` in the C locale, `29/11/2026 14:05` in French, `11/29/2026 2:05 PM` in
    /// American English. Human output uses it; JSON and the diary formats keep ISO 8601 and the
    /// 24-hour clock, which scripts read.
    var localeMinuteText: String { LocaleTime(wallClockSecondsSinceEpoch: secondsSinceEpoch).dateAndClockText }

    /// `14:05`, or `2:05 PM` where the locale counts hours on a 12-hour clock.
    var localeClockText: String { LocaleTime(wallClockSecondsSinceEpoch: secondsSinceEpoch).clockText }
}
