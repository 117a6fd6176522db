import ClientMomentText
import Foundation
import MediaDonationClient
import Testing

/// A moment's title in the person's language is built from the facts the broker sends with it,
/// never from numbers in its English `title`.
@Suite struct MomentTextTests {
    static func show(title: String, count: Int, episodeCount: Int?, episode: String? = nil) -> Moment {
        Moment(id: "7", title: title, started: Date(timeIntervalSince1970: 1_764_000_000),
               ended: Date(timeIntervalSince1970: 1_764_003_600), listened: .seconds(3600), count: count,
               assetIDs: Array(1...Int64(count)), titleRule: .show, show: "The Sea Show", episode: episode,
               episodeCount: episodeCount)
    }

    @Test("a show's episodes are counted from episode_count, whatever the English title says")
    func episodesFromTheirKey() {
        #expect(MomentText.title(of: Self.show(title: "The Sea Show · 7 episodes", count: 5, episodeCount: 3)) == "The Sea Show · 3 episodes")
    }

    @Test("from a broker older than version 10, with no episode_count, each listen counts as an episode")
    func olderBroker() {
        #expect(MomentText.title(of: Self.show(title: "The Sea Show · 2 episodes", count: 4, episodeCount: nil)) == "The Sea Show · 4 episodes")
    }

    @Test("one episode is named, not counted")
    func oneEpisode() {
        #expect(MomentText.title(of: Self.show(title: "x", count: 2, episodeCount: 1, episode: "Tides")) == "The Sea Show: Tides")
    }
}
