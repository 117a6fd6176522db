import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

/// `broker-ctl suggest`: the person turns the daily journaling suggestion on or off and chooses
/// the journal app it opens, among those installed.
@Suite struct SuggestTests {
    static let journal = JournalAppInfo(id: "org.example.Journal", name: "Example Journal", url: "examplejournal://suggestion/{id}")
    static let broken = JournalAppInfo(id: "org.example.Broken", name: "Broken", problem: "it must hold {id} once, not 0 times")

    @Test func parsesActionsTimesAndApps() throws {
        #expect(try parse(["suggest"], as: SuggestCommand.self) == SuggestCommand())
        #expect(try parse(["suggest", "on", "--at", "21:30"], as: SuggestCommand.self) == SuggestCommand(action: .on, time: "21:30"))
        #expect(try parse(["suggest", "--app", "org.example.Journal"], as: SuggestCommand.self) == SuggestCommand(app: .some("org.example.Journal")))
        #expect(try parse(["suggest", "off", "--no-app", "--json"], as: SuggestCommand.self)
                == SuggestCommand(action: .off, app: .some(nil), printsJSON: true))
    }

    @Test(arguments: [
        (["suggest", "sometimes"], "expected on, off or status, not 'sometimes'"),
        (["suggest", "off", "--at", "21:00"], "--at goes with on"),
        (["suggest", "on", "--at", "9pm"], "--at takes a time of day, HH:MM (24-hour), not '9pm'"),
        (["suggest", "on", "--at", "24:00"], "--at takes a time of day, HH:MM (24-hour), not '24:00'"),
        (["suggest", "--app", "x", "--no-app"], "give --app or --no-app, not both"),
        (["suggest", "--app", ""], "--app takes a desktop-file id; --no-app chooses none"),
    ] as [([String], String)])
    func mistakesAreUsageErrors(_ words: [String], message: String) {
        #expect(usageError(words) == UsageError(message, subcommand: "suggest"))
    }

    @Test func onStartsAt21ByDefaultAndSaysWhichJournalOpens() async {
        let broker = FakeBroker(journalApps: [Self.broken, Self.journal])  // sorted by id, as the broker lists them
        let run = await runBrokerCtl(["suggest", "on", "--app", "org.example.Journal"], broker: broker)
        #expect(run.exitCode == 0)
        #expect(broker.changes == [.setJournalApp("org.example.Journal"), .setSuggestionTime("21:00")])
        #expect(run.standardOutput == """
            Journaling suggestions are on: one a day at 21:00.
            Write about it opens Example Journal (org.example.Journal).
            Journal apps:
                org.example.Broken  Broken  (cannot take suggestions: it must hold {id} once, not 0 times)
              * org.example.Journal  Example Journal

            """)
    }

    @Test func onKeepsTheTimeSetBeforeAndOffTurnsThemOff() async {
        let broker = FakeBroker()
        _ = await runBrokerCtl(["suggest", "on", "--at", "07:15"], broker: broker)
        _ = await runBrokerCtl(["suggest", "off"], broker: broker)
        _ = await runBrokerCtl(["suggest", "on"], broker: broker)
        #expect(broker.changes == [.setSuggestionTime("07:15"), .setSuggestionTime(nil), .setSuggestionTime("21:00")])
        let status = await runBrokerCtl(["suggest"], broker: broker)
        #expect(status.standardOutput.hasPrefix("Journaling suggestions are on: one a day at 21:00.\nNo journal app is chosen"))
        #expect(status.standardOutput.contains("No journal app is installed"))
    }

    @Test func jsonCarriesTheSettingsAndTheApps() async {
        let broker = FakeBroker(journalApps: [Self.journal])
        let run = await runBrokerCtl(["suggest", "on", "--at", "21:30", "--json"], broker: broker)
        #expect(run.standardOutput == #"{"suggestions":true,"suggest_at":"21:30","journal_apps":[{"id":"org.example.Journal","name":"Example Journal","url":"examplejournal://suggestion/{id}"}]}"# + "\n")
        let off = await runBrokerCtl(["suggest", "off", "--json"], broker: FakeBroker())
        #expect(off.standardOutput == #"{"suggestions":false,"journal_apps":[]}"# + "\n")
    }

    @Test func theBrokersRefusalExits1() async {
        let broker = FakeBroker(failures: ["setJournalApp": .invalidArguments("no installed journal app has the id 'x'")])
        let run = await runBrokerCtl(["suggest", "--app", "x"], broker: broker)
        #expect(run.exitCode == 1 && run.standardError.contains("no installed journal app has the id 'x'"))
    }
}
