import FoundationEssentials
import MediaDonationClient
@testable import MediaPicker
import PickerChannel
import Testing

/// The picker's state without a window (issue 21): what opens, what is ticked, what Share sends.
@Suite struct PickSelectionTests {
    static func listen(_ id: Int64, _ title: String) -> GenericMedia {
        GenericMedia(id: id, title: title, date: Date(timeIntervalSince1970: Double(id) * 300))
    }

    static let album = [listen(1, "Angel"), listen(2, "Risingson"), listen(3, "Teardrop")]
    static let moment = Moment(
        id: "1", title: "Mezzanine — Massive Attack", summary: nil, started: Date(timeIntervalSince1970: 300),
        ended: Date(timeIntervalSince1970: 1200), listened: .seconds(600), count: 3, assetIDs: [1, 2, 3], artists: [],
        album: "Mezzanine", appIDs: [], appIcon: nil, kind: nil, titleRule: .album, artist: nil, show: nil, episode: nil,
        artistCount: 1, partOfDay: nil)
    static let offer = PickerContent.Offer(moment: moment, assets: album)

    @Test("nothing is shared before something is opened")
    func nothingOpen() {
        let selection = PickSelection(multiple: true)
        #expect(!selection.canShare)
        #expect(selection.answer == .shared(assetIDs: [], momentID: nil))
    }

    @Test("a moment opens with every listen ticked; unticking one leaves the rest, in order, with the moment")
    func untickOne() {
        var selection = PickSelection(multiple: true)
        selection.open(Self.offer)
        #expect(selection.ticked == [1, 2, 3])
        selection.set(2, ticked: false)
        #expect(selection.answer == .shared(assetIDs: [1, 3], momentID: "1"))
        selection.set(2, ticked: true)
        #expect(selection.answer == .shared(assetIDs: [1, 2, 3], momentID: "1"))
    }

    @Test("unticking everything leaves nothing to share")
    func untickAll() {
        var selection = PickSelection(multiple: true)
        selection.open(Self.offer)
        for listen in Self.album { selection.set(listen.id, ticked: false) }
        #expect(!selection.canShare)
    }

    @Test("a single listen opens alone, without a moment")
    func single() {
        var selection = PickSelection(multiple: true)
        selection.open(Self.album[1])
        #expect(selection.answer == .shared(assetIDs: [2], momentID: nil))
    }

    @Test("when the app asked for one listen, one is ticked at a time")
    func one() {
        var selection = PickSelection(multiple: false)
        selection.open(Self.offer)
        #expect(selection.ticked == [1])
        selection.set(3, ticked: true)
        #expect(selection.answer == .shared(assetIDs: [3], momentID: "1"))
    }

    @Test("a listen not offered cannot be ticked")
    func notOffered() {
        var selection = PickSelection(multiple: true)
        selection.open(Self.album[0])
        selection.set(3, ticked: true)
        #expect(selection.answer == .shared(assetIDs: [1], momentID: nil))
    }

    @Test("Recommended puts the most listened moment first, and each gets its listens")
    func recommendedOrder() {
        var short = Self.moment
        short.id = "9"
        short.listened = .seconds(60)
        short.assetIDs = [3]
        let content = PickerContent(moments: [short, Self.moment], assets: Self.album, recent: Self.album)
        #expect(content.recommended.map(\.moment.id) == ["1", "9"])
        #expect(content.recommended.first?.assets.map(\.id) == [1, 2, 3])
        #expect(content.recommended.last?.assets.map(\.id) == [3])
    }

    @Test("the first-use mark lives in the configuration folder")
    func introductionMarker() {
        #expect(Introduction.markerPath(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/media-broker/picker-introduced")
        #expect(Introduction.markerPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/media-broker/picker-introduced")
        #expect(Introduction.markerPath(environment: [:]) == nil)
    }
}
