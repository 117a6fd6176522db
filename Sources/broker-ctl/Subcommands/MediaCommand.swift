import Localization
import MediaDonationClient

/// `broker-ctl media on|off|status`: the Media toggle, the one switch for all recording.
struct MediaCommand: Subcommand, Equatable {
    static let name = "media"
    static let summary = localized("Switch media recording on or off, or show whether it is on.")

    enum Action: String, Sendable, CaseIterable {
        case on, off, status
    }

    enum Option {
        static let json = OptionSpec("json", help: localized("Print {\"media_enabled\": true|false}."))
    }

    static let options = [Option.json]
    static let arguments = [
        ArgumentSpec(name: "on|off|status", isOptional: true, help: localized("Switch recording on, off, or show it (the default)."))
    ]

    static let discussion = localized("""
        Off: nothing new is recorded from any player or donation, a listen in progress is dropped,
        and journaling apps get no media. What is already recorded stays until you purge it.

        Examples:
          broker-ctl media off
          broker-ctl media status --json
        """)

    var action = Action.status
    var printsJSON = false

    init(action: Action = .status, printsJSON: Bool = false) {
        self.action = action
        self.printsJSON = printsJSON
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        if let word = arguments.positionals.first {
            guard let action = Action(rawValue: word) else {
                throw UsageError(localized("expected on, off or status, not '{word}'", ["word": word]))
            }
            self.action = action
        }
        printsJSON = arguments.contains(Option.json)
    }

    func run(in environment: RunEnvironment) async throws {
        let broker = try environment.connectToBroker()
        let enabled: Bool
        switch action {
        case .status:
            enabled = try await broker.isMediaEnabled()
        case .on, .off:
            enabled = action == .on
            try await broker.setMediaEnabled(enabled)
        }
        environment.standardOutput.write(
            printsJSON ? Self.json(enabled) : Self.text(enabled, changed: action != .status))
    }

    static func text(_ enabled: Bool, changed: Bool) -> String {
        switch (changed, enabled) {
        case (false, true): localized("Media recording is on.") + "\n"
        case (false, false): localized("Media recording is off.") + "\n"
        case (true, true): localized("Media recording is now on.") + "\n"
        case (true, false): localized("Media recording is now off.") + "\n"
        }
    }

    static func json(_ enabled: Bool) -> String {
        JSONValue.object([("media_enabled", .bool(enabled))]).serialized + "\n"
    }
}
