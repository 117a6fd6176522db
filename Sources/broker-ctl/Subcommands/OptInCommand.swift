import MediaDonationClient

/// `broker-ctl opt-in APP`: allow an app, withdrawing the person's opt-out of it.
struct OptInCommand: Subcommand, Equatable {
    static let name = "opt-in"
    static let summary = "Allow an app: record it, after 'opt-out' or whatever 'new-apps' says."

    static let options: [OptionSpec] = []
    static let arguments = [
        ArgumentSpec(name: "APP", isOptional: false, help: "The app's id, as 'broker-ctl apps' lists it.")
    ]

    static let discussion = """
        Allows the app: any opt-out of it is withdrawn, and it is recorded (and its kept listens are
        shown again) whatever 'broker-ctl new-apps' says. An app that opted itself out stays out
        until it opts back in.

        Example:
          broker-ctl opt-in spotify
        """

    var appID: String

    init(appID: String) {
        self.appID = appID
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        appID = try OptOutCommand.appArgument(arguments)
    }

    func run(in environment: RunEnvironment) async throws {
        let broker = try environment.connectToBroker()
        try await broker.setAppOptedOut(appID, false)
        // Only the app can withdraw its own opt-out: say so rather than claim it is recorded.
        let app = try await broker.apps().first { $0.appID == appID }
        if let app, app.isOptedOut, app.optedOutBy == .app {
            environment.standardOutput.write(
                "Withdrew your opt-out of \(appID), but the app has opted itself out: it stays unrecorded until it opts back in.\n")
        } else {
            environment.standardOutput.write("Allowed \(appID): it is recorded and shown.\n")
        }
    }
}
