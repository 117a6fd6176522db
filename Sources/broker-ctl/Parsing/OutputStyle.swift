import Localization
/// How `recent`, `moments` and `day` print what they read: their own layout for a terminal, JSON
/// lines for scripts, or days of listening in Markdown or plain text for a journal.
struct OutputStyle: Equatable, Sendable {
    enum Format: String, Equatable, Sendable, CaseIterable {
        /// The command's terminal layout: `recent`'s table, `moments`' blocks.
        case standard
        case json, markdown, text
    }

    var format: Format
    /// Markdown and text show the art the broker kept; `--no-art` leaves it out, for a journal
    /// that cannot reach the broker's files (a note synced to another machine).
    var showsArt = true

    static let standard = OutputStyle(format: .standard)
    static let json = OutputStyle(format: .json)
    static let markdown = OutputStyle(format: .markdown)
    static let text = OutputStyle(format: .text)

    /// What `--format` accepts; `standard` has no name because it is what no option asks for.
    static let formatNames = [Format.markdown, .text, .json].map(\.rawValue)
    static let formatPlaceholder = formatNames.joined(separator: "|")

    static let noArtOption = OptionSpec("no-art", help: localized("Leave the art out of markdown and text."))
}

extension OutputStyle {
    /// Reads `--format`, the command's `--json` (the older spelling of `--format json`, kept for
    /// scripts) and `--no-art`. `--json` with another format, or `--no-art` where no art is
    /// printed, is refused rather than one of them quietly ignored.
    init(
        parsing arguments: ParsedArguments, format formatOption: OptionSpec, json jsonOption: OptionSpec? = nil,
        otherwise fallback: Format = .standard
    ) throws(UsageError) {
        var format = fallback
        if let name = arguments.value(of: formatOption) {
            guard Self.formatNames.contains(name), let named = Format(rawValue: name) else {
                // TRANSLATORS: markdown, text and json are the values --format takes, typed as they are.
                throw UsageError(localized("{option} must be markdown, text or json, not '{value}'", ["option": formatOption.longSpelling, "value": name]))
            }
            format = named
        }
        if let jsonOption, arguments.contains(jsonOption) {
            if arguments.value(of: formatOption) != nil, format != .json {
                // TRANSLATORS: '{format} json' and '{format} {other}' are options as typed, such as '--format json' and '--format markdown'.
                throw UsageError(localized("{json} means {format} json; it cannot go with {format} {other}", [
                    "json": jsonOption.longSpelling, "format": formatOption.longSpelling, "other": format.rawValue,
                ]))
            }
            format = .json
        }
        let leavesArtOut = arguments.contains(Self.noArtOption)
        if leavesArtOut, format != .markdown, format != .text {
            // TRANSLATORS: '{format} markdown' and '{format} text' are options as typed ('--format markdown').
            throw UsageError(localized("{option} goes with {format} markdown or text", ["option": Self.noArtOption.longSpelling, "format": formatOption.longSpelling]))
        }
        self.init(format: format, showsArt: !leavesArtOut)
    }
}
