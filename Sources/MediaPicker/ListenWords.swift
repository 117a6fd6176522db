import MediaDonationClient

/// A kept listen's words as the correction dialog's fields hold them — the artists as one line,
/// separated by commas — and what the person changed. Only a changed field is sent to the broker,
/// so a correction never rewrites words the person left alone.
struct ListenWords: Equatable, Sendable {
    var title: String
    var artists: String
    var album: String

    init(title: String, artists: String, album: String) {
        self.title = title
        self.artists = artists
        self.album = album
    }

    /// The fields filled with `listen`'s words.
    init(of listen: GenericMedia) {
        self.init(title: listen.title ?? "", artists: Self.text(of: listen.artists), album: listen.album ?? "")
    }

    /// The artists in a field: separated by commas, each without the spaces around it; an empty
    /// one (two commas in a row, a trailing comma) is no artist.
    static func artists(in text: String) -> [String] {
        text.split(separator: ",").map { trimmed(String($0)) }.filter { !$0.isEmpty }
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
        let artists = Self.artists(in: edited.artists)
        if artists != Self.artists(in: self.artists) { changes.artists = artists }
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
