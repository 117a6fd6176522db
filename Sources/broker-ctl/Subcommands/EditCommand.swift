import MediaDonationClient
import Localization

/// `broker-ctl edit ID [--title T] [--artist A]... [--album B] [--from-now-on] | --undo`: correct a
/// kept listen, and later ones.
struct EditCommand: Subcommand, Equatable {
    static let name = "edit"
    static let summary = localized("Correct a kept listen's title, artists or album, or undo the correction.")

    enum Option {
        static let title = OptionSpec("title", value: "T", help: localized("The right title."))
        static let artist = OptionSpec("artist", value: "A", repeatable: true, help: localized("The right artist; repeat for several, in order."))
        static let album = OptionSpec("album", value: "B", help: localized("The right album; an empty one clears it."))
        static let fromNowOn = OptionSpec("from-now-on", help: localized("Correct this app's later listens of the same words too (see 'broker-ctl rules')."))
        static let undo = OptionSpec("undo", help: localized("Put back the words the listen was first recorded with."))
        static let json = OptionSpec("json", help: localized("Print the listen as it now reads, as one JSON object."))
    }

    static let options = [Option.title, Option.artist, Option.album, Option.fromNowOn, Option.undo, Option.json]
    static let arguments = [ArgumentSpec(name: "ID", isOptional: false, help: localized("The listen's id, as 'broker-ctl recent --json' prints it."))]
    static let usage = "broker-ctl edit ID ([--title T] [--artist A]... [--album B] [--from-now-on] | --undo) [--json]"

    static let discussion = localized("""
        Journaling apps, exports and 'broker-ctl recent' show the corrected words from now on; the
        words first recorded are kept, so --undo puts them back. With --from-now-on the
        correction becomes a rule: the same app's later listens told with the words this one was
        first recorded with are recorded corrected ('broker-ctl rules' lists and removes rules).

        Examples:
          broker-ctl edit 42 --title Teardrop --artist "Massive Attack"
          broker-ctl edit 42 --title Teardrop --from-now-on
          broker-ctl edit 42 --undo
        """)

    var id: Int64
    var title: String?
    var artists: [String]?
    var album: String??
    var fromNowOn = false
    var undoes = false
    var printsJSON = false

    init(id: Int64, title: String? = nil, artists: [String]? = nil, album: String?? = nil, fromNowOn: Bool = false,
         undoes: Bool = false, printsJSON: Bool = false) {
        self.id = id
        self.title = title
        self.artists = artists
        self.album = album
        self.fromNowOn = fromNowOn
        self.undoes = undoes
        self.printsJSON = printsJSON
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        // TRANSLATORS: ID is the argument's name in the usage line, kept as it is.
        guard let word = arguments.positionals.first else { throw UsageError(localized("missing ID")) }
        // TRANSLATORS: ID is the argument's name in the usage line, kept as it is; {word} is what was given instead.
        guard let id = Int64(word), id > 0 else { throw UsageError(localized("ID is a listen's id, a positive number, not '{word}'", ["word": String(word.prefix(64))])) }
        self.id = id
        title = arguments.value(of: Option.title)
        let artists = arguments.values(of: Option.artist)
        self.artists = artists.isEmpty ? nil : artists
        album = arguments.value(of: Option.album).map { $0.isEmpty ? nil : $0 }
        fromNowOn = arguments.contains(Option.fromNowOn)
        undoes = arguments.contains(Option.undo)
        printsJSON = arguments.contains(Option.json)
        let changes = title != nil || self.artists != nil || album != nil
        if undoes, changes || fromNowOn { throw UsageError(localized("--undo takes no --title, --artist, --album or --from-now-on")) }
        if !undoes, !changes { throw UsageError(localized("say what to correct: --title, --artist or --album (or --undo)")) }
        if let title, title.isEmpty { throw UsageError(localized("--title must not be empty")) }
    }

    func run(in environment: RunEnvironment) async throws {
        let broker = try environment.connectToBroker()
        let asset = undoes
            ? try await broker.undoEdit(id)
            : try await broker.editMedia(id, title: title, artists: artists, album: album, fromNowOn: fromNowOn)
        if printsJSON {
            environment.standardOutput.write(RecentOutput.jsonLines([asset]))
        } else {
            let reads = asset.summary ?? asset.title ?? "-"
            let line = undoes
                ? localized("Undone: listen {id} now reads {summary}.", ["id": String(id), "summary": reads])
                : localized("Corrected: listen {id} now reads {summary}.", ["id": String(id), "summary": reads])
            environment.standardOutput.write(line + "\n")
            if fromNowOn {
                environment.standardOutput.write(
                    localized("Later listens of the same words from this app are corrected too ('broker-ctl rules').") + "\n")
            }
        }
    }
}
