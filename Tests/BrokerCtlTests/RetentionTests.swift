import Foundation
import Testing
@testable import broker_ctl

@Suite struct RetentionTests {
    @Test func parsesShowAndSet() throws {
        #expect(try parse(["retention"], as: RetentionCommand.self) == RetentionCommand())
        #expect(try parse(["retention", "30"], as: RetentionCommand.self) == RetentionCommand(days: 30))
        #expect(try parse(["retention", "0", "--json"], as: RetentionCommand.self) == RetentionCommand(days: 0, printsJSON: true))
        #expect(try parse(["retention", "4294967295"], as: RetentionCommand.self).days == 4_294_967_295)
    }

    @Test(arguments: ["-1", "1.5", "ten", "", "+3", "4294967296", "99999999999999999999"])
    func aBadDayCountIsAUsageError(_ days: String) {
        #expect(
            usageError(["retention", "--", days])
                == UsageError("DAYS must be a whole number of days, 0 or more, not '\(days)'", subcommand: "retention"))
    }

    @Test func extraArgumentsAreUsageErrors() {
        #expect(usageError(["retention", "3", "4"])?.message == "unexpected argument '4'")
    }

    @Test func showsTheSetting() async {
        #expect(await runBrokerCtl(["retention"], broker: FakeBroker(retentionDays: 90)).standardOutput == "Listens are kept for 90 days.\n")
        #expect(await runBrokerCtl(["retention"], broker: FakeBroker(retentionDays: 1)).standardOutput == "Listens are kept for 1 day.\n")
        #expect(await runBrokerCtl(["retention"], broker: FakeBroker(retentionDays: 0)).standardOutput == "Listens are kept forever.\n")
    }

    @Test func setsIt() async {
        let broker = FakeBroker(retentionDays: 90)
        let run = await runBrokerCtl(["retention", "365"], broker: broker)
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "Listens are now kept for 365 days.\n")
        #expect(broker.changes == [.setRetentionDays(365)])
        #expect(await runBrokerCtl(["retention", "0"], broker: broker).standardOutput == "Listens are now kept forever.\n")
        #expect(broker.retention == 0)
    }

    @Test func jsonIsOneObject() async throws {
        for (words, expected) in [(["retention", "--json"], 90), (["retention", "7", "--json"], 7)] {
            let run = await runBrokerCtl(words, broker: FakeBroker(retentionDays: 90))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Int])
            #expect(object == ["retention_days": expected])
        }
    }

    @Test func aRefusalExits1() async {
        let run = await runBrokerCtl(
            ["retention", "5"], broker: FakeBroker(failures: ["setRetentionDays": .invalidArguments("RetentionDays: too large")]))
        #expect(run.exitCode == 1)
        #expect(run.standardError == "broker-ctl: invalid arguments: RetentionDays: too large\n")
    }
}
