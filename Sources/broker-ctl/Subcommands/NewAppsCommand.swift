import Localization
import MediaDonationClient

/// `broker-ctl new-apps [record|ask|ignore]`: what becomes of an app the person has not decided about.
struct NewAppsCommand: Subcommand, Equatable {
    static let name = "new-apps"
    static let summary = localized("Record new apps at once, ask first, or record only the apps you allowed.")

    enum Option {
        static let json = OptionSpec("json", help: localized("Print {\"new_apps\": \"record\"|\"ask\"|\"ignore\"}."))
    }

    static let options = [Option.json]
    static let arguments = [
        ArgumentSpec(name: "record|ask|ignore", isOptional: true, help: localized("The new mode; without it, show the mode in force."))
    ]

    static let discussion = localized("""
        A new app is one you have neither allowed (opt-in) nor opted out.
          record  record it at once (the default)
          ask     hold its first listens in memory and ask you once, in a notification, whether to
                  record it; Record allows it and writes what was held, Don't record opts it out.
                  A question you dismiss or leave for an hour drops what it held; the app is asked
                  about again when the broker restarts, or decide with opt-in or opt-out.
          ignore  record only the apps you allowed
        Leaving record, the apps already in your history count as allowed. 'broker-ctl apps'
        shows each app's state.

        Examples:
          broker-ctl new-apps ask
          broker-ctl opt-in spotify
        """)

    var mode: NewAppsMode?
    var printsJSON = false

    init(mode: NewAppsMode? = nil, printsJSON: Bool = false) {
        self.mode = mode
        self.printsJSON = printsJSON
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        if let word = arguments.positionals.first {
            guard let mode = NewAppsMode(rawValue: word) else { throw UsageError(localized("expected record, ask or ignore, not '{word}'", ["word": word])) }
            self.mode = mode
        }
        printsJSON = arguments.contains(Option.json)
    }

    func run(in environment: RunEnvironment) async throws(MediaBrokerError) {
        let broker = try environment.connectToBroker()
        if let mode { try await broker.setNewApps(mode) }
        let current = try await broker.newApps()
        environment.standardOutput.write(printsJSON ? Self.json(current) : Self.sentence(current) + "\n")
    }

    /// One line saying what happens to a new app.
    static func sentence(_ mode: NewAppsMode) -> String {
        switch mode {
        case .record: localized("New apps are recorded at once.")
        case .ask: localized("New apps are recorded only once you say so: you are asked at their first listen.")
        case .ignore: localized("New apps are not recorded: only the apps you allowed are.")
        }
    }

    static func json(_ mode: NewAppsMode) -> String {
        JSONValue.object([("new_apps", .string(mode.rawValue))]).serialized + "\n"
    }
}
