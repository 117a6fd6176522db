import Localization
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
            // The person started the settings, so these two are in their language. The error
            // (only ever busUnavailable here) says "cannot reach the session bus: …" itself.
            PickerProgram.fail(error.description)
            return 1
        }
        guard Toolkit.initialize() else {
            PickerProgram.fail(localized("no display to show the settings on: {display} or {wayland} must name the person's display",
                                         ["display": "DISPLAY", "wayland": "WAYLAND_DISPLAY"]))
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
