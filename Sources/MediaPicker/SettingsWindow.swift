import FoundationEssentials
import MediaDonationClient
import SwiftGtk

/// The Listening History settings, on one page: recording on or off and how long listens are kept;
/// which apps are recorded; which sandboxed apps may read; deleting the history. Each control makes
/// the same call `broker-ctl` makes, through the client library; a call that fails says why.
@MainActor
final class SettingsWindow {
    private let client: MediaBrokerClient
    private let window: PreferencesWindow
    private let recording = PreferencesGroup(title: "Recording")
    private let apps = PreferencesGroup(title: "Apps", description: "Listens are recorded from the apps switched on.")
    private let readers = PreferencesGroup(title: "Apps That May Read",
                                           description: "Sandboxed apps read your listening history only when allowed here.")
    private var appRows: [ActionRow] = []
    private var readerRows: [ActionRow] = []

    init(application: Application, client: MediaBrokerClient) {
        self.client = client
        window = PreferencesWindow(application: application, title: "Listening History")
        let page = PreferencesPage(title: "Listening History", icon: "audio-x-generic-symbolic")
        page.add(recording)
        page.add(apps)
        page.add(readers)
        let deleting = PreferencesGroup(title: "Delete")
        deleting.add(ActionRow(title: "Delete all listening history", subtitle: "Every kept listen and its art",
                               control: Button("_Delete…") { [unowned self] in confirmDeletion() }
                                   .styleClass("destructive-action")
                                   .align(vertical: .center)))
        page.add(deleting)
        window.add(page)
        load()
    }

    func present() { window.present() }

    // MARK: Loading

    private func load() {
        let client = client
        Task.detached {
            let state = await SettingsState.read(from: client)
            MainThread.perform { [self] in show(state) }
        }
    }

    private func show(_ state: SettingsState) {
        if let error = state.error { return report("The settings could not be read: \(error)") }
        recording.add(ActionRow(title: "Record listening", subtitle: "Keep what you listen to for your journal",
                                control: Switch(isOn: state.mediaEnabled) { [unowned self] on in
                                    change("Record listening") { client in try await client.setMediaEnabled(on) }
                                }.accessibleLabel("Record listening")))
        recording.add(ActionRow(title: "Keep listens for (days)", subtitle: "0 keeps them forever",
                                control: SpinButton(value: Double(state.retentionDays), range: 0...10_000, step: 1) { [unowned self] days in
                                    change("Keep listens for") { client in try await client.setRetentionDays(Int(days)) }
                                }.accessibleLabel("Keep listens for (days)")))
        for app in state.apps {
            let name = app.appName ?? app.appID
            let row = ActionRow(title: name, subtitle: app.appID, control: Switch(isOn: !app.isOptedOut) { [unowned self] on in
                change("Record \(name)") { client in try await client.setAppOptedOut(app.appID, !on) }
            }.accessibleLabel("Record \(name)"))
            apps.add(row)
            appRows.append(row)
        }
        if state.apps.isEmpty { apps.add(ActionRow(title: "No app has played yet")) }
        for reader in state.readers {
            let name = reader.appName ?? reader.appID
            let row = ActionRow(title: name, subtitle: reader.appID, control: Switch(isOn: reader.access == .allowed) { [unowned self] on in
                change("Let \(name) read") { client in try await client.setReaderAccess(reader.appID, on ? .allowed : .denied) }
            }.accessibleLabel("Let \(name) read"))
            readers.add(row)
            readerRows.append(row)
        }
        if state.readers.isEmpty { readers.add(ActionRow(title: "No sandboxed app has asked to read")) }
    }

    // MARK: Changing

    /// Makes `call`; when it fails, says so (the window is read again, so every control shows
    /// what the broker really keeps).
    private func change(_ what: String, _ call: @escaping @Sendable (MediaBrokerClient) async throws -> Void) {
        let client = client
        Task.detached {
            do { try await call(client) } catch {
                MainThread.perform { [self] in report("\(what) could not be changed: \(error)") }
            }
        }
    }

    private func confirmDeletion() {
        let dialog = MessageDialog(over: window.window, heading: "Delete All Listening History?",
                                   body: "Every listen MediaBroker kept, and its art, is deleted. Apps that already received listens keep them.")
        // Without mnemonics: GTK 4.8 would read a response's underscore into its accessible name.
        dialog.addAnswer("cancel", "Cancel")
        dialog.addAnswer("delete", "Delete", style: .destructive)
        dialog.present(cancel: "cancel") { [unowned self] answer in
            guard answer == "delete" else { return }
            change("The history") { client in _ = try await client.purge(.all) }
        }
    }

    private func report(_ message: String) {
        let dialog = MessageDialog(over: window.window, heading: "Something Went Wrong", body: message)
        dialog.addAnswer("close", "Close")
        dialog.present(cancel: "close") { _ in }
    }
}

/// What the settings window shows, read in one go.
struct SettingsState: Sendable {
    var mediaEnabled = true
    var retentionDays = 0
    var apps: [AppInfo] = []
    var readers: [ReaderInfo] = []
    var error: MediaBrokerError?

    static func read(from client: MediaBrokerClient) async -> SettingsState {
        var state = SettingsState()
        do throws(MediaBrokerError) {
            state.mediaEnabled = try await client.isMediaEnabled()
            state.retentionDays = try await client.retentionDays()
            state.apps = try await client.apps()
            state.readers = try await client.readers()
        } catch {
            state.error = error
        }
        return state
    }
}
