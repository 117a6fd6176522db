/// A moment's title, as a person would write it, and the facts it was made from, so an app can
/// write its own in its own language. The first rule that holds names the moment:
/// 1. **show**: podcasts make up most of it — "*Show*: *Episode*", or "*Show* · 3 episodes";
/// 2. **album**: one album makes up most of it, over two listens or more — "*Album* — *Artist*";
/// 3. **artist**: one artist (the first credited) makes up most of it — "*Artist*";
/// 4. **mixed**: "Evening listening · 9 tracks by 5 artists".
///
/// "Most" is more than half of the moment's listened time.
package struct MomentTitle: Equatable, Sendable {
    package enum Rule: String, Sendable { case album, artist, show, mixed }

    package let rule: Rule
    package let text: String
    /// The album (album rule), the show (show rule).
    package let album: String?
    /// The artist (album and artist rules).
    package let artist: String?
    /// The episode (show rule, one episode).
    package let episode: String?
    let trackCount: Int
    /// The different podcast episodes in it (the show rule counts them in its title).
    package let episodeCount: Int
    package let artistCount: Int
    package let partOfDay: PartOfDay

    init(_ assets: [MediaAsset], heard: Heard, partOfDay: PartOfDay) {
        trackCount = assets.count
        artistCount = Set(assets.compactMap { $0.artists.first }).count
        self.partOfDay = partOfDay
        let podcasts = assets.filter { $0.kind == .podcast }
        episodeCount = Set(podcasts.map { $0.title }).count
        if Heard(podcasts).total > heard.total / 2,
           let show = Heard(podcasts).ranked({ [$0.album ?? $0.artists.first ?? $0.title] }).first {
            let episodes = Set(podcasts.map { $0.title })
            rule = .show
            album = show
            artist = nil
            episode = episodes.count == 1 ? episodes.first : nil
            text = episode.map { "\(show): \($0)" } ?? "\(show) · \(episodes.count) episodes"
        } else if let (name, listens) = heard.most({ $0.album }), listens.count >= 2 {
            rule = .album
            album = name
            artist = Heard(listens).ranked { $0.artists.first.map { [$0] } ?? [] }.first
            episode = nil
            text = artist.map { "\(name) — \($0)" } ?? name
        } else if let (name, _) = heard.most({ $0.artists.first }) {
            rule = .artist
            album = nil
            artist = name
            episode = nil
            text = name
        } else {
            rule = .mixed
            album = nil
            artist = nil
            episode = nil
            let tracks = trackCount == 1 ? "1 track" : "\(trackCount) tracks"
            let by = artistCount == 0 ? "" : artistCount == 1 ? " by 1 artist" : " by \(artistCount) artists"
            text = "\(partOfDay.listeningTitle) · \(tracks)\(by)"
        }
    }
}
