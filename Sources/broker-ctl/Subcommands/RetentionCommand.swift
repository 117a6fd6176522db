import MediaDonationClient
import Localization

/// `broker-ctl retention [DAYS]`: how long listens are kept before they expire.
struct RetentionCommand: Subcommand, Equatable {
    static let name = "retention"
    static let summary = localized("Show or set how many days listens are kept (0 keeps them forever).")

    enum Option {
        static let json = OptionSpec("json", help: localized("Print {\"retention_days\": N}."))
    }

    static let options = [Option.json]
    static let arguments = [
        ArgumentSpec(name: "DAYS", isOptional: true, help: localized("Keep listens this many days; 0 keeps them forever."))
    ]

    /// The contract's `RetentionDays` is a `u`.
    static let maximumDays = Int(UInt32.max)

    static let discussion = localized("""
        The broker deletes listens older than this when it starts and then about hourly. Lowering it
        deletes the older listens for good at the next expiry.

        Examples:
          broker-ctl retention
          broker-ctl retention 365
          broker-ctl retention 0
        """)

    /// The new setting, or nil to show the current one.
    var days: Int?
    var printsJSON = false

    init(days: Int? = nil, printsJSON: Bool = false) {
        self.days = days
        self.printsJSON = printsJSON
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        if let text = arguments.positionals.first {
            guard text.allSatisfy({ ("0"..."9").contains($0) }), let days = Int(text), days <= Self.maximumDays else {
                throw UsageError(localized("DAYS must be a whole number of days, 0 or more, not '{text}'", ["text": text]))
            }
            self.days = days
        }
        printsJSON = arguments.contains(Option.json)
    }

    func run(in environment: RunEnvironment) async throws {
        let broker = try environment.connectToBroker()
        let shown: Int
        if let days {
            try await broker.setRetentionDays(days)
            shown = days
        } else {
            shown = try await broker.retentionDays()
        }
        environment.standardOutput.write(printsJSON ? Self.json(shown) : Self.text(shown, changed: days != nil))
    }

    static func text(_ days: Int, changed: Bool) -> String {
        let sentence =
            switch (changed, days) {
            case (false, 0): localized("Listens are kept forever.")
            case (true, 0): localized("Listens are now kept forever.")
            case (false, _): localizedPlural("Listens are kept for {count} day.", "Listens are kept for {count} days.", count: days)
            case (true, _): localizedPlural("Listens are now kept for {count} day.", "Listens are now kept for {count} days.", count: days)
            }
        return sentence + "\n"
    }

    static func json(_ days: Int) -> String {
        JSONValue.object([("retention_days", .integer(Int64(days)))]).serialized + "\n"
    }
}
