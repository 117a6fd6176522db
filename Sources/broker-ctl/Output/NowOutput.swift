import Localization
import MediaDonationClient

/// What `broker-ctl now` prints: the `recent` table plus how long each track has been heard.
enum NowOutput {
    static var emptyMessage: String { localized("Nothing is playing.") + "\n" }

    /// One row per player, in the broker's order.
    static func table(_ media: [GenericMedia], timeZone: some UTCOffsetRule, width: Int) -> String {
        guard !media.isEmpty else { return emptyMessage }
        let rows = media.map { item in
            RecentOutput.cells(for: item, timeZone: timeZone) + [item.listened.map(clockText) ?? "-"]
        }
        return TextTable(headers: RecentOutput.headers + [localized("LISTENED")], rows: rows, fixedColumns: [0])
            .rendered(width: width)
    }

    /// One JSON object a line, with `recent --json`'s keys.
    static func jsonLines(_ media: [GenericMedia]) -> String {
        media.map { RecentOutput.json(for: $0).serialized + "\n" }.joined()
    }

    /// `0:07`, `5:29`, `1:02:03`: whole seconds, as a player shows them.
    static func clockText(_ duration: Duration) -> String {
        let total = max(0, duration.components.seconds)
        let (hours, minutes, seconds) = (total / 3600, total % 3600 / 60, total % 60)
        func two(_ number: Int64) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds))" : "\(minutes):\(two(seconds))"
    }
}
