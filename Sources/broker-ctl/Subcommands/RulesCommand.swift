import MediaDonationClient
import Localization

/// `broker-ctl rules [--json | --ids]` and `broker-ctl rules remove ID`: the corrections applied to
/// later listens (`broker-ctl edit --from-now-on`).
struct RulesCommand: Subcommand, Equatable {
    static let name = "rules"
    static let summary = localized("List the corrections applied to later listens, or remove one.")

    static let options = ListFormat.options
    static let arguments = [
        ArgumentSpec(name: "remove", isOptional: true, help: localized("Remove the rule ID; without it, list the rules.")),
        ArgumentSpec(name: "ID", isOptional: true, help: localized("The rule's id, as 'broker-ctl rules' lists it.")),
    ]
    static let usage = "broker-ctl rules ([--json | --ids] | remove ID)"

    static let discussion = localized("""
        'broker-ctl edit ID ... --from-now-on' corrects a listen and keeps the correction as a rule:
        a later listen of the same app, told with the same title and artists as that listen first
        was, is recorded with the corrected words. Opted-out apps and sites, excluded tracks and a
        pause still keep a listen out first. Removing a rule leaves the listens it corrected as they
        are ('broker-ctl edit ID --undo' puts one's first words back).

        Examples:
          broker-ctl rules
          broker-ctl rules remove 3
        """)

    typealias Format = ListFormat

    enum Action: Equatable {
        case list(Format)
        case remove(Int64)
    }

    var action: Action

    init(action: Action = .list(.table)) {
        self.action = action
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        let format = try ListFormat(parsing: arguments)
        guard let verb = arguments.positionals.first else {
            action = .list(format)
            return
        }
        guard verb == "remove" else { throw UsageError(localized("expected 'remove ID', not '{word}'", ["word": String(verb.prefix(64))])) }
        guard format == .table else { throw UsageError(localized("'rules remove' takes no --json or --ids")) }
        guard arguments.positionals.count == 2, let id = Int64(arguments.positionals[1]), id > 0 else {
            throw UsageError(localized("'rules remove' takes the rule's id, a positive number, as 'broker-ctl rules' lists it"))
        }
        action = .remove(id)
    }

    func run(in environment: RunEnvironment) async throws(MediaBrokerError) {
        let broker = try environment.connectToBroker()
        switch action {
        case .remove(let id):
            try await broker.removeRule(id)
            environment.standardOutput.write(localized("Removed rule {id}: later listens are recorded as told.", ["id": String(id)]) + "\n")
        case .list(let format):
            let rules = try await broker.rules()
            let output: String
            switch format {
            case .table: output = RulesOutput.table(rules, timeZone: environment.timeZone, width: environment.outputWidth)
            case .json: output = RulesOutput.jsonLines(rules)
            case .ids: output = rules.map { "\($0.id)\n" }.joined()
            }
            environment.standardOutput.write(output)
        }
    }
}
