import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 35's loop, whole, on real parts: the broker's suggestion fires, *Write about it* (with
/// the notification server's activation token) starts the example journal app
/// (`examples/journal`) from its desktop file, the app asks `PickMedia` with the suggestion, the
/// picker opens at that moment with its listens ticked, and *Share* makes the app write exactly
/// those tracks to its Markdown entry.
@Suite(.serialized, .timeLimit(.minutes(4))) struct JournalLoopEndToEndTests {
    @Test("suggestion → Write about it → the example journal → the picker at the moment → Share → the entry holds its tracks")
    func theLoop() async throws {
        let dataHome = try TemporaryDirectory(prefix: "journal-data")
        let entries = try TemporaryDirectory(prefix: "journal-entries")
        // The example's own desktop file, its program where a package would put it.
        let shipped = try SourceTree.read("examples/journal/org.example.Journal.desktop")
        let applications = dataHome.appending("applications")
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        try shipped.replacingOccurrences(of: "Exec=example-journal %u",
                                         with: "Exec=/usr/bin/python3 \(SourceTree.path("examples/journal/example-journal.py")) %u")
            .write(toFile: applications + "/org.example.Journal.desktop", atomically: true, encoding: .utf8)
        let rig = try await PickerRig(applications: dataHome, brokerEnvironment: [
            "EXAMPLE_JOURNAL_DIR": entries.path, "EXAMPLE_JOURNAL_QUIT_AFTER_PICK": "1",
        ])
        let server = try ChildProcess.launch("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("notification-server.py"), "allow"],
                                             environment: rig.bus.environment)
        try server.waitForOutput(containing: "ready", in: .standardOutput, timeout: .seconds(10))
        let client = try rig.broker.client()
        #expect(try await client.journalApps().map(\.url) == ["examplejournal://suggestion/{id}"])
        try await client.setJournalApp("org.example.Journal")
        try await client.setSuggestionTime(MiddayTimeZone.clock(at: Date().addingTimeInterval(2), hoursEast: rig.hoursEast))

        try server.waitForOutput(containing: "notify ", in: .standardOutput, timeout: .seconds(20))
        _ = try rig.drive(PickerRig.window(reason: "Write about this moment"), [
            "press:Continue", "expect:\(PickerRig.checkBox(rig.album[0]))", "press:Share", "gone",
        ])
        var entry: String?
        try waitUntil("the journal wrote its entry", timeout: .seconds(20)) {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: entries.path)) ?? []
            entry = files.first { $0.hasSuffix(".md") }.flatMap { try? String(contentsOfFile: entries.appending($0), encoding: .utf8) }
            return entry?.contains("- ") == true
        }
        let listed = (entry ?? "").split(separator: "\n").filter { $0.hasPrefix("- ") }
        #expect(listed == PickerRig.albumTitles.map { "- \($0) — Massive Attack" }, "\(entry ?? "")")
        #expect(try rig.broker.stop() == .exited(0))
    }
}
