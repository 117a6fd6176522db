import BrokerCore
import Localization

extension Moment {
    /// The moment's line in the person's language, as the daily suggestion shows it: "Mezzanine —
    /// Massive Attack · 21:04–22:10 · 9 tracks" in English, the times in the locale's format. The
    /// `summary` the D-Bus contract serves stays English, for apps to word their own.
    func localizedSummary(localTime: LocalTime) -> String {
        let wording = MomentWording(
            rule: title.rule.rawValue, show: title.rule == .show ? title.album : nil, episode: title.episode,
            episodeCount: title.episodeCount, album: title.album, artist: title.artist, trackCount: assets.count,
            artistCount: title.artistCount, partOfDay: title.partOfDay.rawValue)
        return MomentWording.summary(
            title: wording.title ?? title.text,
            started: LocaleTime(wallClockSecondsSinceEpoch: localTime.wallClockSeconds(of: started)),
            ended: LocaleTime(wallClockSecondsSinceEpoch: localTime.wallClockSeconds(of: ended)), trackCount: assets.count)
    }
}
