import AssetContract
import FoundationEssentials
import MediaDonationClient
import Localization

/// One verb of broker-ctl, in a file of its own. It declares its name, options and arguments as
/// data, so help, the usage line, the man page and completion all come from what the parser
/// actually accepts.
protocol Subcommand: Sendable {
    static var name: String { get }
    /// One sentence, shown in the subcommand list and atop the subcommand's help.
    static var summary: String { get }
    static var options: [OptionSpec] { get }
    static var arguments: [ArgumentSpec] { get }
    /// Paragraphs after the option list in `--help`; empty for none.
    static var discussion: String { get }
    /// The synopsis after `Usage:`. Generated from the options and arguments unless a subcommand
    /// has rules the list cannot say (such as mutually exclusive options).
    static var usage: String { get }

    /// Builds the command from what the scanner found. Throws for values that are wrong, such as
    /// a limit out of range; the parser adds the usage line and help hint.
    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError)

    /// Does the work. What it throws decides the exit status (see `BrokerCtl.run`): a
    /// ``UsageError`` (a command line that can only be judged when it runs, such as `purge`
    /// without `--yes` when nobody can answer) exits 64 with the usage; a ``MediaBrokerError`` or
    /// ``CommandFailure`` exits 1 with its message.
    func run(in environment: RunEnvironment) async throws
}

extension Subcommand {
    static var arguments: [ArgumentSpec] { [] }
    static var discussion: String { "" }

    static var usage: String {
        let parts = options.map { "[\($0.synopsis)]" + ($0.isRepeatable ? "..." : "") }
            + arguments.map { $0.isOptional ? "[\($0.name)]" : $0.name }
        return (["broker-ctl", name] + parts).joined(separator: " ")
    }

    /// Every option spelling this subcommand accepts, `--help` included.
    static var optionNames: [String] {
        (options + [.help]).flatMap(\.spellings)
    }
}

/// What parsing needs to turn relative times into dates; explicit so parsing stays pure.
struct ParseContext: Sendable {
    var now: Date
    var timeZone: any UTCOffsetRule
}

/// An option such as `--limit N` or `--json`.
struct OptionSpec: Sendable, Hashable {
    /// The long name without dashes.
    var name: String
    var shortName: Character?
    /// How the value is shown in help (`N`, `WHEN`), or nil for a flag that takes none.
    var valuePlaceholder: String?
    var help: String
    /// May be given more than once, each value kept (`--artist A --artist B`); shown as `...`.
    var isRepeatable: Bool

    init(
        _ name: String, short shortName: Character? = nil, value valuePlaceholder: String? = nil,
        repeatable isRepeatable: Bool = false, help: String
    ) {
        self.name = name
        self.shortName = shortName
        self.valuePlaceholder = valuePlaceholder
        self.isRepeatable = isRepeatable
        self.help = help
    }

    var longSpelling: String { "--" + name }

    var spellings: [String] {
        [longSpelling] + (shortName.map { ["-\($0)"] } ?? [])
    }

    var takesValue: Bool { valuePlaceholder != nil }

    /// `--limit N`, as the usage line shows it.
    var synopsis: String {
        valuePlaceholder.map { "\(longSpelling) \($0)" } ?? longSpelling
    }

    static let help = OptionSpec("help", short: "h", help: localized("Show help."))
    static let version = OptionSpec("version", help: localized("Show the version."))
}

/// A positional argument such as `APP` or `[SUBCOMMAND]`.
struct ArgumentSpec: Sendable, Hashable {
    var name: String
    var isOptional: Bool
    var help: String
}

extension ParsedArguments {
    /// The value of a `WHEN` option read as a time, or nil when the option was not given.
    func date(of option: OptionSpec, _ context: ParseContext) throws(UsageError) -> Date? {
        guard let text = value(of: option) else { return nil }
        do {
            return try TimeExpression.date(from: text, now: context.now, timeZone: context.timeZone)
        } catch {
            // TRANSLATORS: {option} is the option, such as --since; {error} says why its value is no time.
            throw UsageError(localized("{option}: {error}", ["option": option.longSpelling, "error": error.description]))
        }
    }

    /// The value of an option that names an app, refused when empty.
    /// A whole number within `bounds` (a `--limit`), or nil when the option is absent.
    func number(of option: OptionSpec, in bounds: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(of: option) else { return nil }
        guard let number = Int(text), bounds.contains(number) else {
            throw UsageError(localized("{option} must be a whole number from {lowest} to {highest}, not '{value}'", [
                "option": option.longSpelling, "lowest": String(bounds.lowerBound), "highest": String(bounds.upperBound), "value": text,
            ]))
        }
        return number
    }

    func appID(of option: OptionSpec) throws(UsageError) -> String? {
        guard let app = value(of: option) else { return nil }
        guard !app.isEmpty else { throw UsageError(localized("{option} needs an app id, such as mpv", ["option": option.longSpelling])) }
        guard AssetContract.isAppID(app) else {
            // TRANSLATORS: {rule} is the rule for app ids ("an app id is 1–255 of the characters …").
            throw UsageError(localized("{option}: '{app}' is no app id: {rule}", [
                "option": option.longSpelling, "app": String(app.prefix(64)), "rule": AppIDRule.text,
            ]))
        }
        return app
    }

    /// A `--since`/`--until` pair, refused when the range is empty.
    func range(since: OptionSpec, until: OptionSpec, _ context: ParseContext) throws(UsageError) -> (since: Date?, until: Date?) {
        let start = try date(of: since, context)
        let end = try date(of: until, context)
        if let start, let end, start >= end {
            throw UsageError(localized("{since} must be earlier than {until}", ["since": since.longSpelling, "until": until.longSpelling]))
        }
        return (start, end)
    }
}

/// ``AssetContract/appIDRule`` in the person's language, for the command line's mistakes. The
/// contract's own sentence stays English: the broker sends it in its D-Bus errors and logs it.
/// In the C locale the two read the same (AppIDRuleTests), so a change to the rule shows here.
enum AppIDRule {
    static var text: String {
        localized("an app id is 1–255 of the characters A–Z, a–z, 0–9, '.', '_' and '-', not starting with '.'")
    }
}
