import FoundationEssentials
import Localization
import MediaDonationClient

/// The documents `broker-ctl export` writes, a page at a time: an opening, the items (each page
/// rendered on its own and written at once, so the whole history is never held), a closing.
enum ExportFormat: String, Sendable, CaseIterable {
    /// One JSON array of assets with the keys of `recent --json`.
    case json
    /// ListenBrainz's import document: `{"listen_type":"import","payload":[listen, …]}`.
    case listenbrainz
}

/// Renders pages of assets into one document, remembering what it left out.
struct ExportWriter {
    let format: ExportFormat
    /// How many items have been written so far.
    private(set) var written = 0
    /// Assets ListenBrainz would refuse, left out of a `listenbrainz` export.
    private(set) var skippedWithoutArtistOrTitle = 0
    private(set) var skippedTooEarly = 0

    init(format: ExportFormat) {
        self.format = format
    }

    var opening: String {
        switch format {
        case .json: "["
        case .listenbrainz: #"{"listen_type":"import","payload":["#
        }
    }

    /// The text that closes the array (and the object); each item sits on a line of its own.
    var closing: String {
        switch format {
        case .json: "\n]\n"
        case .listenbrainz: "\n]}\n"
        }
    }

    /// The page's items, each on a new line and separated from the previous by a comma.
    mutating func render(_ page: [GenericMedia]) -> String {
        var text = ""
        for item in page {
            let value: JSONValue
            switch format {
            case .json:
                value = RecentOutput.json(for: item)
            case .listenbrainz:
                switch ListenBrainz.listen(for: item) {
                case .success(let listen): value = listen
                case .failure(.missingArtistOrTitle):
                    skippedWithoutArtistOrTitle += 1
                    continue
                case .failure(.beforeListenBrainzMinimum):
                    skippedTooEarly += 1
                    continue
                }
            }
            text += (written == 0 ? "\n" : ",\n") + value.serialized
            written += 1
        }
        return text
    }

    /// What to say on standard error about left-out assets, or nil when none were.
    var skippedReport: String? {
        var parts: [String] = []
        if skippedWithoutArtistOrTitle > 0 {
            // TRANSLATORS: what an export left out, put into "left out {listens}, which ListenBrainz does not accept".
            parts.append(localizedPlural("{count} listen without an artist or a title", "{count} listens without an artist or a title",
                                         count: skippedWithoutArtistOrTitle))
        }
        if skippedTooEarly > 0 {
            // TRANSLATORS: what an export left out, put into "left out {listens}, which ListenBrainz does not accept".
            parts.append(localizedPlural("{count} listen from before 2002-10-01", "{count} listens from before 2002-10-01", count: skippedTooEarly))
        }
        guard let first = parts.first else { return nil }
        // TRANSLATORS: the two kinds of listens an export left out, each already counted.
        let listens = parts.count == 1 ? first : localized("{first} and {second}", ["first": first, "second": parts[1]])
        let message = localized("left out {listens}, which ListenBrainz does not accept", ["listens": listens])
        return localized("broker-ctl: {error}", ["error": message]) + "\n"
    }
}

/// ListenBrainz's listen format (https://listenbrainz.readthedocs.io/en/latest/users/json.html).
enum ListenBrainz {
    enum Refusal: Error, Equatable {
        /// `artist_name` and `track_name` are required, non-empty strings.
        case missingArtistOrTitle
        /// ListenBrainz refuses `listened_at` before its minimum, 2002-10-01 00:00 UTC.
        case beforeListenBrainzMinimum
    }

    /// 2002-10-01T00:00:00Z, the earliest `listened_at` ListenBrainz accepts.
    static let minimumListenedAt: Int64 = 1_033_430_400
    static let submissionClient = "MediaBroker"

    /// One listen: `listened_at` (whole Unix seconds of the start), `track_metadata` with the
    /// artists joined as `artist_name`, the title, the album as `release_name` when known, and
    /// `additional_info`: `duration_ms` (the track's length, when known), `media_player` (the app's
    /// name, else its id), `submission_client`, `submission_client_version` and `artist_names`.
    static func listen(for item: GenericMedia) -> Result<JSONValue, Refusal> {
        let artists = item.artists.compactMap(text)
        guard let title = text(item.title), let artist = text(item.artist) ?? text(artists.joined(separator: ", ")) else {
            return .failure(.missingArtistOrTitle)
        }
        let listenedAt = Int64(item.date.timeIntervalSince1970.rounded(.down))
        guard listenedAt >= minimumListenedAt else { return .failure(.beforeListenBrainzMinimum) }

        var info = JSONObjectBuilder()
        if let length = item.length, length > .zero {
            info.add("duration_ms", RecentOutput.microseconds(length) / 1000)
        }
        info.add("media_player", text(item.appName) ?? text(item.appID))
        info.add("submission_client", submissionClient)
        info.add("submission_client_version", BrokerCtlVersion.current)
        info.add("artist_names", JSONValue.array((artists.isEmpty ? [artist] : artists).map(JSONValue.string)))

        var metadata = JSONObjectBuilder()
        metadata.add("artist_name", artist)
        metadata.add("track_name", title)
        metadata.add("release_name", text(item.album))
        metadata.add("additional_info", info.object)

        var listen = JSONObjectBuilder()
        listen.add("listened_at", listenedAt)
        listen.add("track_metadata", metadata.object)
        return .success(listen.object)
    }

    /// The text without NUL characters (which ListenBrainz refuses), or nil when nothing but
    /// white space is left.
    private static func text(_ value: String?) -> String? {
        guard let value else { return nil }
        var kept = String.UnicodeScalarView()
        for scalar in value.unicodeScalars where scalar != "\u{0}" { kept.append(scalar) }
        let cleaned = String(kept)
        return cleaned.allSatisfy(\.isWhitespace) ? nil : cleaned
    }
}
