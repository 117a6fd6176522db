/// A ``Diary`` as Markdown, to append to a daily note (Obsidian, Logseq, any Markdown file):
///
///     ## 2026-12-02
///
///     ### Mezzanine — Massive Attack · 21:04–22:10
///
///     ![Mezzanine](</home/ana/.local/share/media-broker/art/3f2a.jpg>)
///
///     - 21:04 Teardrop — Massive Attack · Mezzanine · mpv
///
/// Each day is a level-2 heading named by its ISO date (as daily notes are named, and the same in
/// every language); each moment a level-3 heading; each listen an item of a list. Words from
/// players are escaped by ``MarkdownEscaping``.
enum MarkdownOutput {
    static func document(_ diary: Diary) -> String {
        // The empty line first keeps the heading on a line of its own when the output is
        // appended to a note that does not end in one.
        diary.days.map { day in
            "\n## \(day.day.isoText)\n" + day.entries.map(entry).joined()
        }.joined()
    }

    private static func entry(_ entry: Diary.Entry) -> String {
        var blocks: [String] = []
        if let heading = entry.heading {
            blocks.append("### " + heading.line(escaping: MarkdownEscaping.literal))
        }
        if let image = entry.art.flatMap(image) {
            blocks.append(image)
        }
        blocks.append(entry.listens.map(item).joined(separator: "\n"))
        return blocks.map { "\n" + $0 + "\n" }.joined()
    }

    /// A listen's list item; its art, when it has some, continues the item on the next line.
    private static func item(_ listen: Diary.Listen) -> String {
        let line = "- " + listen.line(escaping: MarkdownEscaping.literal)
        guard let image = listen.art.flatMap(image) else { return line }
        return line + "\n  " + image
    }

    private static func image(_ art: Diary.Art) -> String? {
        MarkdownEscaping.image(path: art.path, description: art.description)
    }
}
