import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 35 §1–2 on real parts: at the person's time the broker sends one suggestion through the
/// notification server — the day's moment, its art and *Write about it* / *Not today* — and
/// *Write about it* starts the chosen journal app from its desktop file with the suggestion's URL
/// and the server's activation token; nothing more is sent that day, nor while recording is paused.
@Suite(.serialized, .timeLimit(.minutes(3))) struct SuggestionsEndToEndTests {
    /// A broker in a time zone where it is early afternoon now (``MiddayTimeZone``: the day's
    /// listens below fall in today's listening day whenever the test runs), a notification server answering as
    /// `behaviour` says, an installed journal app that records how it was started, and a radio app
    /// with an icon that donated a moment worth writing about.
    struct Rig {
        let bus: PrivateBus
        let broker: RunningBroker
        let server: ChildProcess
        let client: MediaBrokerClient
        let home: TemporaryDirectory
        let record: String
        let icon: String
        /// Hours east of UTC of the broker's time zone.
        let offsetHours: Int

        init(_ behaviour: String) async throws {
            bus = try PrivateBus.start()
            home = try TemporaryDirectory(prefix: "journal-home")
            try JournalAppFixture.install(into: home.path)
            let applications = home.appending("applications")
            icon = home.appending("radio.svg")
            try #"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><rect width="16" height="16"/></svg>"#
                .write(toFile: icon, atomically: true, encoding: .utf8)
            try """
                [Desktop Entry]
                Type=Application
                Name=Example Radio
                Exec=radio
                Icon=\(icon)

                """.write(toFile: applications + "/org.example.Radio.desktop", atomically: true, encoding: .utf8)
            record = home.appending("started.json")
            let now = Date()
            offsetHours = MiddayTimeZone.hoursEast(at: now)
            broker = try RunningBroker(bus: bus, environment: ["XDG_DATA_HOME": home.path, "TZ": MiddayTimeZone.at(now), "JOURNAL_RECORD": record])
            server = try ChildProcess.launch("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("notification-server.py"), behaviour],
                                             environment: bus.environment)
            try server.waitForOutput(containing: "ready", in: .standardOutput, timeout: .seconds(10))
            client = try broker.client()
            for index in 0..<4 {
                _ = try await client.donate(Donation(
                    appID: "org.example.Radio", title: "Track \(index)", artists: ["Massive Attack"], album: "Mezzanine",
                    started: Date().addingTimeInterval(Double(-50 * 60 + index * 6 * 60)), length: .seconds(300), listened: .seconds(300)))
            }
        }

        /// `seconds` from now, as the broker's local time of day.
        func localTime(inSeconds seconds: Int) -> String {
            MiddayTimeZone.clock(at: Date().addingTimeInterval(Double(seconds)), hoursEast: offsetHours)
        }

        func notifications() -> [Substring] { server.standardOutput.split(separator: "\n").filter { $0.hasPrefix("notify ") } }
    }

    @Test("at its time the day's moment is suggested with its art; Write about it starts the chosen journal with the URL and the token; nothing more that day")
    func writeAboutItOpensTheJournal() async throws {
        let rig = try await Rig("allow")
        let journals = try await rig.client.journalApps()
        #expect(journals.map(\.id) == [JournalAppFixture.id] && journals.first?.url == JournalAppFixture.template)
        try await rig.client.setJournalApp(JournalAppFixture.id)
        try await rig.client.setSuggestionTime(rig.localTime(inSeconds: 2))

        try rig.server.waitForOutput(containing: "notify ", in: .standardOutput, timeout: .seconds(20))
        let notice = try #require(rig.notifications().first)
        #expect(notice.contains("|Reflect on this moment|") && notice.contains("· 4 tracks|"), "\(notice)")
        #expect(notice.hasSuffix("|default,Write about it,not-today,Not today"), "\(notice)")
        #expect(rig.server.standardOutput.contains("hint image-path=\(rig.icon)"), "\(rig.server.standardOutput)")

        let started = try JournalAppFixture.started(record: rig.record)
        #expect(started.arguments.count == 1 && started.arguments[0].hasPrefix("examplejournal://suggestion/"), "\(started.arguments)")
        #expect(started.suggestion?.count == 32, "\(started.arguments)")
        #expect(started.activationToken == "test-activation-1" && started.startupID == "test-activation-1")

        try await rig.client.setSuggestionTime(rig.localTime(inSeconds: 2))
        try rig.broker.process.waitForOutput(containing: "no suggestion: one was made today already", in: .standardError, timeout: .seconds(20))
        #expect(rig.notifications().count == 1)
        #expect(try rig.broker.stop() == .exited(0))
    }

    @Test("Not today starts nothing and nothing more is sent that day; while paused nothing is sent; a journal app must be installed")
    func notTodayAndPaused() async throws {
        let rig = try await Rig("deny")
        try await rig.client.pause(until: nil)
        try await rig.client.setSuggestionTime(rig.localTime(inSeconds: 2))
        try rig.broker.process.waitForOutput(containing: "no suggestion: recording is off or paused", in: .standardError, timeout: .seconds(20))
        #expect(rig.notifications().isEmpty)

        try await rig.client.resume()
        try await rig.client.setJournalApp(JournalAppFixture.id)
        try await rig.client.setSuggestionTime(rig.localTime(inSeconds: 2))
        try rig.server.waitForOutput(containing: "closed ", in: .standardOutput, timeout: .seconds(20))
        try await rig.client.setSuggestionTime(rig.localTime(inSeconds: 2))
        try rig.broker.process.waitForOutput(containing: "no suggestion: one was made today already", in: .standardError, timeout: .seconds(20))
        #expect(rig.notifications().count == 1)
        #expect(!FileManager.default.fileExists(atPath: rig.record), "Not today started the journal")

        await #expect(throws: MediaBrokerError.self) { try await rig.client.setJournalApp("org.example.Radio") }
        await #expect(throws: MediaBrokerError.self) { try await rig.client.setSuggestionTime("25:00") }
        #expect(try await rig.client.suggestionTime() != nil)
        #expect(try await rig.client.journalApp() == JournalAppFixture.id)
        try await rig.client.setSuggestionTime(nil)
        #expect(try await rig.client.suggestionTime() == nil)
        #expect(try rig.broker.stop() == .exited(0))
    }
}
