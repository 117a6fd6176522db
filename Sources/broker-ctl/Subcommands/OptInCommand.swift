import MediaDonationClient

/// `broker-ctl opt-in APP`: withdraw the person's opt-out of an app.
struct OptInCommand: Subcommand, Equatable {
    static let name = "opt-in"
    static let summary = "Record an app again after 'opt-out'."

    static let options: [OptionSpec] = []
    static let arguments = [
        ArgumentSpec(name: "APP", isOptional: false, help: "The app's id, as 'broker-ctl apps' lists it.")
    ]

    static let discussion = """
        Withdraws your opt-out: the app is recorded again and its kept listens are shown again. An
        app that opted itself out stays out until it opts back in.

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
            environment.standardOutput.write("Opted in \(appID): it is recorded and shown again.\n")
        }
    }
}
