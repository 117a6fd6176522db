import Localization
import FoundationEssentials
import MediaDonationClient
import ClientMomentText

/// What `broker-ctl moments` prints.
enum MomentsOutput {
    static var emptyMessage: String { localized("No moments in that range.") + "\n" }

    /// One block per moment, newest first: its title, when, how many tracks and in which apps,
    /// then its tracks oldest first, each with its local start time.
    static func blocks(_ moments: [Moment], tracks: [Int64: GenericMedia], timeZone: some UTCOffsetRule) -> String {
        guard !moments.isEmpty else { return emptyMessage }
        return moments.map { moment in
            let start = timeZone.civilTime(at: moment.started), end = timeZone.civilTime(at: moment.ended)
            let count = localizedPlural("{count} track", "{count} tracks", count: moment.count)
            var lines = [RecentOutput.cell(MomentText.title(of: moment)),
                         "  \(start.localeMinuteText)–\(end.localeClockText) · \(count) · \(moment.appIDs.joined(separator: ", "))"]
            for id in moment.assetIDs {
                guard let track = tracks[id] else { continue }
                let line = [track.title, track.artist].compactMap { $0 }.joined(separator: " — ")
                lines.append("    \(timeZone.civilTime(at: track.date).localeClockText)  \(RecentOutput.cell(line))")
            }
            return lines.joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }

    /// One JSON object a line: the moment's contract keys, and its tracks under `assets`.
    static func jsonLines(_ moments: [Moment], tracks: [Int64: GenericMedia]) -> String {
        moments.map { json(for: $0, tracks: tracks).serialized + "\n" }.joined()
    }

    static func json(for moment: Moment, tracks: [Int64: GenericMedia]) -> JSONValue {
        var object = JSONObjectBuilder()
        object.add("id", moment.id)
        object.add("title", moment.title)
        object.add("summary", moment.summary)
        object.add("started", RecentOutput.microsecondsSinceEpoch(moment.started))
        object.add("started_iso", UTC().civilTime(at: moment.started).utcISO8601Text)
        object.add("ended", RecentOutput.microsecondsSinceEpoch(moment.ended))
        object.add("listened", RecentOutput.microseconds(moment.listened))
        object.add("count", Int64(moment.count))
        object.add("title_rule", moment.titleRule.rawValue)
        object.add("album", moment.album)
        object.add("artist", moment.artist)
        object.add("artists", JSONValue.array(moment.artists.map(JSONValue.string)))
        object.add("app_ids", JSONValue.array(moment.appIDs.map(JSONValue.string)))
        object.add("app_icon", moment.appIcon)
        object.add("part_of_day", moment.partOfDay)
        object.add("asset_ids", JSONValue.array(moment.assetIDs.map(JSONValue.integer)))
        object.add("assets", JSONValue.array(moment.assetIDs.compactMap { tracks[$0] }.map(RecentOutput.json(for:))))
        return object.object
    }
}
