import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 35 §3 on real parts: the id a suggestion hands the journal app opens the picker at that
/// moment, its listens ticked, so *Share* alone shares exactly them; an id whose moment was purged,
/// or one the broker never gave, opens the picker as usual; a malformed one is refused. With no
/// journal app chosen (§4), *Write about it* opens the broker's own picker at the moment to copy it,
/// and what is copied stays pasteable after the window closes.
@Suite(.serialized, .timeLimit(.minutes(4))) struct SuggestionPickerTests {
    @Test("PickMedia with a suggestion's id opens at its moment, ticked; once the moment is purged the picker opens as usual")
    func pickerOpensAtTheSuggestion() async throws {
        let dataHome = try TemporaryDirectory(prefix: "journal-data")
        try JournalAppFixture.install(into: dataHome.path)
        let record = dataHome.appending("started.json")
        let rig = try await PickerRig(applications: dataHome, brokerEnvironment: ["JOURNAL_RECORD": record])
        let server = try ChildProcess.launch("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("notification-server.py"), "allow"],
                                             environment: rig.bus.environment)
        try server.waitForOutput(containing: "ready", in: .standardOutput, timeout: .seconds(10))
        let client = try rig.broker.client()
        try await client.setJournalApp(JournalAppFixture.id)
        try await client.setSuggestionTime(MiddayTimeZone.clock(at: Date().addingTimeInterval(2), hoursEast: rig.hoursEast))
        let suggestion = try #require(try JournalAppFixture.started(record: record).suggestion)

        let app = try rig.pickingApp(reason: "Write about it", suggestion: suggestion)
        _ = try rig.drive(PickerRig.window(reason: "Write about it"), ["press:Continue", "expect:\(PickerRig.checkBox(rig.album[0]))",
                                                                         "press:Share", "gone"])
        let shared = try PickerRig.response(of: app)
        #expect(shared.code == 0 && shared.results.assets == rig.album.map(\.id), "\(shared)")
        #expect(shared.results.moment?.id == rig.moment.id)

        _ = try await client.purge(.app("org.example.Radio"))
        let after = try rig.pickingApp(reason: "After the purge", suggestion: suggestion)
        _ = try rig.drive(PickerRig.window(reason: "After the purge"), ["disabled:Share", "press:\(rig.singleButton)", "press:Share", "gone"])
        #expect(try PickerRig.response(of: after).results.assets == [rig.single.id], "opened as usual, nothing ticked at first")

        let unknown = try rig.pickingApp(reason: "Never given", suggestion: String(repeating: "ab", count: 16))
        _ = try rig.drive(PickerRig.window(reason: "Never given"), ["disabled:Share", "press:Cancel", "gone"])
        #expect(try PickerRig.response(of: unknown).code == 1)

        var environment = rig.bus.environment
        environment["PICK_APP_SUGGESTION"] = "../../etc/passwd"
        let refused = try ChildProcess.run("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("pick-app.py"), "pick", "Bad"],
                                           environment: environment, timeout: .seconds(20))
        #expect(refused.standardOutput.contains("refused org.freedesktop.DBus.Error.InvalidArgs"), "\(refused.standardOutput)")
        #expect(try rig.broker.stop() == .exited(0))
    }

    @Test("with no journal app chosen, Write about it opens the picker at the moment to copy it; the text stays pasteable after it closes")
    func copyWithNoJournalApp() async throws {
        let rig = try await PickerRig()
        let server = try ChildProcess.launch("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("notification-server.py"), "allow"],
                                             environment: rig.bus.environment)
        try server.waitForOutput(containing: "ready", in: .standardOutput, timeout: .seconds(10))
        let client = try rig.broker.client()
        try await client.setSuggestionTime(MiddayTimeZone.clock(at: Date().addingTimeInterval(2), hoursEast: rig.hoursEast))
        let untick = PickerRig.checkBox(rig.album[3])
        _ = try rig.drive("Copy Listening", ["expect:\(PickerRig.checkBox(rig.album[0]))", "toggle:\(untick)", "press:Copy", "gone"])

        // The window is gone; the picker goes on serving what it copied.
        let pickers = try rig.pickerProcesses()
        #expect(pickers.count == 1, "the picker serves the clipboard with no window open")
        let pasted = try ChildProcess.run("xclip", arguments: ["-o", "-selection", "clipboard"], environment: rig.display.environment,
                                          timeout: .seconds(10))
        let lines = pasted.standardOutput.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "the moment's line and three listens: \(pasted.standardOutput) \(pasted.standardError)")
        #expect(lines[0].hasPrefix(rig.moment.title + " · "), "\(lines[0])")
        for (line, listen) in zip(lines.dropFirst(), rig.album.prefix(3)) {
            #expect(line.wholeMatch(of: /\d\d:\d\d .*/) != nil && line.hasSuffix(" \(listen.title ?? "") — Massive Attack · Mezzanine"), "\(line)")
        }
        #expect(!pasted.standardOutput.contains(rig.album[3].title ?? "?"), "the unticked listen is not copied")
        #expect(rig.broker.process.standardError.contains("the person copied 3 listens of the suggested moment"))

        // Another program takes the clipboard: the picker's work is done.
        let other = try ChildProcess.launch("xclip", arguments: ["-selection", "clipboard", "-quiet", "-i", "/dev/null"],
                                            environment: rig.display.environment)
        try waitUntil("the picker exits once another program owns the clipboard", timeout: .seconds(20)) {
            try rig.pickerProcesses().isEmpty
        }
        other.signal(SIGTERM)
        #expect(rig.broker.process.standardError.contains("no longer served by the picker: another program took the clipboard"))
        #expect(try rig.broker.stop() == .exited(0))
    }
}
