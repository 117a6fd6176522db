import MediaDonationClient
import SwiftGtk

/// `media-broker-picker --settings`: the Listening History window on the session bus's broker.
@MainActor
enum SettingsProgram {
    static let applicationID = "org.mediabroker.ListeningHistory"

    static func run(environment: [String: String]) -> Int32 {
        let client: MediaBrokerClient
        do throws(MediaBrokerError) {
            client = try MediaBrokerClient(timeout: .seconds(10))
        } catch {
            PickerProgram.fail("cannot reach the session bus: \(error)")
            return 1
        }
        guard Toolkit.initialize() else {
            PickerProgram.fail("no display to show the settings on: DISPLAY or WAYLAND_DISPLAY must name the person's display")
            return 1
        }
        let application = Application(id: applicationID, unique: true)
        var settings: SettingsWindow?
        let status = application.run { application in
            if let settings { return settings.present() }
            let window = SettingsWindow(application: application, client: client)
            window.present()
            settings = window
        }
        return status
    }
}
