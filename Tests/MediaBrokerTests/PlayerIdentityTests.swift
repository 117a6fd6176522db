import SwiftDBus
import Testing
@testable import MediaBroker
@testable import BrokerCore

/// Who a player is, without a bus (issue 17 §1): resolved only from an answer of its root
/// interface, asked again while it has not exported its object, given up on in the end.
@Suite("PlayerIdentity: from a player's answer to its app")
struct PlayerIdentityTests {
    static let names: Set<String> = ["org.mpris.MediaPlayer2.firefox.instance_1_77"]

    @Test("before any answer the app id is the bus name's stem; a DesktopEntry answered comes first, the resolved app before both")
    func appIDFallbacks() {
        var identity = PlayerIdentity()
        #expect(identity.appID(busNames: Self.names) == "firefox")
        #expect(identity.appID(busNames: []) == "unknown")
        identity.answered(["Identity": .string("Firefox"), "DesktopEntry": .string("firefox-esr")])
        #expect(identity.appID(busNames: Self.names) == "firefox-esr")
        #expect(identity.appName == "Firefox")
        _ = identity.resolved(AppIdentity(appID: "org.mozilla.firefox", appName: "Firefox Web Browser", appIcon: nil, source: .flatpak))
        #expect(identity.appID(busNames: Self.names) == "org.mozilla.firefox")
        #expect(identity.appName == "Firefox Web Browser")
    }

    @Test("a DesktopEntry that is too long or holds a slash is no desktop entry; text is bounded")
    func answersAreBounded() {
        var identity = PlayerIdentity()
        identity.answered(["DesktopEntry": .string("../../etc/passwd"), "Identity": .string(String(repeating: "x", count: 5000))])
        #expect(identity.desktopEntry == nil)
        #expect((identity.identity?.utf8.count ?? 0) <= TrackMetadata.Limits.maximumTextBytes)
        identity.answered(["DesktopEntry": .string(String(repeating: "a", count: BrokerContract.maximumAppIDLength + 1))])
        #expect(identity.desktopEntry == nil)
        identity.answered(["DesktopEntry": .int32(7)])
        #expect(identity.desktopEntry == nil && identity.isAnswered)
    }

    @Test("a failed read is asked again, then given up on: the app is then found without an answer")
    func failuresThenGivingUp() {
        var identity = PlayerIdentity()
        #expect(identity.failed(at: 0) == .askAgain(after: ReadRetry.firstDelay))
        #expect(identity.failed(at: 50_000) == .askAgain(after: 2 * ReadRetry.firstDelay))
        #expect(identity.failed(at: ReadRetry.patience) == .resolveWithout)
        _ = identity.resolved(AppIdentity(appID: "firefox", appName: nil, appIcon: nil, source: .busName))
        #expect(identity.failed(at: ReadRetry.patience + 1) == .nothing, "an app found without an answer is not looked for again")
    }

    @Test("once it answered, a later failure changes nothing")
    func answeredThenFailed() {
        var identity = PlayerIdentity()
        identity.answered(["DesktopEntry": .string("firefox-esr")])
        #expect(identity.failed(at: 0) == .nothing)
        #expect(identity.desktopEntry == "firefox-esr")
    }

    @Test("the clues carry the first bus name, the answer and the process id once known")
    func clues() {
        var identity = PlayerIdentity()
        identity.answered(["Identity": .string("Firefox"), "DesktopEntry": .string("firefox-esr")])
        identity.process = .some(FakeProcess.connected(4242))
        let clues = identity.clues(busNames: Self.names.union(["org.mpris.MediaPlayer2.zzz"]))
        #expect(clues == PlayerClues(busName: "org.mpris.MediaPlayer2.firefox.instance_1_77", desktopEntry: "firefox-esr",
                                     identity: "Firefox", process: FakeProcess.connected(4242)))
        #expect(identity.clues(busNames: []) == nil)
    }

    @Test("a resolution says whether the app is new to the player and whether it replaced another")
    func resolutions() {
        var identity = PlayerIdentity()
        let firefox = AppIdentity(appID: "firefox", appName: nil, appIcon: nil, source: .busName)
        let esr = AppIdentity(appID: "firefox-esr", appName: "Firefox ESR", appIcon: nil, source: .desktopEntry)
        #expect(identity.resolved(firefox) == (isNew: true, replaced: false))
        #expect(identity.resolved(firefox) == (isNew: false, replaced: false))
        #expect(identity.resolved(esr) == (isNew: true, replaced: true))
    }
}
