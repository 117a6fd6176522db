import FoundationEssentials
import MediaDonationClient
@testable import MediaPicker
import Testing

/// The correction dialog's fields without a window (issue 34): how the artists line reads, and
/// which fields a Save sends.
@Suite struct ListenWordsTests {
    static let teardrop = ListenWords(of: GenericMedia(
        id: 3, title: "Teardrop", artists: ["Massive Attack", "Elizabeth Fraser"], album: "Mezzanine", date: Date()))

    @Test("the fields are filled with the listen's words, the artists on one line")
    func filled() {
        #expect(Self.teardrop == ListenWords(title: "Teardrop", artists: "Massive Attack, Elizabeth Fraser", album: "Mezzanine",
                                             keptArtists: ["Massive Attack", "Elizabeth Fraser"]))
        #expect(ListenWords(of: GenericMedia(id: 1, date: Date())) == ListenWords(title: "", artists: "", album: ""))
    }

    @Test("artists are separated by commas, without the spaces around them; empty ones are none")
    func artistsLine() {
        #expect(ListenWords.artists(in: " Massive Attack ,Horace Andy,, ") == ["Massive Attack", "Horace Andy"])
        #expect(ListenWords.artists(in: "  ").isEmpty)
        #expect(ListenWords.artists(in: "Björk") == ["Björk"])
    }

    static let september = ListenWords(of: GenericMedia(id: 4, title: "September", artists: ["Earth, Wind & Fire"], date: Date()))

    @Test("a kept artist whose name holds a comma stays one artist when the line is read back, before, between or after others")
    func keptNameWithAComma() throws {
        #expect(Self.september.artists == "Earth, Wind & Fire")
        #expect(try Self.september.changes(to: Self.september).isEmpty)
        var edited = Self.september
        edited.artists = "Earth, Wind & Fire, The Emotions"
        #expect(try Self.september.changes(to: edited) == ListenWords.Changes(artists: ["Earth, Wind & Fire", "The Emotions"]))
        edited.artists = "The Emotions ,  Earth, Wind & Fire ,Maurice White"
        #expect(try Self.september.changes(to: edited)
            == ListenWords.Changes(artists: ["The Emotions", "Earth, Wind & Fire", "Maurice White"]))
        #expect(ListenWords.artists(in: "Earth, Wind & Fire", kept: ["Earth, Wind", "Earth, Wind & Fire"]) == ["Earth, Wind & Fire"],
                "the longest kept name is read first")
    }

    @Test("words the person wrote are separated at every comma: only a kept name written whole is one artist")
    func newWordsSplitAtCommas() throws {
        var edited = Self.september
        edited.artists = "Earth, Wind & Fire Orchestra"
        #expect(try Self.september.changes(to: edited) == ListenWords.Changes(artists: ["Earth", "Wind & Fire Orchestra"]))
        edited.artists = "Earth, Wind"
        #expect(try Self.september.changes(to: edited) == ListenWords.Changes(artists: ["Earth", "Wind"]))
    }

    @Test("only the fields that changed are sent")
    func onlyChanges() throws {
        var edited = Self.teardrop
        edited.title = "Teardrop (Live)"
        #expect(try Self.teardrop.changes(to: edited) == ListenWords.Changes(title: "Teardrop (Live)"))

        edited = Self.teardrop
        edited.artists = "Massive Attack"
        #expect(try Self.teardrop.changes(to: edited) == ListenWords.Changes(artists: ["Massive Attack"]))

        edited = Self.teardrop
        edited.album = "Mezzanine (Deluxe)"
        #expect(try Self.teardrop.changes(to: edited) == ListenWords.Changes(album: .some("Mezzanine (Deluxe)")))
    }

    @Test("spaces around a field and other spacing between artists change nothing")
    func spacingIsNoChange() throws {
        let edited = ListenWords(title: " Teardrop ", artists: "Massive Attack,Elizabeth Fraser", album: "Mezzanine  ")
        #expect(try Self.teardrop.changes(to: edited).isEmpty)
    }

    @Test("an emptied album clears it; emptied artists clear them")
    func clearing() throws {
        let edited = ListenWords(title: "Teardrop", artists: " ", album: "")
        #expect(try Self.teardrop.changes(to: edited) == ListenWords.Changes(artists: [], album: .some(nil)))
        // A listen with no album gets none from an empty field.
        let noAlbum = ListenWords(title: "Teardrop", artists: "", album: "")
        #expect(try noAlbum.changes(to: noAlbum).isEmpty)
    }

    @Test("for later plays too, words left as they read send the title, so the listen's words become a rule")
    func fromNowOn() throws {
        #expect(try Self.teardrop.changes(to: Self.teardrop, fromNowOn: true) == ListenWords.Changes(title: "Teardrop"))
        #expect(try Self.teardrop.changes(to: Self.teardrop, fromNowOn: false).isEmpty)
        var edited = Self.teardrop
        edited.album = ""
        #expect(try Self.teardrop.changes(to: edited, fromNowOn: true) == ListenWords.Changes(album: .some(nil)))
        edited.title = ""
        #expect(throws: ListenWords.Refusal.emptyTitle) { try Self.teardrop.changes(to: edited, fromNowOn: true) }
    }

    @Test("an empty title is refused before anything is sent")
    func emptyTitle() {
        var edited = Self.teardrop
        edited.title = "   "
        #expect(throws: ListenWords.Refusal.emptyTitle) { try Self.teardrop.changes(to: edited) }
    }
}

/// What the settings window says when a correction fails.
@Suite struct CorrectionFailureTests {
    @Test("restoring a listen never corrected is said plainly, not as something gone wrong")
    func nothingToRestore() {
        let refusal = MediaBrokerError.invalidArguments("asset 3 holds no correction to undo")
        let said = SettingsWindow.correctionFailure(refusal, title: "Teardrop", restoring: true)
        #expect(said.heading == "Nothing to Restore")
        #expect(said.body == "“Teardrop” has not been corrected: it already reads as it was recorded.")
    }

    @Test("any other failure says what could not be done and why")
    func otherFailures() {
        let saving = SettingsWindow.correctionFailure(.brokerNotRunning, title: "Teardrop", restoring: false)
        #expect(saving.heading == "Something Went Wrong")
        #expect(saving.body.hasPrefix("“Teardrop” could not be corrected: the media broker is not running"))
        let unknown = SettingsWindow.correctionFailure(.invalidArguments("the history holds no asset 9"), title: "Gone", restoring: true)
        #expect(unknown.body == "“Gone” could not be restored: invalid arguments: the history holds no asset 9")
    }
}
