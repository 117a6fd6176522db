import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

/// `broker-ctl new-apps`: record, ask or ignore an app the person has not decided about.
@Suite struct NewAppsTests {
    @Test func parsesEachModeAndDefaultsToShowing() throws {
        #expect(try parse(["new-apps"], as: NewAppsCommand.self) == NewAppsCommand())
        #expect(try parse(["new-apps", "ask"], as: NewAppsCommand.self) == NewAppsCommand(mode: .ask))
        #expect(try parse(["new-apps", "--json", "ignore"], as: NewAppsCommand.self) == NewAppsCommand(mode: .ignore, printsJSON: true))
    }

    @Test(arguments: [
        (["new-apps", "never"], "expected record, ask or ignore, not 'never'"),
        (["new-apps", "ask", "ignore"], "unexpected argument 'ignore'"),
        (["new-apps", "--yes"], "unknown option '--yes'"),
    ] as [([String], String)])
    func mistakesAreUsageErrors(_ words: [String], message: String) {
        #expect(usageError(words) == UsageError(message, subcommand: "new-apps"))
    }

    @Test func showingChangesNothing() async {
        let broker = FakeBroker()
        let run = await runBrokerCtl(["new-apps"], broker: broker)
        #expect(run.standardOutput == "New apps are recorded at once.\n")
        #expect(broker.changes.isEmpty)
    }

    @Test func settingSaysWhatNowHappens() async {
        let broker = FakeBroker()
        let ask = await runBrokerCtl(["new-apps", "ask"], broker: broker)
        #expect(ask.exitCode == 0)
        #expect(ask.standardOutput == "New apps are recorded only once you say so: you are asked at their first listen.\n")
        let ignore = await runBrokerCtl(["new-apps", "ignore", "--json"], broker: broker)
        #expect(ignore.standardOutput == #"{"new_apps":"ignore"}"# + "\n")
        #expect(broker.changes == [.setNewApps(.ask), .setNewApps(.ignore)])
    }

    @Test func aFailureExits1() async {
        let run = await runBrokerCtl(["new-apps", "ask"], broker: FakeBroker(failures: ["setNewApps": .brokerNotRunning]))
        #expect(run.exitCode == 1)
        #expect(run.standardError.hasPrefix("broker-ctl: the media broker is not running"))
    }
}
