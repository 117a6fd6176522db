import AssetContract
import MediaDonationClient
import Localization

/// `broker-ctl opt-out APP` or `--site SITE`: stop recording an app, or a site in browsers, and
/// with `--purge` forget it.
struct OptOutCommand: Subcommand, Equatable {
    static let name = "opt-out"
    static let summary = localized("Stop recording an app, or a site in browsers; with --purge also delete what it recorded.")

    enum Option {
        static let site = OptionSpec("site", value: "SITE", help: localized("Opt a site out in every web browser, like youtube.com, instead of an app."))
        static let purge = OptionSpec("purge", help: localized("Also delete every listen of the app (or on the site), for good."))
        static let yes = OptionSpec("yes", short: "y", help: localized("With --purge: delete without asking."))
    }

    /// What is opted out or in: an app, or a site in every web browser.
    enum Target: Equatable {
        case app(String)
        case site(String)
    }

    static let options = [Option.site, Option.purge, Option.yes]
    static let arguments = [
        ArgumentSpec(name: "APP", isOptional: true, help: localized("The app's id, as 'broker-ctl apps' lists it (or give --site)."))
    ]
    static let usage = "broker-ctl opt-out (APP | --site SITE) [--purge [--yes]]"

    static let discussion = localized("""
        From now on nothing of APP is recorded, and its past listens are hidden from every journaling
        app; they stay in the history until purged. With --site, a listen in any web browser on that
        site (or one of its subdomains) is not recorded; its past listens stay, and are shown, until
        purged. With --purge they are deleted too: on a terminal you are asked first, elsewhere --yes
        is required. 'broker-ctl opt-in' undoes an opt-out (not a purge).

        Examples:
          broker-ctl opt-out spotify
          broker-ctl opt-out org.example.Podcasts --purge --yes
          broker-ctl opt-out --site youtube.com
        """)

    var target: Target
    var purges = false
    var assumeYes = false

    init(_ target: Target, purges: Bool = false, assumeYes: Bool = false) {
        self.target = target
        self.purges = purges
        self.assumeYes = assumeYes
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        target = try Self.target(arguments)
        purges = arguments.contains(Option.purge)
        assumeYes = arguments.contains(Option.yes)
        if assumeYes && !purges { throw UsageError(localized("--yes only applies with --purge")) }
    }

    /// The APP positional, or `--site`, of `opt-out` and `opt-in`: exactly one.
    static func target(_ arguments: ParsedArguments) throws(UsageError) -> Target {
        let app = arguments.positionals.first
        switch (app, arguments.value(of: Option.site)) {
        case (nil, nil): throw UsageError(localized("give an app id, such as mpv, or --site SITE"))
        case (_?, _?): throw UsageError(localized("give an app id or --site, not both"))
        case (let app?, nil):
            // TRANSLATORS: APP is the argument's name in the usage line, kept as it is.
            guard !app.isEmpty else { throw UsageError(localized("APP needs an app id, such as mpv")) }
            // TRANSLATORS: {app} is what was given; {rule} is the rule an app id follows, in English.
            guard AssetContract.isAppID(app) else { throw UsageError(localized("'{app}' is no app id: {rule}", ["app": String(app.prefix(64)), "rule": AppIDRule.text])) }
            return .app(app)
        case (nil, let text?):
            guard let site = AssetContract.site(normalizing: text) else { throw UsageError(localized("'{site}' is no site: give a host name, like youtube.com", ["site": String(text.prefix(64))])) }
            return .site(site)
        }
    }

    func run(in environment: RunEnvironment) async throws {
        if purges {
            try Confirmation.obtain(target.purgeQuestion, assumeYes: assumeYes, subcommand: Self.name, in: environment)
        }
        let broker = try environment.connectToBroker()
        // Opted out first, so nothing new is recorded between the purge and the opt-out.
        switch target {
        case .app(let appID): try await broker.setAppOptedOut(appID, true)
        case .site(let site): try await broker.setSiteOptedOut(site, true)
        }
        guard purges else { return environment.standardOutput.write(target.optedOutMessage) }
        let removed = try await broker.purge(target.scope)
        environment.standardOutput.write(
            localizedPlural("Opted out {name} and deleted {count} listen.", "Opted out {name} and deleted {count} listens.", count: removed,
                            ["name": target.name]) + "\n")
    }
}

extension OptOutCommand.Target {
    /// The app id or the site.
    var name: String {
        switch self {
        case .app(let appID): appID
        case .site(let site): site
        }
    }

    /// What `--purge` asks before it deletes.
    var purgeQuestion: String {
        switch self {
        case .app(let appID): localized("Opt out {app} and delete all its listens for good?", ["app": appID])
        case .site(let site): localized("Opt out {site} and delete all listens on it for good?", ["site": site])
        }
    }

    var scope: PurgeScope {
        switch self {
        case .app(let appID): .app(appID)
        case .site(let site): .site(site)
        }
    }

    /// What an opt-out without `--purge` says.
    var optedOutMessage: String {
        switch self {
        case .app(let appID):
            localized(
                "Opted out {app}: nothing of it is recorded or shown any more. 'broker-ctl opt-out {app} --purge' also deletes its past listens.",
                ["app": appID]) + "\n"
        case .site(let site):
            localized(
                "Opted out {site}: nothing played on it in a web browser is recorded any more. 'broker-ctl opt-out --site {site} --purge' also deletes its past listens.",
                ["site": site]) + "\n"
        }
    }
}
