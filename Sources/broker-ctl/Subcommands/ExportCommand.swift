import FoundationEssentials
import MediaDonationClient
import Localization

/// `broker-ctl export`: the whole history (or a range or app of it) to standard output.
struct ExportCommand: Subcommand, Equatable {
    static let name = "export"
    static let summary = localized("Write your listening history to standard output, as JSON or for ListenBrainz.")

    enum Option {
        static let since = OptionSpec("since", value: "WHEN", help: localized("Only listens that began at or after WHEN."))
        static let until = OptionSpec("until", value: "WHEN", help: localized("Only listens that began before WHEN."))
        static let app = OptionSpec("app", value: "ID", help: localized("Only listens in this app."))
        static let format = OptionSpec("format", value: "json|listenbrainz", help: localized("The document to write (default json)."))
    }

    static let options = [Option.since, Option.until, Option.app, Option.format]

    /// The contract's largest page.
    static let pageSize = 1000

    static let discussion = localized("""
        json writes one JSON array of listens, newest first, with the keys of 'recent --json'.
        listenbrainz writes ListenBrainz's import document ({"listen_type": "import", "payload": [...]}):
        listened_at is the start in Unix seconds, and additional_info carries duration_ms,
        media_player, submission_client and artist_names. Listens ListenBrainz refuses (no artist or
        title, or before 2002-10-01) are left out and counted on standard error. ListenBrainz takes
        at most 1000 listens per request, so split the payload when submitting it through the API.

        The history is read a page at a time and written as it comes, so any size works. If the
        broker fails part-way, the document is left unfinished and the exit status is 1.

        Examples:
          broker-ctl export > history.json
          broker-ctl export --since 2026-01-01 --format listenbrainz > listens.json
        """)

    var since: Date?
    var until: Date?
    var appID: String?
    var format = ExportFormat.json

    init(since: Date? = nil, until: Date? = nil, appID: String? = nil, format: ExportFormat = .json) {
        self.since = since
        self.until = until
        self.appID = appID
        self.format = format
    }

    init(parsing arguments: ParsedArguments, context: ParseContext) throws(UsageError) {
        (since, until) = try arguments.range(since: Option.since, until: Option.until, context)
        appID = try arguments.appID(of: Option.app)
        if let text = arguments.value(of: Option.format) {
            guard let format = ExportFormat(rawValue: text) else {
                throw UsageError(localized("--format must be json or listenbrainz, not '{text}'", ["text": text]))
            }
            self.format = format
        }
    }

    func run(in environment: RunEnvironment) async throws {
        let broker = try environment.connectToBroker()
        var writer = ExportWriter(format: format)
        // The first page is asked for before anything is written, so a broker that cannot be
        // reached leaves standard output empty rather than holding half a document.
        var page = try await nextPage(of: broker, after: nil)
        environment.standardOutput.write(writer.opening)
        while let last = page.last {
            environment.standardOutput.write(writer.render(page))
            let following = try await nextPage(of: broker, after: last.id)
            if following.last?.id == last.id {
                throw CommandFailure(localized("the broker answered the same page twice; the export is incomplete"))
            }
            page = following
        }
        environment.standardOutput.write(writer.closing)
        if let report = writer.skippedReport {
            environment.standardError.write(report)
        }
    }

    private func nextPage(of broker: any BrokerService, after cursor: Int64?) async throws(MediaBrokerError) -> [GenericMedia] {
        try await broker.recentMedia(since: since, until: until, limit: Self.pageSize, appID: appID, before: cursor)
    }
}
