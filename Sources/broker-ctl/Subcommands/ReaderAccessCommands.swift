import AssetContract
import MediaDonationClient
import Localization

/// `broker-ctl allow APP`, `deny APP` and `forget APP`: the person's decision for a sandboxed app.
protocol ReaderDecisionCommand: Subcommand, Equatable {
    /// The decision the command sets; `nil` forgets it.
    static var access: ReaderInfo.Access? { get }
    var appID: String { get }
    init(appID: String)
}

extension ReaderDecisionCommand {
    static var options: [OptionSpec] { [] }
    static var arguments: [ArgumentSpec] {
        [ArgumentSpec(name: "APP", isOptional: false, help: localized("The sandboxed app's id, such as org.gnome.Journal."))]
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        guard let app = arguments.positionals.first, !app.isEmpty else { throw UsageError(localized("APP needs an app id, such as org.gnome.Journal")) }
        guard AssetContract.isAppID(app) else {
            // TRANSLATORS: {rule} says what an app id may hold: "an app id is 1–255 of the characters …".
            throw UsageError(localized("'{app}' is no app id: {rule}", ["app": String(app.prefix(64)), "rule": AppIDRule.text]))
        }
        self.init(appID: app)
    }

    func run(in environment: RunEnvironment) async throws {
        try await environment.connectToBroker().setReaderAccess(appID, Self.access)
        let said = switch Self.access {
        case .allowed?: localized("Allowed {app} to read your listening history and to hear of new listens.", ["app": appID])
        case .denied?: localized("{app} may not read your listening history; it may ask again in a day.", ["app": appID])
        case nil: localized("Forgot your decision for {app}: it reads nothing until it asks again and you allow it.", ["app": appID])
        }
        environment.standardOutput.write(said + "\n")
    }
}

struct AllowCommand: ReaderDecisionCommand {
    static let name = "allow"
    static let summary = localized("Let a sandboxed app read your listening history.")
    static let access: ReaderInfo.Access? = .allowed
    static let discussion = localized("""
        The app may then read what you listened to (recent listens, moments) and hear of each new
        listen, until 'broker-ctl deny APP' or 'broker-ctl forget APP'.

        Example:
          broker-ctl allow org.gnome.Journal
        """)
    var appID: String
}

struct DenyCommand: ReaderDecisionCommand {
    static let name = "deny"
    static let summary = localized("Stop a sandboxed app reading your listening history.")
    static let access: ReaderInfo.Access? = .denied
    static let discussion = localized("""
        The app reads nothing from now on, and live listens stop reaching it at once. It may ask
        again a day later.

        Example:
          broker-ctl deny org.example.Tracker
        """)
    var appID: String
}

struct ForgetCommand: ReaderDecisionCommand {
    static let name = "forget"
    static let summary = localized("Drop your decision for a sandboxed app: it reads nothing until it asks again.")
    static let access: ReaderInfo.Access? = nil
    static let discussion = localized("""
        The app is treated as one you were never asked about: it reads nothing, and may ask at once.

        Example:
          broker-ctl forget org.gnome.Journal
        """)
    var appID: String
}
