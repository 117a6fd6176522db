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
}
