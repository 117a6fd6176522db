import FoundationEssentials
import Localization
public import MediaDonationClient

/// A moment's title and line in the person's language (``MomentWording``), from the facts the
/// client library reads with it; the broker's own `title` and `summary` are English. The picker
/// and broker-ctl show moments so.
public enum MomentText {
    public static func title(of moment: Moment) -> String {
        MomentWording(rule: moment.titleRule.rawValue, show: moment.show, episode: moment.episode,
                      episodeCount: episodeCount(of: moment), album: moment.album, artist: moment.artist,
                      trackCount: moment.count, artistCount: moment.artistCount, partOfDay: moment.partOfDay).title ?? moment.title
    }

    public static func summary(of moment: Moment) -> String {
        MomentWording.summary(title: title(of: moment), started: local(moment.started), ended: local(moment.ended), trackCount: moment.count)
    }

    private static func local(_ date: Date) -> LocaleTime {
        LocaleTime(localSecondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// The broker tells a show's episode count only in its English title ("Show · 3 episodes");
    /// without it, every listen counts as one.
    private static func episodeCount(of moment: Moment) -> Int {
        moment.title.split(separator: " ").reversed().dropFirst().first.flatMap { Int($0) } ?? moment.count
    }
}
