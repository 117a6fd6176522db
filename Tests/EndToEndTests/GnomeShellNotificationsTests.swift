import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 36 §2: the broker's questions on the notification server most people have — GNOME
/// Shell's own, started headless (its service owns `org.freedesktop.Notifications` and hands each
/// notification to the shell) — answered by pressing the button in the shell's own banner (through
/// `Eval` in unsafe mode), or by clicking the notification for its default action. The hints and
/// actions the broker sends work there, not only on the test's own server, and the broker acts on
/// the shell's answer. (GNOME Shell 43 sends no `ActivationToken` with an action.)
@Suite(.serialized, .timeLimit(.minutes(3))) struct GnomeShellNotificationsTests {
    /// GNOME Shell on `bus` with its notification service; the test is skipped when it cannot start.
    static func shell(on bus: PrivateBus) throws -> (shell: WaylandCompositor, service: ChildProcess) {
        let shell: WaylandCompositor
        do {
            shell = try WaylandCompositor(.gnomeShell, bus: bus)
        } catch let error as WaylandCompositor.CannotStart {
            try Test.cancel("\(error)")
        }
        return (shell, try shell.notificationService())
    }

    @Test("a new app's question shows in GNOME Shell with Record and Don't record; Record pressed there writes the held listen and allows the app")
    func newAppQuestion() async throws {
        let bus = try PrivateBus.start()
        let (shell, service) = try Self.shell(on: bus)
        #expect(try shell.notificationServerInformation().first == "gnome-shell")
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "2", "--ask-timeout", "60"])
        #expect(try broker.brokerCtl(["new-apps", "ask"]).status == .exited(0))
        let client = try broker.client()
        try await NewAppsEndToEndTests.play("Held For The Shell", (bus, broker, service, try TemporaryDirectory(prefix: "media")))

        let question = try shell.notification(titled: "Record listening from")
        #expect(question.actions == ["Record", "Don’t record"], "\(question)")
        #expect(try await client.recentMedia().isEmpty, "a held listen reached the history before the answer")
        try shell.press("Record", onNotificationTitled: "Record listening from")
        try await waitUntil("the held listen is written", timeout: .seconds(20)) {
            try await client.recentMedia().map(\.title) == ["Held For The Shell"]
        }
        #expect(try await client.apps().first { $0.appID == "mpv" }?.isAllowed == true)
        try waitUntil("the answered question leaves the shell's tray") {
            try !shell.notifications().contains { $0.title.hasPrefix("Record listening from") }
        }
        #expect(try broker.stop() == .exited(0))
    }

    @Test("a sandboxed app's request shows in GNOME Shell; Allow pressed there grants it")
    func readerQuestion() async throws {
        let bus = try PrivateBus.start()
        let (shell, service) = try Self.shell(on: bus)
        defer { withExtendedLifetime(service) {} }
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "2", "--ask-timeout", "60"])
        let sandbox = try FlatpakSandbox(appID: RequestAccessTests.appID, bus: bus)
        let app = try sandbox.launch("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("app.py"), "ask", "Add music to today's entry"])
        let question = try shell.notification(titled: "Let \(RequestAccessTests.appID) see your listening?")
        #expect(question.actions == ["Allow", "Don’t allow"] && question.body.contains("Add music to today's entry"), "\(question)")
        try shell.press("Allow", onNotificationTitled: "Let \(RequestAccessTests.appID)")
        #expect(try app.waitForExit(timeout: .seconds(20)) == .exited(0))
        #expect(app.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "answer allowed", "\(app.transcript)")
        #expect(try await broker.client().readers().map(\.access) == [.allowed])
    }

    @Test("the day's suggestion shows in GNOME Shell with Not today as its button; a click on it (Write about it, the default action) starts the journal app at the moment")
    func suggestion() async throws {
        let applications = try TemporaryDirectory(prefix: "journal-home")
        try JournalAppFixture.install(into: applications.path)
        let record = applications.appending("started.json")
        let rig = try await PickerRig(applications: applications, brokerEnvironment: ["JOURNAL_RECORD": record],
                                      screen: { try WaylandCompositor(.gnomeShell, bus: $0) })
        let shell = try #require(rig.compositor)
        let service = try shell.notificationService()
        defer { withExtendedLifetime(service) {} }
        let client = try rig.broker.client()
        try await client.setJournalApp(JournalAppFixture.id)
        try await client.setSuggestionTime(MiddayTimeZone.clock(at: Date().addingTimeInterval(2), hoursEast: rig.hoursEast))

        let suggestion = try shell.notification(titled: "Reflect on this moment")
        #expect(suggestion.actions == ["Not today"] && suggestion.body.contains("4 tracks"), "\(suggestion)")
        try shell.press(onNotificationTitled: "Reflect on this moment")
        let started = try JournalAppFixture.started(record: record)
        #expect(started.arguments.count == 1 && started.arguments[0].hasPrefix("examplejournal://suggestion/") && started.suggestion?.count == 32,
                "\(started.arguments)")
    }
}
