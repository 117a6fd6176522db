import FoundationEssentials
import MediaDonationClient
import Localization

/// `broker-ctl donate`: records a listen directly, for apps (and scripts) that do not speak MPRIS.
struct DonateCommand: Subcommand, Equatable {
    static let name = "donate"
    static let summary = localized("Record a listen directly, for an app that does not speak MPRIS.")

    enum Option {
        static let app = OptionSpec("app", value: "ID", help: localized("The app that played it, by its desktop-file id (required)."))
        static let title = OptionSpec("title", value: "T", help: localized("The track or episode title (required)."))
        static let artist = OptionSpec("artist", value: "A", repeatable: true, help: localized("An artist; repeat for several, in order."))
        static let album = OptionSpec("album", value: "B", help: localized("The album, or the show of an episode."))
        static let started = OptionSpec("started", value: "WHEN", help: localized("When the listen began (default: now)."))
        static let length = OptionSpec("length", value: "SECONDS", help: localized("The track's length in seconds, such as 215 or 215.5."))
        static let json = OptionSpec("json", help: localized("Print the new listen's id as {\"id\": N}."))
    }

    static let options = [Option.app, Option.title, Option.artist, Option.album, Option.started, Option.length, Option.json]

    static let usage =
        "broker-ctl donate --app ID --title T [--artist A]... [--album B] [--started WHEN] [--length SECONDS] [--json]"

    /// A day: longer is a typo, not a track.
    static let maximumLength: Double = 86_400

    static let discussion = localized("""
        Prints the id of the new listen. The broker applies the same rules as to any player: nothing
        is recorded while media recording is off (exit status 1) or when the app is opted out.

        WHEN is as for 'broker-ctl recent': 2026-11-29T14:05, 2h (that long ago), now, today.

        Examples:
          broker-ctl donate --app org.example.Radio --title "Teardrop" --artist "Massive Attack"
          broker-ctl donate --app shell --title "Duet" --artist A --artist B --started 10m --length 215
        """)

    var donation: Donation
    var printsJSON = false

    init(donation: Donation, printsJSON: Bool = false) {
        self.donation = donation
        self.printsJSON = printsJSON
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        guard let app = try arguments.appID(of: Option.app) else { throw UsageError(localized("missing '--app ID'")) }
        guard let title = arguments.value(of: Option.title) else { throw UsageError(localized("missing '--title T'")) }
        guard !title.isEmpty else { throw UsageError(localized("--title cannot be empty")) }
        let artists = arguments.values(of: Option.artist)
        if artists.contains(where: \.isEmpty) { throw UsageError(localized("--artist cannot be empty")) }
        let album = arguments.value(of: Option.album)
        if album?.isEmpty == true { throw UsageError(localized("--album cannot be empty")) }
        let started = try arguments.date(of: Option.started, context)
        if let started, started > context.now { throw UsageError(localized("--started cannot be in the future")) }
        var length: Duration?
        if let text = arguments.value(of: Option.length) {
            guard let seconds = Self.seconds(text), seconds > 0, seconds <= Self.maximumLength else {
                throw UsageError(localized("--length must be a number of seconds above 0 and at most 86400, not '{text}'", ["text": text]))
            }
            length = .milliseconds(Int64((seconds * 1000).rounded()))
        }
        donation = Donation(appID: app, title: title, artists: artists, album: album, started: started, length: length)
        printsJSON = arguments.contains(Option.json)
    }

    /// `215`, `215.5`: digits with at most one decimal point; no signs, exponents or `nan`.
    private static func seconds(_ text: String) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty,
            parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } })
        else { return nil }
        return Double(text)
    }

    func run(in environment: RunEnvironment) async throws {
        let id = try await environment.connectToBroker().donate(donation)
        environment.standardOutput.write(printsJSON ? #"{"id":\#(id)}"# + "\n" : "\(id)\n")
    }
}
