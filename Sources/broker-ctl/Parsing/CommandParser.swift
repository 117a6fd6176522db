import Localization

/// What one invocation of broker-ctl asks for.
enum Command: Sendable {
    case showVersion
    case run(any Subcommand)
}

/// Turns the words after `broker-ctl` into a ``Command``. Pure: no output, no process, no bus,
/// so tests call it directly.
enum CommandParser {
    static func parse(_ words: [String], context: ParseContext) throws(UsageError) -> Command {
        guard let first = words.first else {
            return .run(HelpCommand(topic: nil))
        }
        let rest = Array(words.dropFirst())

        if OptionSpec.help.spellings.contains(first) {
            // `broker-ctl --help recent` reads like `broker-ctl help recent`.
            return .run(try parse(HelpCommand.self, rest, context: context))
        }
        if first == OptionSpec.version.longSpelling {
            if let extra = rest.first { throw UsageError(localized("unexpected argument '{argument}'", ["argument": extra])) }
            return .showVersion
        }
        if first.hasPrefix("-") {
            throw UsageError(localized("unknown option '{option}'", ["option": first]))
        }
        guard let subcommand = BrokerCtl.subcommand(named: first) else {
            throw UsageError(localized("unknown subcommand '{subcommand}'", ["subcommand": first]))
        }
        return .run(try parse(subcommand, rest, context: context))
    }

    private static func parse(
        _ subcommand: any Subcommand.Type, _ words: [String], context: ParseContext
    ) throws(UsageError) -> any Subcommand {
        do {
            let arguments = try ArgumentScanner.scan(
                words, options: subcommand.options, arguments: subcommand.arguments)
            if arguments.wantsHelp {
                return HelpCommand(topic: subcommand.name)
            }
            return try subcommand.init(parsing: arguments, context: context)
        } catch {
            throw UsageError(error.message, subcommand: subcommand.name)
        }
    }
}
