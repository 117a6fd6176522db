import FoundationEssentials
import Localization
public import MediaDonationClient

/// A moment's title and line in the person's language (``MomentWording``), from the facts the
/// client library reads with it; the broker's own `title` and `summary` are English. The picker
/// and broker-ctl show moments so.
public enum MomentText {
    public static func title(of moment: Moment) -> String {
        MomentWording(rule: moment.titleRule.rawValue, show: moment.show, episode: moment.episode,
                      episodeCount: moment.episodeCount ?? moment.count, album: moment.album, artist: moment.artist,
                      trackCount: moment.count, artistCount: moment.artistCount, partOfDay: moment.partOfDay).title ?? moment.title
    }

    public static func summary(of moment: Moment) -> String {
        MomentWording.summary(title: title(of: moment), started: LocaleTime(local: moment.started),
                              ended: LocaleTime(local: moment.ended), trackCount: moment.count)
    }
}
