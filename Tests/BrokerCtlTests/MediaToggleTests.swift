import Foundation
import Testing
@testable import broker_ctl

@Suite struct MediaToggleTests {
    @Test func parsesEachActionAndDefaultsToStatus() throws {
        #expect(try parse(["media"], as: MediaCommand.self) == MediaCommand())
        #expect(try parse(["media", "on"], as: MediaCommand.self) == MediaCommand(action: .on))
        #expect(try parse(["media", "off", "--json"], as: MediaCommand.self) == MediaCommand(action: .off, printsJSON: true))
        #expect(try parse(["media", "--json", "status"], as: MediaCommand.self) == MediaCommand(action: .status, printsJSON: true))
    }

    @Test(arguments: [
        (["media", "toggle"], "expected on, off or status, not 'toggle'"),
        (["media", "ON"], "expected on, off or status, not 'ON'"),
        (["media", "on", "off"], "unexpected argument 'off'"),
        (["media", "--yes"], "unknown option '--yes'"),
    ] as [([String], String)])
    func mistakesAreUsageErrors(_ words: [String], message: String) {
        #expect(usageError(words) == UsageError(message, subcommand: "media"))
    }

    @Test func statusShowsTheToggleWithoutChangingIt() async {
        let broker = FakeBroker(mediaEnabled: false)
        #expect(await runBrokerCtl(["media"], broker: broker).standardOutput == "Media recording is off.\n")
        #expect(await runBrokerCtl(["media", "status"], broker: FakeBroker()).standardOutput == "Media recording is on.\n")
        #expect(broker.changes.isEmpty)
    }

    @Test func onAndOffSwitchIt() async {
        let broker = FakeBroker(mediaEnabled: true)
        let off = await runBrokerCtl(["media", "off"], broker: broker)
        #expect(off.exitCode == 0)
        #expect(off.standardOutput == "Media recording is now off.\n")
        #expect(broker.mediaEnabled == false)
        let on = await runBrokerCtl(["media", "on"], broker: broker)
        #expect(on.standardOutput == "Media recording is now on.\n")
        #expect(broker.changes == [.setMediaEnabled(false), .setMediaEnabled(true)])
    }

    @Test func jsonIsOneObject() async throws {
        for (words, expected) in [(["media", "--json"], true), (["media", "off", "--json"], false)] {
            let run = await runBrokerCtl(words, broker: FakeBroker())
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Bool])
            #expect(object == ["media_enabled": expected])
        }
        #expect(MediaCommand.json(true) == #"{"media_enabled":true}"# + "\n")
    }

    @Test func aFailureExits1() async {
        let run = await runBrokerCtl(["media", "off"], broker: FakeBroker(failures: ["setMediaEnabled": .brokerNotRunning]))
        #expect(run.exitCode == 1)
        #expect(run.standardError.hasPrefix("broker-ctl: the media broker is not running"))
    }
}
