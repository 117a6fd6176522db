import Localization

/// A ``Diary`` as plain text, for a journal that is not Markdown (jrnl, a text file):
///
///     2026-12-02
///
///     Mezzanine — Massive Attack · 21:04–22:10
///       Art: /home/ana/.local/share/media-broker/art/3f2a.jpg
///       21:04 Teardrop — Massive Attack · Mezzanine · mpv
///
/// The structure of ``MarkdownOutput`` without its syntax: nothing is escaped, and only control
/// characters (a newline in a title) become spaces so that each listen stays on its line.
enum PlainTextOutput {
    static func document(_ diary: Diary) -> String {
        diary.days.map { day in
            day.day.isoText + "\n" + day.entries.map(entry).joined()
        }.joined(separator: "\n")
    }

    private static func entry(_ entry: Diary.Entry) -> String {
        var lines: [String] = []
        if let heading = entry.heading {
            lines.append(heading.line(escaping: \.onOneLine))
        }
        if let art = entry.art {
            lines.append("  " + artLine(art))
        }
        for listen in entry.listens {
            lines.append("  " + listen.line(escaping: \.onOneLine))
            if let art = listen.art { lines.append("        " + artLine(art)) }
        }
        return "\n" + lines.map { $0 + "\n" }.joined()
    }

    private static func artLine(_ art: Diary.Art) -> String {
        // TRANSLATORS: a line of a plain-text diary: where a listen's cover picture is.
        localized("Art: {path}", ["path": art.path.onOneLine])
    }
}
