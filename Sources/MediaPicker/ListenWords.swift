import MediaDonationClient

/// A kept listen's words as the correction dialog's fields hold them — the artists as one line,
/// separated by commas — and what the person changed. Only a changed field is sent to the broker,
/// so a correction never rewrites words the person left alone.
struct ListenWords: Equatable, Sendable {
    var title: String
    var artists: String
    var album: String
    /// The listen's artists as it was kept: a name of theirs that holds a comma ("Earth, Wind &
    /// Fire") is still one artist when the line is read back.
    var keptArtists: [String]

    init(title: String, artists: String, album: String, keptArtists: [String] = []) {
        self.title = title
        self.artists = artists
        self.album = album
        self.keptArtists = keptArtists
    }

    /// The fields filled with `listen`'s words.
    init(of listen: GenericMedia) {
        self.init(title: listen.title ?? "", artists: Self.text(of: listen.artists), album: listen.album ?? "",
                  keptArtists: listen.artists)
    }

    /// The artists in a field: separated by commas, each without the spaces around it; an empty
    /// one (two commas in a row, a trailing comma) is no artist. A name of `kept` that holds a
    /// comma, written whole between two separators, is one artist, as it was.
    static func artists(in text: String, kept: [String] = []) -> [String] {
        // The longest first: "Earth, Wind & Fire" before an "Earth, Wind" also kept.
        let whole = kept.filter { $0.contains(",") }.sorted { $0.count > $1.count }
        var artists: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            rest = rest.drop(while: \.isWhitespace)
            if let name = whole.first(where: { rest.hasPrefix($0) && endsAnArtist(rest.dropFirst($0.count)) }) {
                artists.append(name)
                rest = rest.dropFirst(name.count).drop(while: \.isWhitespace).dropFirst()
                continue
            }
            let piece = rest.prefix { $0 != "," }
            rest = rest.dropFirst(piece.count).dropFirst()
            let artist = trimmed(String(piece))
            if !artist.isEmpty { artists.append(artist) }
        }
        return artists
    }

    /// Whether `rest`, what follows a name in the line, starts the next artist or ends the line.
    private static func endsAnArtist(_ rest: Substring) -> Bool {
        let next = rest.drop(while: \.isWhitespace)
        return next.isEmpty || next.first == ","
    }

    /// The artists as the field shows them.
    static func text(of artists: [String]) -> String { artists.joined(separator: ", ") }

    /// What the person changed, field by field; `nil` where a field says what it said before.
    struct Changes: Equatable, Sendable {
        var title: String?
        var artists: [String]?
        /// `.some(nil)` clears the album.
        var album: String??

        var isEmpty: Bool { title == nil && artists == nil && album == nil }
    }

    /// Why the fields cannot be saved.
    enum Refusal: Error, Equatable, Sendable {
        /// A listen keeps a title: the broker refuses an empty one too.
        case emptyTitle
    }

    /// What `edited` changes from these words. Spaces around a field's text are no change;
    /// neither is writing the same artists with other spacing.
    func changes(to edited: ListenWords) throws(Refusal) -> Changes {
        let title = Self.trimmed(edited.title)
        guard !title.isEmpty else { throw .emptyTitle }
        var changes = Changes()
        if title != Self.trimmed(self.title) { changes.title = title }
        let artists = Self.artists(in: edited.artists, kept: keptArtists)
        if artists != Self.artists(in: self.artists, kept: keptArtists) { changes.artists = artists }
        let album = Self.trimmed(edited.album)
        if album != Self.trimmed(self.album) { changes.album = .some(album.isEmpty ? nil : album) }
        return changes
    }

    /// What a Save sends. With `fromNowOn`, fields left as they read still make a rule for later
    /// plays — the title is sent as it reads — since the person asks for a listen corrected
    /// before to be a rule too; without it, nothing changed sends nothing.
    func changes(to edited: ListenWords, fromNowOn: Bool) throws(Refusal) -> Changes {
        var changes = try changes(to: edited)
        if fromNowOn, changes.isEmpty { changes.title = Self.trimmed(edited.title) }
        return changes
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
