import AssetContract
import MediaDonationClient

/// `broker-ctl opt-out APP`: stop recording an app, and with `--purge` forget it.
struct OptOutCommand: Subcommand, Equatable {
    static let name = "opt-out"
    static let summary = "Stop recording an app; with --purge also delete what it recorded."

    enum Option {
        static let purge = OptionSpec("purge", help: "Also delete every listen of the app, for good.")
        static let yes = OptionSpec("yes", short: "y", help: "With --purge: delete without asking.")
    }

    static let options = [Option.purge, Option.yes]
    static let arguments = [
        ArgumentSpec(name: "APP", isOptional: false, help: "The app's id, as 'broker-ctl apps' lists it.")
    ]
    static let usage = "broker-ctl opt-out APP [--purge [--yes]]"

    static let discussion = """
        From now on nothing of APP is recorded, and its past listens are hidden from every journaling
        app; they stay in the history until purged. With --purge they are deleted too: on a terminal
        you are asked first, elsewhere --yes is required. 'broker-ctl opt-in APP' undoes an opt-out
        (not a purge).

        Examples:
          broker-ctl opt-out spotify
          broker-ctl opt-out org.example.Podcasts --purge --yes
        """

    var appID: String
    var purges = false
    var assumeYes = false

    init(appID: String, purges: Bool = false, assumeYes: Bool = false) {
        self.appID = appID
        self.purges = purges
        self.assumeYes = assumeYes
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        appID = try Self.appArgument(arguments)
        purges = arguments.contains(Option.purge)
        assumeYes = arguments.contains(Option.yes)
        if assumeYes && !purges { throw UsageError("--yes only applies with --purge") }
    }

    /// The APP positional of `opt-out` and `opt-in`.
    static func appArgument(_ arguments: ParsedArguments) throws(UsageError) -> String {
        guard let app = arguments.positionals.first, !app.isEmpty else {
            throw UsageError("APP needs an app id, such as mpv")
        }
        guard AssetContract.isAppID(app) else { throw UsageError("'\(app.prefix(64))' is no app id: \(AssetContract.appIDRule)") }
        return app
    }

    func run(in environment: RunEnvironment) async throws {
        if purges {
            try Confirmation.obtain(
                "Opt out \(appID) and delete all its listens for good?", assumeYes: assumeYes,
                subcommand: Self.name, in: environment)
        }
        let broker = try environment.connectToBroker()
        // Opted out first, so nothing new of the app is recorded between the purge and the opt-out.
        try await broker.setAppOptedOut(appID, true)
        guard purges else {
            environment.standardOutput.write(
                "Opted out \(appID): nothing of it is recorded or shown any more. "
                    + "'broker-ctl opt-out \(appID) --purge' also deletes its past listens.\n")
            return
        }
        let removed = try await broker.purge(.app(appID))
        environment.standardOutput.write("Opted out \(appID) and deleted \(PurgeCommand.listens(removed)).\n")
    }
}
