import MediaDonationClient
import Localization

/// `broker-ctl opt-in APP` or `--site SITE`: allow an app, withdrawing the person's opt-out of it,
/// or let a site in browsers in again.
struct OptInCommand: Subcommand, Equatable {
    static let name = "opt-in"
    static let summary = localized("Allow an app: record it, after 'opt-out' or whatever 'new-apps' says; or let a site in again.")

    static let options = [OptOutCommand.Option.site]
    static let arguments = [
        ArgumentSpec(name: "APP", isOptional: true, help: localized("The app's id, as 'broker-ctl apps' lists it (or give --site)."))
    ]
    static let usage = "broker-ctl opt-in (APP | --site SITE)"

    static let discussion = localized("""
        Allows the app: any opt-out of it is withdrawn, and it is recorded (and its kept listens are
        shown again) whatever 'broker-ctl new-apps' says. An app that opted itself out stays out
        until it opts back in. With --site, listens on that site in web browsers are recorded again.

        Examples:
          broker-ctl opt-in spotify
          broker-ctl opt-in --site youtube.com
        """)

    var target: OptOutCommand.Target

    init(_ target: OptOutCommand.Target) {
        self.target = target
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        target = try OptOutCommand.target(arguments)
    }

    func run(in environment: RunEnvironment) async throws {
        let broker = try environment.connectToBroker()
        guard case .app(let appID) = target else {
            guard case .site(let site) = target else { return }
            try await broker.setSiteOptedOut(site, false)
            return environment.standardOutput.write(
                localized("Opted in {site}: what web browsers play on it is recorded again.", ["site": site]) + "\n")
        }
        try await broker.setAppOptedOut(appID, false)
        // Only the app can withdraw its own opt-out: say so rather than claim it is recorded.
        let app = try await broker.apps().first { $0.appID == appID }
        if let app, app.isOptedOut, app.optedOutBy == .app {
            environment.standardOutput.write(
                localized(
                    "Withdrew your opt-out of {app}, but the app has opted itself out: it stays unrecorded until it opts back in.",
                    ["app": appID]) + "\n")
        } else {
            environment.standardOutput.write(localized("Allowed {app}: it is recorded and shown.", ["app": appID]) + "\n")
        }
    }
}
