import Testing
@testable import BrokerCore
import CoreFixtures

/// What becomes of a listen's effects by the person's settings, without a bus or a store: Media
/// off or an opt-out mid-listen, settings changed while effects were held, twins.
@Suite("ListenRecorder: privacy and the twin rule decide what is stored")
struct ListenRecorderTests {
    let source = ListenRecorder.Source(uniqueName: ":1.5", appID: "org.example.Player", appName: "Player", appIcon: nil, isProxy: false)
    let listen = Listen(key: "1-1", metadata: track("Song"), started: at(0), ended: at(100), listened: 100 * second)
    var key: String { listen.storeKey(player: ":1.5") }
    static let off = PrivacySettings(mediaEnabled: false)
    static let optedOut = PrivacySettings(optOuts: ["org.example.Player": .user])

    func perform(_ recorder: inout ListenRecorder, _ effect: ListenEffect, then settings: [PrivacySettings]? = nil) -> ListenRecorder.StoreWork? {
        recorder.perform(effect, from: source, settingsThen: settings ?? [recorder.privacy], at: at(100)) { [] }
    }

    @Test("allowed: a listen is written while it plays and recorded when it finishes")
    func allowed() {
        var recorder = ListenRecorder(privacy: PrivacySettings())
        guard case .saveOpenListen(key, _, at(100))? = perform(&recorder, .opened(listen)) else {
            Issue.record("not written")
            return
        }
        guard case .record(let asset, key)? = perform(&recorder, .finished(listen)) else {
            Issue.record("not recorded")
            return
        }
        #expect(asset.title == "Song" && asset.appID == "org.example.Player" && asset.appName == "Player")
    }

    @Test("a listen that began while Media was off stays unrecorded to its end, though Media is on again")
    func beganWhileOff() {
        var recorder = ListenRecorder(privacy: Self.off)
        #expect(perform(&recorder, .opened(listen)) == .removeOpenListen(key: key))
        recorder.privacy = PrivacySettings()
        #expect(perform(&recorder, .checkpoint(listen)) == nil)
        #expect(perform(&recorder, .finished(listen)) == .removeOpenListen(key: key))
        // The next listen is recorded again.
        let next = Listen(key: "1-2", metadata: track("Next"), started: at(200), ended: at(300), listened: 100 * second)
        guard case .record? = perform(&recorder, .finished(next)) else {
            Issue.record("the next listen was not recorded")
            return
        }
    }

    @Test("an opt-out made mid-listen: the listen is not recorded")
    func optOutMidListen() {
        var recorder = ListenRecorder(privacy: PrivacySettings())
        guard case .saveOpenListen? = perform(&recorder, .opened(listen)) else {
            Issue.record("not written")
            return
        }
        recorder.privacy = Self.optedOut
        #expect(perform(&recorder, .finished(listen)) == .removeOpenListen(key: key))
    }

    @Test("settings in force when a held effect happened count, as do those in force now")
    func heldEffectsJudgedTwice() {
        var recorder = ListenRecorder(privacy: PrivacySettings())
        // Held while Media was off, performed with Media on: not recorded.
        #expect(perform(&recorder, .finished(listen), then: [Self.off]) == .removeOpenListen(key: key))
        // Held while allowed, the app opted out before it was performed: not recorded.
        recorder.privacy = Self.optedOut
        #expect(perform(&recorder, .finished(listen), then: [PrivacySettings()]) == .removeOpenListen(key: key))
    }

    @Test("a dropped listen clears what was suppressed for it")
    func droppedClearsSuppression() {
        var recorder = ListenRecorder(privacy: Self.off)
        #expect(perform(&recorder, .opened(listen)) == .removeOpenListen(key: key))
        #expect(perform(&recorder, .dropped(listen, .tooShort)) == .removeOpenListen(key: key))
        recorder.privacy = PrivacySettings()
        guard case .saveOpenListen? = perform(&recorder, .opened(listen)) else {
            Issue.record("a new listen under the same key stayed suppressed")
            return
        }
    }

    @Test("the same song finished on a second player over an overlapping time is a twin, not a second record")
    func twins() {
        var recorder = ListenRecorder(privacy: PrivacySettings())
        guard case .record? = perform(&recorder, .finished(listen)) else {
            Issue.record("the first was not recorded")
            return
        }
        let mirror = ListenRecorder.Source(uniqueName: ":1.9", appID: "kdeconnect", appName: nil, appIcon: nil, isProxy: true)
        let twin = Listen(key: "9-1", metadata: track("Song"), started: at(1), ended: at(100), listened: 99 * second)
        let work = recorder.perform(.finished(twin), from: mirror, settingsThen: [recorder.privacy], at: at(100)) { [] }
        #expect(work == .removeTwin(key: twin.storeKey(player: ":1.9")))
    }
}
