import Clocks
import MediaDonationClient
import Localization

/// `broker-ctl suggest [on|off|status] [--at HH:MM] [--app ID | --no-app] [--json]`: the daily
/// journaling suggestion, and the journal app it opens.
struct SuggestCommand: Subcommand, Equatable {
    static let name = "suggest"
    static let summary = localized("Turn the daily journaling suggestion on or off, and choose the journal it opens.")
    /// The time `on` starts with when none is given and none was set before.
    static let defaultTime = "21:00"

    enum Action: String, Sendable, CaseIterable {
        case on, off, status
    }

    enum Option {
        static let at = OptionSpec("at", value: "HH:MM", help: localized("With on: the local time the suggestion comes (default 21:00)."))
        static let app = OptionSpec("app", value: "ID", help: localized("Open this journal app, by its desktop-file id, as the list shows it."))
        static let noApp = OptionSpec("no-app", help: localized("Open no journal app."))
        static let json = OptionSpec("json", help: localized("Print {\"suggestions\": true, \"suggest_at\": \"21:00\", \"journal_app\": ..., \"journal_apps\": [...]}."))
    }

    static let options = [Option.at, Option.app, Option.noApp, Option.json]
    static let usage = "broker-ctl suggest [on|off|status] [--at HH:MM] [--app ID | --no-app] [--json]"
    static let arguments = [
        ArgumentSpec(name: "on|off|status", isOptional: true, help: localized("Turn suggestions on, off, or show them (the default)."))
    ]

    static let discussion = localized("""
        Once a day at the time you choose, when the day holds a moment worth writing about (three
        listens or more, ten minutes or more; else the same date in an earlier year), a notification
        offers it: Write about it opens your journal app at that moment, Not today sends nothing
        more that day. Nothing is sent while recording is off or paused. Suggestions are off until
        you turn them on.

        Journal apps declare themselves in their desktop file (X-MediaBroker-Suggestion-URL); the
        list shows those installed, the one chosen marked with *.

        Examples:
          broker-ctl suggest on --at 21:30
          broker-ctl suggest --app org.example.Journal
          broker-ctl suggest off
        """)

    var action = Action.status
    var time: String?
    /// `.some(nil)`: choose no app.
    var app: String??
    var printsJSON = false

    init(action: Action = .status, time: String? = nil, app: String?? = nil, printsJSON: Bool = false) {
        self.action = action
        self.time = time
        self.app = app
        self.printsJSON = printsJSON
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        if let word = arguments.positionals.first {
            guard let action = Action(rawValue: word) else { throw UsageError(localized("expected on, off or status, not '{word}'", ["word": String(word.prefix(64))])) }
            self.action = action
        }
        time = arguments.value(of: Option.at)
        if let time {
            guard action == .on else { throw UsageError(localized("--at goes with on")) }
            guard TimeOfDay(parsing: time) != nil else { throw UsageError(localized("--at takes a time of day, HH:MM (24-hour), not '{text}'", ["text": String(time.prefix(64))])) }
        }
        let chosen = arguments.value(of: Option.app)
        if arguments.contains(Option.noApp) {
            guard chosen == nil else { throw UsageError(localized("give --app or --no-app, not both")) }
            app = .some(nil)
        } else if let chosen {
            guard !chosen.isEmpty else { throw UsageError(localized("--app takes a desktop-file id; --no-app chooses none")) }
            app = .some(chosen)
        }
        printsJSON = arguments.contains(Option.json)
    }

    func run(in environment: RunEnvironment) async throws(MediaBrokerError) {
        let broker = try environment.connectToBroker()
        if let app { try await broker.setJournalApp(app) }
        switch action {
        case .status: break
        case .off: try await broker.setSuggestionTime(nil)
        case .on:
            let current = try await broker.suggestionTime()
            try await broker.setSuggestionTime(time ?? current ?? Self.defaultTime)
        }
        let time = try await broker.suggestionTime()
        let chosen = try await broker.journalApp()
        let apps = try await broker.journalApps()
        environment.standardOutput.write(printsJSON ? Self.json(time, chosen, apps) : Self.text(time, chosen, apps))
    }

    static func text(_ time: String?, _ chosen: String?, _ apps: [JournalAppInfo]) -> String {
        var lines = [
            time.map { localized("Journaling suggestions are on: one a day at {time}.", ["time": $0]) }
                ?? localized("Journaling suggestions are off.")
        ]
        if let chosen {
            let name = apps.first { $0.id == chosen }?.name ?? chosen
            // TRANSLATORS: "Write about it" is the suggestion notification's button; {name} is the journal app's name, {id} its desktop-file id.
            lines.append(localized("Write about it opens {name} ({id}).", ["name": name, "id": chosen]))
        } else {
            lines.append(localized("No journal app is chosen: choose one with --app ID."))
        }
        if apps.isEmpty {
            lines.append(localized("No journal app is installed (one declares X-MediaBroker-Suggestion-URL in its desktop file)."))
        } else {
            lines.append(localized("Journal apps:"))
            for app in apps {
                let mark = app.id == chosen ? "*" : " "
                lines.append("  \(mark) \(app.id)  \(app.name)" + (app.problem.map { "  " + localized("(cannot take suggestions: {problem})", ["problem": $0]) } ?? ""))
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    static func json(_ time: String?, _ chosen: String?, _ apps: [JournalAppInfo]) -> String {
        let list = apps.map { app in
            var object = JSONObjectBuilder()
            object.add("id", app.id)
            object.add("name", app.name)
            object.add("icon", app.icon)
            object.add("url", app.url)
            object.add("problem", app.problem)
            return object.object
        }
        var object = JSONObjectBuilder()
        object.add("suggestions", .bool(time != nil))
        object.add("suggest_at", time)
        object.add("journal_app", chosen)
        object.add("journal_apps", .array(list))
        return object.object.serialized + "\n"
    }
}
