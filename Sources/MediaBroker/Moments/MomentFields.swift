import SwiftDBus
import BrokerCore

extension Moment {
    /// One line ready to display: "Mezzanine — Massive Attack · 21:04–22:10 · 9 tracks".
    func summary(localTime: LocalTime) -> String {
        let tracks = assets.count == 1 ? "1 track" : "\(assets.count) tracks"
        return "\(title.text) · \(localTime.clockTime(of: started))–\(localTime.clockTime(of: ended)) · \(tracks)"
    }

    /// The moment as the contract's `a{sv}` (docs/dbus-api.md, `Moments`): unknown values are
    /// absent keys, never empty strings.
    func fields(localTime: LocalTime) -> DBusValue { .vardict(values(localTime: localTime)) }

    /// The moment's keys and their values, before they become an `a{sv}`.
    func values(localTime: LocalTime) -> [String: DBusValue] {
        var fields: [String: DBusValue] = [
            "id": .string(id), "title": .string(title.text), "summary": .string(summary(localTime: localTime)),
            "started": .int64(started), "ended": .int64(ended), "listened": .int64(listened),
            "count": .uint32(UInt32(clamping: assets.count)),
            "asset_ids": .array(element: .int64, assets.compactMap(\.id).map(DBusValue.int64)),
            "artists": .strings(artists), "app_ids": .strings(appIDs),
            "title_rule": .string(title.rule.rawValue), "part_of_day": .string(title.partOfDay.rawValue),
            "artist_count": .uint32(UInt32(clamping: title.artistCount)),
        ]
        let optional: [(String, String?)] = [
            ("album", album), ("artist", title.artist), ("show", title.rule == .show ? title.album : nil),
            ("episode", title.episode), ("app_icon", appIcon), ("kind", kind?.rawValue),
        ]
        for case let (key, value?) in optional where !value.isEmpty { fields[key] = .string(value) }
        if title.rule == .show { fields["episode_count"] = .uint32(UInt32(clamping: title.episodeCount)) }
        return fields
    }
}
