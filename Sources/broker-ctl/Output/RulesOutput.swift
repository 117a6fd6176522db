import Localization
import FoundationEssentials
import MediaDonationClient

/// What `broker-ctl rules` prints.
enum RulesOutput {
    static var emptyMessage: String { localized("No correction applies to later listens. 'broker-ctl edit ID ... --from-now-on' makes one.") + "\n" }

    /// A table in the order given (oldest first), times local.
    static func table(_ rules: [CorrectionRuleInfo], timeZone: some UTCOffsetRule, width: Int) -> String {
        guard !rules.isEmpty else { return emptyMessage }
        let rows = rules.map { rule in
            [
                String(rule.id), RecentOutput.cell(rule.appID), RecentOutput.cell(words(rule.title, rule.artists)),
                RecentOutput.cell(corrected(rule)), timeZone.civilTime(at: rule.created).localeMinuteText,
            ]
        }
        return TextTable(headers: [localized("ID"), localized("APP"), localized("TOLD"), localized("RECORDED AS"), localized("MADE")], rows: rows, fixedColumns: [0, 4])
            .rendered(width: width)
    }

    /// One JSON object a line, with the keys of the contract's `Rules()`.
    static func jsonLines(_ rules: [CorrectionRuleInfo]) -> String {
        rules.map { rule in
            var correction = JSONObjectBuilder()
            correction.add("title", rule.correctedTitle)
            if let artists = rule.correctedArtists { correction.add("artists", .array(artists.map(JSONValue.string))) }
            if let album = rule.correctedAlbum { correction.add("album", album ?? "") }
            var object = JSONObjectBuilder()
            object.add("id", rule.id)
            object.add("app_id", rule.appID)
            object.add("title", rule.title)
            object.add("artists", .array(rule.artists.map(JSONValue.string)))
            object.add("correction", correction.object)
            object.add("created", RecentOutput.microsecondsSinceEpoch(rule.created))
            return object.object.serialized + "\n"
        }.joined()
    }

    /// "Title — Artist, Artist", or the title alone.
    static func words(_ title: String, _ artists: [String]) -> String {
        artists.isEmpty ? title : "\(title) — \(artists.joined(separator: ", "))"
    }

    /// The words a rule sets, each field it leaves as told shown as "…".
    static func corrected(_ rule: CorrectionRuleInfo) -> String {
        var text = words(rule.correctedTitle ?? "…", rule.correctedArtists ?? (rule.artists.isEmpty ? [] : ["…"]))
        if let album = rule.correctedAlbum { text += album.map { " (\($0))" } ?? " (" + localized("no album") + ")" }
        return text
    }
}
