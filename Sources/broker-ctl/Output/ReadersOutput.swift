import Localization
import FoundationEssentials
import MediaDonationClient

/// What `broker-ctl readers` prints.
enum ReadersOutput {
    static var emptyMessage: String { localized("No sandboxed app has asked to read your listening yet.") + "\n" }

    /// A table in the order given, times local.
    static func table(_ readers: [ReaderInfo], timeZone: some UTCOffsetRule, width: Int) -> String {
        guard !readers.isEmpty else { return emptyMessage }
        let rows = readers.map { reader in
            [
                RecentOutput.cell(reader.appID), RecentOutput.cell(reader.appName), reader.access.rawValue,
                timeZone.civilTime(at: reader.decided).localeMinuteText, reader.lastRead.map { timeZone.civilTime(at: $0).localeMinuteText } ?? "-",
            ]
        }
        return TextTable(headers: [localized("ID"), localized("NAME"), localized("ACCESS"), localized("DECIDED"), localized("LAST READ")], rows: rows, fixedColumns: [2, 3, 4])
            .rendered(width: width)
    }

    /// One JSON object a line, with the keys of the contract's `Readers()`.
    static func jsonLines(_ readers: [ReaderInfo]) -> String {
        readers.map { reader in
            var object = JSONObjectBuilder()
            object.add("app_id", reader.appID)
            object.add("app_name", reader.appName)
            object.add("app_icon", reader.appIcon)
            object.add("access", reader.access.rawValue)
            object.add("decided", RecentOutput.microsecondsSinceEpoch(reader.decided))
            object.add("last_read", reader.lastRead.map(RecentOutput.microsecondsSinceEpoch))
            return object.object.serialized + "\n"
        }.joined()
    }
}
