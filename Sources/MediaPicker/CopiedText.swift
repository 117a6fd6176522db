import FoundationEssentials
import Localization
import MediaDonationClient
import ClientMomentText

/// What *Copy* puts on the clipboard (issue 35): the picked listens as plain text, ready to paste
/// into any journal — the moment's title and time first when a moment was open, then a line for
/// each listen, oldest first:
///
///     Mezzanine — Massive Attack · 21:04–21:24
///     21:04 Angel — Massive Attack · Mezzanine
///     21:09 Risingson — Massive Attack · Mezzanine
///
/// Times are the person's local clock, in the locale's format; the moment's title and "Untitled"
/// in the person's language. Control characters in a player's words become spaces, so
/// each listen stays on its line.
enum CopiedText {
    static func of(_ listens: [GenericMedia], moment: Moment?, clock: (Date) -> String = LocalClockText.clock) -> String {
        var lines: [String] = []
        if let moment {
            lines.append(oneLine(MomentText.title(of: moment)) + " · " + clock(moment.started) + "–" + clock(moment.ended))
        }
        for listen in listens.sorted(by: { $0.date < $1.date }) {
            var line = clock(listen.date) + " " + oneLine(listen.title ?? localized("Untitled"))
            if !listen.artists.isEmpty { line += " — " + oneLine(listen.artists.joined(separator: ", ")) }
            if let album = listen.album, !album.isEmpty { line += " · " + oneLine(album) }
            lines.append(line)
        }
        return lines.map { $0 + "\n" }.joined()
    }

    private static func oneLine(_ words: String) -> String {
        String(String.UnicodeScalarView(words.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }
}
