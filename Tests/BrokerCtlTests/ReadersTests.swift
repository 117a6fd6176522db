import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

/// `broker-ctl readers`, `allow`, `deny` and `forget`: the person sees and changes which sandboxed
/// apps read their listening.
@Suite struct ReadersTests {
    static let decided = Date(timeIntervalSince1970: 1_764_590_400)  // 2025-12-01 12:00 UTC
    static let journal = ReaderInfo(appID: "org.gnome.Journal", appName: "Journal", access: .allowed, decided: decided,
                                    lastRead: decided.addingTimeInterval(3600))
    static let tracker = ReaderInfo(appID: "org.example.Tracker", access: .denied, decided: decided)

    @Test func theTableListsEachAppWithItsDecision() async {
        let broker = FakeBroker(readers: [Self.journal, Self.tracker])
        let result = await runBrokerCtl(["readers"], broker: broker)
        #expect(result.exitCode == 0)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("ID"))
        #expect(lines[1].hasPrefix("org.example.Tracker") && lines[1].contains("denied"))
        #expect(lines[2].hasPrefix("org.gnome.Journal") && lines[2].contains("Journal") && lines[2].contains("allowed"))
    }

    @Test func noDecisionsSaySo() async {
        let result = await runBrokerCtl(["readers"], broker: FakeBroker())
        #expect(result.standardOutput == ReadersOutput.emptyMessage)
    }

    @Test func jsonCarriesTheContractKeys() async throws {
        let result = await runBrokerCtl(["readers", "--json"], broker: FakeBroker(readers: [Self.journal]))
        #expect(result.standardOutput.contains("\"app_id\":\"org.gnome.Journal\""))
        #expect(result.standardOutput.contains("\"access\":\"allowed\""))
        #expect(result.standardOutput.contains("\"decided\":1764590400000000"))
        #expect(result.standardOutput.contains("\"last_read\":1764594000000000"))
    }

    @Test(arguments: [("allow", ReaderInfo.Access.allowed), ("deny", .denied)])
    func allowAndDenySetTheDecision(_ command: String, _ access: ReaderInfo.Access) async {
        let broker = FakeBroker()
        let result = await runBrokerCtl([command, "org.gnome.Journal"], broker: broker)
        #expect(result.exitCode == 0)
        #expect(broker.changes == [.setReaderAccess("org.gnome.Journal", access)])
    }

    @Test func forgetDropsTheDecision() async {
        let broker = FakeBroker()
        let result = await runBrokerCtl(["forget", "org.gnome.Journal"], broker: broker)
        #expect(result.exitCode == 0 && result.standardOutput.contains("asks again"))
        #expect(broker.changes == [.setReaderAccess("org.gnome.Journal", nil)])
    }

    @Test func anAppIsRequired() async {
        let result = await runBrokerCtl(["allow"], broker: FakeBroker())
        #expect(result.exitCode == 64)
    }

    @Test func aSandboxedCallerIsToldWhy() async {
        let broker = FakeBroker(failures: ["readers": .accessDenied("org.example.App is sandboxed")])
        let result = await runBrokerCtl(["readers"], broker: broker)
        #expect(result.exitCode == 1 && result.standardError.contains("access denied: org.example.App is sandboxed"))
    }
}
