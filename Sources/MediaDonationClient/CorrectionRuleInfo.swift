public import FoundationEssentials

/// A correction the person keeps applying from now on (interface version 8): a later listen of
/// `appID` told as `title` by `artists` is recorded with the corrected words.
public struct CorrectionRuleInfo: Sendable, Equatable {
    public var id: Int64
    public var appID: String
    /// The words it matches, as the app tells them.
    public var title: String
    public var artists: [String]
    /// The words it sets; `nil` leaves the told one. `correctedAlbum` of `.some(nil)` clears the album.
    public var correctedTitle: String?
    public var correctedArtists: [String]?
    public var correctedAlbum: String??
    /// When the person made it.
    public var created: Date

    public init(id: Int64, appID: String, title: String, artists: [String], correctedTitle: String? = nil,
                correctedArtists: [String]? = nil, correctedAlbum: String?? = nil, created: Date) {
        self.id = id
        self.appID = appID
        self.title = title
        self.artists = artists
        self.correctedTitle = correctedTitle
        self.correctedArtists = correctedArtists
        self.correctedAlbum = correctedAlbum
        self.created = created
    }
}
