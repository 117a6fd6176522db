import MediaDonationClient
import Localization

/// `broker-ctl readers`: the sandboxed apps you allowed or refused to read your listening.
struct ReadersCommand: Subcommand, Equatable {
    static let name = "readers"
    static let summary = localized("List the sandboxed apps you allowed or refused to read your listening.")

    static let options = ListFormat.options
    static let usage = "broker-ctl readers [--json | --ids]"

    static let discussion = localized("""
        A Flatpak or snap app reads nothing of your listening until you allow it: it asks once (a
        notification with Allow and Don't allow), or you decide with 'broker-ctl allow APP' and
        'broker-ctl deny APP'; 'broker-ctl forget APP' drops the decision, so the app reads nothing
        and may ask again. Programs that are not sandboxed are not listed: they read as you do.
        DECIDED is when you decided; LAST READ when the app last read (noted every ten minutes).

        Examples:
          broker-ctl readers
          broker-ctl allow org.gnome.Journal
        """)

    typealias Format = ListFormat

    var format = Format.table

    init(format: Format = .table) {
        self.format = format
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        format = try ListFormat(parsing: arguments)
    }

    func run(in environment: RunEnvironment) async throws {
        let readers = try await environment.connectToBroker().readers().sorted { $0.appID < $1.appID }
        let output: String
        switch format {
        case .table: output = ReadersOutput.table(readers, timeZone: environment.timeZone, width: environment.outputWidth)
        case .json: output = ReadersOutput.jsonLines(readers)
        case .ids: output = readers.map { $0.appID + "\n" }.joined()
        }
        environment.standardOutput.write(output)
    }
}
