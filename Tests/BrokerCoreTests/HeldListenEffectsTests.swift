import Testing
@testable import BrokerCore
import CoreFixtures

/// Issue 16 §1: what a player's listens ask of the store while its app is being found is held as
/// coalesced data — one entry per listen that still matters, never one per signal — and every
/// privacy decision made meanwhile still counts.
@Suite struct HeldListenEffectsTests {
    func listen(_ key: String, heard seconds: Double = 0) -> Listen {
        Listen(key: key, metadata: track(key), started: at(0), ended: at(seconds), listened: Microseconds(seconds * 1e6))
    }

    let on = PrivacySettings()
    let off = PrivacySettings(mediaEnabled: false)

    @Test func laterWritesOfOneListenReplaceTheEarlierOne() {
        var held = HeldListenEffects()
        held.hold(.opened(listen("a", heard: 5)), settings: [on])
        held.hold(.checkpoint(listen("a", heard: 9)), settings: [on])
        held.hold(.checkpoint(listen("a", heard: 12)), settings: [on])
        #expect(held.items.map(\.effect) == [.checkpoint(listen("a", heard: 12))])
        #expect(held.coalesced == 2)
    }

    @Test func aListenDroppedWhileHeldLeavesNothingToDo() {
        var held = HeldListenEffects()
        held.hold(.opened(listen("a", heard: 5)), settings: [on])
        held.hold(.dropped(listen("a", heard: 6), .tooShort), settings: [on])
        #expect(held.isEmpty)
    }

    @Test func aFinishedListenReplacesItsHeldWriteAndIsNeverDropped() {
        var held = HeldListenEffects()
        for index in 0..<300 {
            held.hold(.opened(listen("\(index)", heard: 5)), settings: [on])
            held.hold(.finished(listen("\(index)", heard: 40)), settings: [on])
        }
        #expect(held.items.count == 300)
        #expect(held.finishedCount == 300)
        #expect(held.items.allSatisfy { $0.effect.isFinished })
        #expect(held.items.map(\.effect.listen.key) == (0..<300).map { "\($0)" })
    }

    @Test func everySettingInForceWhileHeldIsKeptForTheFinalDecision() {
        var held = HeldListenEffects()
        held.hold(.opened(listen("a", heard: 5)), settings: [off])
        held.hold(.checkpoint(listen("a", heard: 9)), settings: [on])
        held.hold(.finished(listen("a", heard: 40)), settings: [on])
        #expect(held.items.count == 1)
        // Media was off when the listen was first written: it must stay unrecorded.
        #expect(held.items.first?.settings == [off, on])
    }

    @Test func takingEverythingEmptiesTheListAndItsCounts() {
        var held = HeldListenEffects()
        held.hold(.opened(listen("a", heard: 5)), settings: [on])
        held.hold(.checkpoint(listen("a", heard: 6)), settings: [on])
        held.hold(.finished(listen("b", heard: 40)), settings: [on])
        #expect(held.takeAll().count == 2)
        #expect(held.isEmpty && held.coalesced == 0 && held.finishedCount == 0)
    }
}
