import MediaDonationClient

/// What `broker-ctl follow` prints for each listen as it is recorded: one line, flushed alone.
enum FollowOutput {
    /// `2026-11-29 14:00  Teardrop — Massive Attack (Mezzanine) · mpv`, in local time; unknown
    /// parts are left out, and control characters cannot break the line.
    static func line(_ item: GenericMedia, timeZone: some UTCOffsetRule) -> String {
        var text = timeZone.civilTime(at: item.date).localeMinuteText + "  " + RecentOutput.cell(item.title)
        if let artist = item.artist { text += " — " + RecentOutput.cell(artist) }
        if let album = item.album { text += " (" + RecentOutput.cell(album) + ")" }
        if let app = item.appID ?? item.appName { text += " · " + RecentOutput.cell(app) }
        return text + "\n"
    }

    /// One JSON object on one line, with `recent --json`'s keys.
    static func jsonLine(_ item: GenericMedia) -> String {
        RecentOutput.json(for: item).serialized + "\n"
    }
}
