import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 21's settings window (`media-broker-picker --settings`), driven through AT-SPI: each
/// switch makes the change the person asked for, as the broker then tells over D-Bus.
@Suite(.serialized, .timeLimit(.minutes(3))) struct SettingsWindowTests {
    static let title = "Listening History"

    @Test("switching Media off, opting an app out and taking a reader's access back reach the broker")
    func switchesChangeTheBroker() async throws {
        let rig = try await PickerRig()
        #expect(try rig.broker.brokerCtl(["allow", "org.example.Journal"]).status == .exited(0))
        let settings = try ChildProcess.launch(
            try BuiltProducts.path(of: "media-broker-picker"), arguments: ["--settings"],
            environment: rig.bus.environment.merging(rig.display.environment) { $1 }.merging(["XDG_CONFIG_HOME": rig.configuration.path]) { $1 })
        defer { settings.signal(SIGTERM) }
        let client = try rig.broker.client()

        _ = try rig.drive(Self.title, ["toggle:Record listening"])
        try await waitUntil("Media is off", timeout: .seconds(10)) { try await !client.isMediaEnabled() }

        _ = try rig.drive(Self.title, ["toggle:Record org.example.Radio"])
        try await waitUntil("the app is opted out", timeout: .seconds(10)) { try await client.optedOutApps().contains("org.example.Radio") }

        _ = try rig.drive(Self.title, ["toggle:Let org.example.Journal read"])
        try await waitUntil("the reader is denied", timeout: .seconds(10)) {
            try await client.readers().first { $0.appID == "org.example.Journal" }?.access == .denied
        }
    }

    @Test("the pause switch asks for how long and Cancel changes nothing; switched off it resumes; new apps and a site reach the broker (issue 34)")
    func pauseNewAppsAndSites() async throws {
        let rig = try await PickerRig()
        let client = try rig.broker.client()
        try await client.setSiteOptedOut("youtube.com", true)
        let settings = try ChildProcess.launch(
            try BuiltProducts.path(of: "media-broker-picker"), arguments: ["--settings"],
            environment: rig.bus.environment.merging(rig.display.environment) { $1 })
        defer { settings.signal(SIGTERM) }
        let howLong = "@Nothing is recorded until the pause ends"

        _ = try rig.drive(Self.title, ["toggle:Pause recording"])
        _ = try rig.drive(howLong, ["press:Cancel", "gone"])
        #expect(try await client.currentPause() == nil, "Cancel paused")
        _ = try rig.drive(Self.title, ["toggle:Pause recording"])
        _ = try rig.drive(howLong, ["press:Until I resume", "gone"])
        try await waitUntil("recording is paused until resumed", timeout: .seconds(10)) { try await client.currentPause() == .untilResumed }
        // The window reads the settings again after a change: the next switch is the new row's.
        _ = try rig.drive(Self.title, ["expect:Paused until you resume", "toggle:Pause recording"])
        try await waitUntil("recording resumed", timeout: .seconds(10)) { try await client.currentPause() == nil }

        _ = try rig.drive(Self.title, ["expect:Stop recording for a while", "press:Change…"])
        _ = try rig.drive("@An app you have not switched on or off yet", ["press:Ask me first", "gone"])
        try await waitUntil("new apps are asked about", timeout: .seconds(10)) { try await client.newApps() == .ask }

        _ = try rig.drive(Self.title, ["expect:You are asked before one is recorded", "toggle:Record youtube.com"])
        try await waitUntil("the site is let in again", timeout: .seconds(10)) { try await client.optedOutSites().isEmpty }
    }

    @Test("the daily suggestion's time is set (which turns it on), the journal app chosen among those installed, and Turn Off turns it off (issue 35)")
    func journalingSuggestions() async throws {
        let dataHome = try TemporaryDirectory(prefix: "journal-data")
        try JournalAppFixture.install(into: dataHome.path)
        let rig = try await PickerRig(applications: dataHome)
        let client = try rig.broker.client()
        let settings = try ChildProcess.launch(
            try BuiltProducts.path(of: "media-broker-picker"), arguments: ["--settings"],
            environment: rig.bus.environment.merging(rig.display.environment) { $1 })
        defer { settings.signal(SIGTERM) }

        // Saving a time turns suggestions on; a time the broker would refuse cannot be saved.
        _ = try rig.drive(Self.title, ["expect:No journal app chosen", "press:Change the daily suggestion"])
        _ = try rig.drive("@Once a day at this time", [
            "type:\(SuggestionTimeField.name)=7:3", "disabled:Save", "type:\(SuggestionTimeField.name)=07:30", "press:Save", "gone",
        ])
        try await waitUntil("suggestions come at 07:30", timeout: .seconds(10)) { try await client.suggestionTime() == "07:30" }

        _ = try rig.drive(Self.title, ["expect:Every day at 07:30", "press:Choose the journal app"])
        _ = try rig.drive("@Write about it opens", ["press:Example Journal", "gone"])
        try await waitUntil("the journal app is chosen", timeout: .seconds(10)) { try await client.journalApp() == JournalAppFixture.id }
        _ = try rig.drive(Self.title, ["expect:Example Journal", "press:Change the daily suggestion"])
        _ = try rig.drive("@Once a day at this time", ["press:Turn Off", "gone"])
        try await waitUntil("suggestions are off", timeout: .seconds(10)) { try await client.suggestionTime() == nil }
        _ = try rig.drive(Self.title, ["expect:Off"])
    }

    /// The time field's accessible name (`SuggestionDialogs.timeField`).
    enum SuggestionTimeField { static let name = "Time" }

    @Test("deleting the history asks first, and only Delete deletes")
    func deleteAsksFirst() async throws {
        let rig = try await PickerRig()
        let settings = try ChildProcess.launch(
            try BuiltProducts.path(of: "media-broker-picker"), arguments: ["--settings"],
            environment: rig.bus.environment.merging(rig.display.environment) { $1 })
        defer { settings.signal(SIGTERM) }
        let client = try rig.broker.client()
        let question = "@Every listen MediaBroker kept"

        _ = try rig.drive(Self.title, ["press:Delete…"])
        _ = try rig.drive(question, ["press:Cancel", "gone"])
        #expect(try await client.recentMedia().count == 5, "Cancel deletes nothing")

        _ = try rig.drive(Self.title, ["press:Delete…"])
        _ = try rig.drive(question, ["press:Delete", "gone"])
        try await waitUntil("the history is empty", timeout: .seconds(10)) { try await client.recentMedia().isEmpty }
    }

    @Test("Edit… corrects a listen's title and the row shows it; Restore Original puts the first words back; restoring a listen never corrected says so; an empty title cannot be saved; “Correct later plays too” makes a rule, which Remove removes (issue 34)")
    func correctAListen() async throws {
        let rig = try await PickerRig()
        let client = try rig.broker.client()
        let settings = try ChildProcess.launch(
            try BuiltProducts.path(of: "media-broker-picker"), arguments: ["--settings"],
            environment: rig.bus.environment.merging(rig.display.environment) { $1 })
        defer { settings.signal(SIGTERM) }
        let teardrop = try #require(rig.album.first { $0.title == "Teardrop" })
        let angel = try #require(rig.album.first { $0.title == "Angel" })
        // The dialog's window is named by its heading.
        let dialog = "Correct a Listen"
        func title(of listen: GenericMedia) async throws -> String? { try await client.media(ids: [listen.id]).first?.title }

        _ = try rig.drive(Self.title, ["expect:No corrections apply to later plays", "expect:Teardrop — Massive Attack", "press:Edit Teardrop"])
        _ = try rig.drive(dialog, ["type:Title=Teardrop (Live)", "press:Save", "gone"])
        try await waitUntil("the broker keeps the new title", timeout: .seconds(10)) { try await title(of: teardrop) == "Teardrop (Live)" }
        let corrected = try #require(try await client.media(ids: [teardrop.id]).first)
        #expect(corrected.artists == ["Massive Attack"] && corrected.album == "Mezzanine", "Save sent fields that did not change")

        // The window reads the settings again: the row shows the new words.
        _ = try rig.drive(Self.title, ["expect:Teardrop (Live) — Massive Attack", "press:Edit Teardrop (Live)"])
        _ = try rig.drive(dialog, ["press:Restore Original", "gone"])
        try await waitUntil("the first title is back", timeout: .seconds(10)) { try await title(of: teardrop) == "Teardrop" }
        _ = try rig.drive(Self.title, ["expect:Teardrop — Massive Attack"])

        _ = try rig.drive(Self.title, ["press:Edit Angel"])
        _ = try rig.drive(dialog, ["press:Restore Original", "gone"])
        _ = try rig.drive("@has not been corrected", ["expect:Nothing to Restore", "press:Close", "gone"])

        _ = try rig.drive(Self.title, ["press:Edit Angel"])
        _ = try rig.drive(dialog, ["type:Title=", "disabled:Save", "press:Cancel", "gone"])
        #expect(try await title(of: angel) == "Angel", "a cancelled or refused edit changed the listen")

        // For later plays too: the correction becomes a rule, listed under Corrections until removed.
        _ = try rig.drive(Self.title, ["press:Edit Risingson"])
        _ = try rig.drive(dialog, ["type:Title=Risingson (Remix)", "toggle:Correct later plays too", "press:Save", "gone"])
        try await waitUntil("the broker keeps the rule", timeout: .seconds(10)) {
            try await client.rules().map { [$0.title, $0.correctedTitle] } == [["Risingson", "Risingson (Remix)"]]
        }
        #expect(try await client.rules().first?.correctedArtists == nil, "the rule sets artists that were not changed")
        _ = try rig.drive(Self.title, ["expect:Risingson — Massive Attack in org.example.Radio → Risingson (Remix) — Massive Attack",
                                       "press:Remove correction of Risingson"])
        try await waitUntil("the rule is removed", timeout: .seconds(10)) { try await client.rules().isEmpty }
        _ = try rig.drive(Self.title, ["expect:No corrections apply to later plays"])
    }
}
