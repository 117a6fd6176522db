import Localization

/// The text `--help` prints, built from the subcommands' declarations.
enum HelpText {
    static let globalUsage = "broker-ctl <subcommand> [options]"

    static var global: String {
        let subcommands = BrokerCtl.allSubcommands.map { ($0.name, $0.summary) }
        let options = BrokerCtl.globalOptions.map { (optionLabel($0), $0.help) }
        return [
            localized("broker-ctl: ask the media broker what you listened to."),
            localized("Usage: {usage}", ["usage": globalUsage]),
            localized("Subcommands:") + "\n" + table(subcommands),
            localized("Options:") + "\n" + table(options),
            localized("See 'broker-ctl help <subcommand>' for the options of each."),
        ].joined(separator: "\n\n") + "\n"
    }

    static func forSubcommand(_ subcommand: any Subcommand.Type) -> String {
        var sections = [subcommand.summary, localized("Usage: {usage}", ["usage": subcommand.usage])]
        if !subcommand.arguments.isEmpty {
            sections.append(localized("Arguments:") + "\n" + table(subcommand.arguments.map { ($0.name, $0.help) }))
        }
        let options = subcommand.options + [OptionSpec.help]
        sections.append(localized("Options:") + "\n" + table(options.map { (optionLabel($0), $0.help) }))
        if !subcommand.discussion.isEmpty {
            sections.append(subcommand.discussion)
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// `-h, --help` or `--limit N`.
    private static func optionLabel(_ option: OptionSpec) -> String {
        let short = option.shortName.map { "-\($0), " } ?? ""
        return short + option.synopsis
    }

    /// Two indented columns, the second aligned.
    private static func table(_ rows: [(label: String, help: String)]) -> String {
        let width = rows.map(\.label.count).max() ?? 0
        return rows.map { row in
            "  " + row.label + String(repeating: " ", count: width - row.label.count + 3) + row.help
        }.joined(separator: "\n")
    }
}
