import FoundationEssentials
import Localization
import MediaDonationClient
import SwiftGtk

/// The Listening History settings, on one page: recording on or off, paused for a while, and how
/// long listens are kept; which apps are recorded, what becomes of a new one, and which sites in
/// browsers; which sandboxed apps may read; the daily journaling suggestion; the recent listens,
/// each of which can be corrected,
/// and the corrections kept for later plays; deleting the history. Each control makes the same call `broker-ctl` makes, through the client
/// library; a call that fails says why.
@MainActor
final class SettingsWindow {
    private let client: MediaBrokerClient
    private let window: PreferencesWindow
    private let recording = PreferencesGroup(title: localized("Recording"))
    private let suggestions = PreferencesGroup(title: localized("Journaling Suggestions"),
                                               description: localized("Once a day, a moment of your listening to write about."))
    private let apps = PreferencesGroup(title: localized("Apps"), description: localized("Listens are recorded from the apps switched on."))
    private let readers = PreferencesGroup(title: localized("Apps That May Read"),
                                           description: localized("Sandboxed apps read your listening history only when allowed here."))
    private let listens = PreferencesGroup(title: localized("Recent Listens"),
                                           description: localized("What your journal shows. Correct a listen whose words are wrong."))
    private let corrections = PreferencesGroup(title: localized("Corrections"),
                                               description: localized("Later plays told with these words are recorded corrected."))
    /// The rows shown, by group, to take away when the settings are read again.
    private var shown: [(group: PreferencesGroup, row: ActionRow)] = []
    private var pauseSwitch: Switch?
    /// Set while the window turns the pause switch back itself (a cancelled question).
    private var turningBack = false

    init(application: Application, client: MediaBrokerClient) {
        self.client = client
        // Tall enough for the controls and a few apps at once on a 800-pixel screen.
        window = PreferencesWindow(application: application, title: localized("Listening History"), height: 760)
        let page = PreferencesPage(title: localized("Listening History"), icon: "audio-x-generic-symbolic")
        page.add(recording)
        page.add(apps)
        page.add(readers)
        page.add(suggestions)
        page.add(listens)
        page.add(corrections)
        let deleting = PreferencesGroup(title: localized("Delete"))
        deleting.add(ActionRow(title: localized("Delete all listening history"), subtitle: localized("Every kept listen and its art"),
                               control: Button(localized("_Delete…")) { [unowned self] in confirmDeletion() }
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

    private func add(_ row: ActionRow, to group: PreferencesGroup) {
        group.add(row)
        shown.append((group, row))
    }

    private func show(_ state: SettingsState) {
        for (group, row) in shown { group.remove(row) }
        shown.removeAll()
        if let error = state.error { return report(localized("The settings could not be read: {error}", ["error": error.description])) }
        add(ActionRow(title: localized("Record listening"), subtitle: localized("Keep what you listen to for your journal"),
                      control: Switch(isOn: state.mediaEnabled) { [unowned self] on in
                          change(localized("Record listening")) { client in try await client.setMediaEnabled(on) }
                      }.accessibleLabel(localized("Record listening"))), to: recording)
        let pause = Switch(isOn: state.pause != nil) { [unowned self] on in
            guard !turningBack else { return }
            if on { askHowLongToPause() } else { change(localized("Pause recording"), thenReload: true) { client in try await client.resume() } }
        }.accessibleLabel(localized("Pause recording"))
        pauseSwitch = pause
        add(ActionRow(title: localized("Pause recording"), subtitle: Self.pauseText(state.pause), control: pause), to: recording)
        add(ActionRow(title: localized("Keep listens for (days)"), subtitle: localized("0 keeps them forever"),
                      control: SpinButton(value: Double(state.retentionDays), range: 0...10_000, step: 1) { [unowned self] days in
                          change(localized("Keep listens for")) { client in try await client.setRetentionDays(Int(days)) }
                      }.accessibleLabel(localized("Keep listens for (days)"))), to: recording)
        add(ActionRow(title: localized("New apps"), subtitle: Self.newAppsText(state.newApps),
                      control: Button(localized("_Change…")) { [unowned self] in askAboutNewApps() }.align(vertical: .center)), to: apps)
        for app in state.apps {
            let name = app.appName ?? app.appID
            let recorded = !app.isOptedOut && (app.isAllowed || state.newApps == .record)
            add(ActionRow(title: name, subtitle: app.appID + Self.stateText(app, newApps: state.newApps),
                          control: Switch(isOn: recorded) { [unowned self] on in
                              change(localized("Record {app}", ["app": name])) { client in try await client.setAppOptedOut(app.appID, !on) }
                          }.accessibleLabel(localized("Record {app}", ["app": name]))), to: apps)
            for site in app.sites { add(siteRow(site, in: name, keptOut: state.optedOutSites.contains(site)), to: apps) }
        }
        let sitesSeen = Set(state.apps.flatMap(\.sites))
        for site in state.optedOutSites where !sitesSeen.contains(site) {
            // TRANSLATORS: where a site kept out of recording is, when no browser that played it is listed: "Site in every web browser".
            add(siteRow(site, in: localized("every web browser"), keptOut: true), to: apps)
        }
        if state.apps.isEmpty { add(ActionRow(title: localized("No app has played yet")), to: apps) }
        for reader in state.readers {
            let name = reader.appName ?? reader.appID
            add(ActionRow(title: name, subtitle: reader.appID, control: Switch(isOn: reader.access == .allowed) { [unowned self] on in
                change(localized("Let {app} read", ["app": name])) { client in try await client.setReaderAccess(reader.appID, on ? .allowed : .denied) }
            }.accessibleLabel(localized("Let {app} read", ["app": name]))), to: readers)
        }
        if state.readers.isEmpty { add(ActionRow(title: localized("No sandboxed app has asked to read")), to: readers) }
        showSuggestions(state)
        for listen in state.recentListens { add(listenRow(listen), to: listens) }
        if state.recentListens.isEmpty { add(ActionRow(title: localized("Nothing has been kept yet")), to: listens) }
        let appNames = Dictionary(state.apps.map { ($0.appID, $0.appName ?? $0.appID) }) { first, _ in first }
        for rule in state.rules { add(ruleRow(rule, in: appNames[rule.appID] ?? rule.appID), to: corrections) }
        if state.rules.isEmpty { add(ActionRow(title: localized("No corrections apply to later plays")), to: corrections) }
    }

    /// A kept listen: its words, the app and when, and a button to correct it.
    private func listenRow(_ listen: GenericMedia) -> ActionRow {
        let title = listen.title ?? localized("Untitled")
        let words = WordsLine.of(title: title, artists: listen.artists)
        let app = listen.appName ?? listen.appID ?? localized("An app")
        return ActionRow(title: words, // TRANSLATORS: a kept listen's line: the app that played it, and when.
                         subtitle: localized("{app} · {time}", ["app": app, "time": LocalClockText.text(of: listen.date)]),
                         // The label is the button's child, not its mnemonic label: GTK 4.8 would read
                         // a mnemonic label after the accessible name ("Edit Teardrop Edit…").
                         control: Button(child: Label(localized("Edit…"))) { [unowned self] in correct(listen) }
                             .accessibleLabel(localized("Edit {title}", ["title": title]))
                             .align(vertical: .center))
    }

    /// A correction kept for later plays, and a button to stop it; the listens it corrected stay
    /// corrected.
    private func ruleRow(_ rule: CorrectionRuleInfo, in app: String) -> ActionRow {
        ActionRow(title: WordsLine.rule(rule, in: app), subtitle: localized("Since {time}", ["time": LocalClockText.text(of: rule.created)]),
                  control: Button(child: Label(localized("Remove"))) { [unowned self] in
                      change(localized("The correction of {title}", ["title": rule.title]), thenReload: true) { client in try await client.removeRule(rule.id) }
                  }
                  .accessibleLabel(localized("Remove correction of {title}", ["title": rule.title]))
                  .align(vertical: .center))
    }

    /// The daily suggestion: when it comes (or off), and the journal app it opens. Both are
    /// changed in a dialog, as New apps is.
    private func showSuggestions(_ state: SettingsState) {
        let time = state.suggestionTime
        add(ActionRow(title: localized("Suggest a moment to write about"),
                      subtitle: time.map { localized("Every day at {time}", ["time": $0]) } ?? localized("Off"),
                      control: Button(child: Label(localized("Change…"))) { [unowned self] in
                          SuggestionDialogs.askForTime(over: window.window, current: time) { [unowned self] chosen in
                              change(localized("The daily suggestion"), thenReload: true) { client in try await client.setSuggestionTime(chosen) }
                          }
                      }.accessibleLabel(localized("Change the daily suggestion")).align(vertical: .center)), to: suggestions)
        let chosen = state.journalApp.map { id in state.journalApps.first { $0.id == id }?.name ?? id }
        add(ActionRow(title: localized("Open with"),
                      subtitle: chosen ?? (state.journalApps.isEmpty ? localized("No journal app is installed") : localized("No journal app chosen")),
                      control: Button(child: Label(localized("Choose…"))) { [unowned self] in
                          SuggestionDialogs.chooseJournalApp(over: window.window, apps: state.journalApps) { [unowned self] id in
                              change(localized("The journal app"), thenReload: true) { client in try await client.setJournalApp(id) }
                          }
                      }.accessibleLabel(localized("Choose the journal app")).align(vertical: .center)), to: suggestions)
    }

    /// A site in browsers, recorded unless kept out.
    private func siteRow(_ site: String, in browser: String, keptOut: Bool) -> ActionRow {
        ActionRow(title: site, subtitle: localized("Site in {browser}", ["browser": browser]), control: Switch(isOn: !keptOut) { [unowned self] on in
            change(localized("Record {site}", ["site": site])) { client in try await client.setSiteOptedOut(site, !on) }
        }.accessibleLabel(localized("Record {site}", ["site": site])))
    }

    static func pauseText(_ pause: RecordingPause?) -> String {
        switch pause {
        case nil: localized("Stop recording for a while")
        case .untilResumed: localized("Paused until you resume")
        case .until(let end): localized("Paused until {time}", ["time": LocalClockText.text(of: end)])
        }
    }

    static func newAppsText(_ mode: NewAppsMode) -> String {
        switch mode {
        case .record: localized("Recorded at once")
        case .ask: localized("You are asked before one is recorded")
        case .ignore: localized("Not recorded: only the apps switched on are")
        }
    }

    static func stateText(_ app: AppInfo, newApps: NewAppsMode) -> String {
        if app.isOptedOut { return app.optedOutBy == .app ? " · " + localized("opted out by the app") : "" }
        if app.isAllowed || newApps == .record { return "" }
        return " · " + (newApps == .ask ? localized("asks first") : localized("new, not recorded"))
    }

    // MARK: Changing

    /// Makes `call`; when it fails, says so, and the window is read again, so every control shows
    /// what the broker really keeps. `thenReload`: read it again after success too, for a change
    /// that other rows' words follow (until when a pause lasts, what a new app's state means).
    private func change(_ what: String, thenReload: Bool = false, _ call: @escaping @Sendable (MediaBrokerClient) async throws -> Void) {
        let client = client
        Task.detached {
            do {
                try await call(client)
                if thenReload { MainThread.perform { [self] in load() } }
            } catch {
                MainThread.perform { [self] in
                    // TRANSLATORS: {what} is a setting's name, as "Record listening" or "The daily suggestion".
                    report(localized("{what} could not be changed: {error}", ["what": what, "error": String(describing: error)]))
                    load()
                }
            }
        }
    }

    /// Turning the pause on asks for how long; Cancel leaves recording on.
    private func askHowLongToPause() {
        let dialog = MessageDialog(over: window.window, heading: localized("Pause Recording?"),
                                   body: localized("Nothing is recorded until the pause ends; a listen playing now is dropped."))
        dialog.addAnswer("cancel", localized("Cancel"))
        dialog.addAnswer("30m", localized("For 30 minutes"))
        dialog.addAnswer("1h", localized("For 1 hour"))
        dialog.addAnswer("tomorrow", localized("Until tomorrow"))
        dialog.addAnswer("resume", localized("Until I resume"), style: .suggested)
        dialog.present(cancel: "cancel") { [unowned self] answer in
            let now = Date()
            let until: Date?
            switch answer {
            case "30m": until = now.addingTimeInterval(30 * 60)
            case "1h": until = now.addingTimeInterval(3600)
            // 04:00 tomorrow, when a listening day begins (as `broker-ctl pause --until tomorrow`).
            case "tomorrow": until = Calendar.current.date(bySettingHour: 4, minute: 0, second: 0,
                                                            of: now.addingTimeInterval(86_400))
            case "resume": until = nil
            default:
                turningBack = true
                pauseSwitch?.isOn = false
                turningBack = false
                return
            }
            change(localized("Pause recording"), thenReload: true) { client in try await client.pause(until: until) }
        }
    }

    /// What becomes of a new app, chosen in a dialog.
    private func askAboutNewApps() {
        let dialog = MessageDialog(over: window.window, heading: localized("New Apps"),
                                   body: localized("An app you have not switched on or off yet, the first time it plays."))
        dialog.addAnswer("cancel", localized("Cancel"))
        dialog.addAnswer(NewAppsMode.record.rawValue, localized("Record at once"))
        dialog.addAnswer(NewAppsMode.ask.rawValue, localized("Ask me first"))
        dialog.addAnswer(NewAppsMode.ignore.rawValue, localized("Don’t record"))
        dialog.present(cancel: "cancel") { [unowned self] answer in
            guard let mode = NewAppsMode(rawValue: answer) else { return }
            change(localized("New apps"), thenReload: true) { client in try await client.setNewApps(mode) }
        }
    }

    /// Corrects `listen` as the person says in the dialog — for later plays too, if asked — or puts
    /// back its first words; the window is read again either way, so the rows show the words and
    /// the corrections the broker now keeps.
    private func correct(_ listen: GenericMedia) {
        CorrectionDialog.present(over: window.window, listen: listen) { [unowned self] answer in
            let client = client
            let title = listen.title ?? localized("Untitled")
            Task.detached {
                let failure: (heading: String, body: String)?
                do throws(MediaBrokerError) {
                    switch answer {
                    case .save(let changes, let fromNowOn):
                        _ = try await client.editMedia(listen.id, title: changes.title, artists: changes.artists, album: changes.album,
                                                       fromNowOn: fromNowOn)
                    case .restoreOriginal:
                        _ = try await client.undoEdit(listen.id)
                    }
                    failure = nil
                } catch {
                    failure = Self.correctionFailure(error, title: title, restoring: answer.isRestore)
                }
                MainThread.perform { [self] in
                    if let failure { report(failure.body, heading: failure.heading) }
                    load()
                }
            }
        }
    }

    /// What the person reads when a correction fails. Restoring a listen that was never corrected
    /// is refused by the broker (InvalidArgs, "holds no correction"): that is said plainly, as
    /// nothing is wrong.
    nonisolated static func correctionFailure(_ error: MediaBrokerError, title: String, restoring: Bool) -> (heading: String, body: String) {
        if restoring, case .invalidArguments(let why) = error, why.contains("holds no correction") {
            return (localized("Nothing to Restore"), localized("“{title}” has not been corrected: it already reads as it was recorded.", ["title": title]))
        }
        let body = restoring ? localized("“{title}” could not be restored: {error}", ["title": title, "error": error.description])
            : localized("“{title}” could not be corrected: {error}", ["title": title, "error": error.description])
        return (somethingWentWrong, body)
    }

    private func confirmDeletion() {
        let dialog = MessageDialog(over: window.window, heading: localized("Delete All Listening History?"),
                                   body: localized("Every listen MediaBroker kept, and its art, is deleted. Apps that already received listens keep them."))
        // Without mnemonics: GTK 4.8 would read a response's underscore into its accessible name.
        dialog.addAnswer("cancel", localized("Cancel"))
        dialog.addAnswer("delete", localized("Delete"), style: .destructive)
        dialog.present(cancel: "cancel") { [unowned self] answer in
            guard answer == "delete" else { return }
            change(localized("The history")) { client in _ = try await client.purge(.all) }
        }
    }

    private nonisolated static var somethingWentWrong: String { localized("Something Went Wrong") }

    private func report(_ message: String, heading: String = somethingWentWrong) {
        let dialog = MessageDialog(over: window.window, heading: heading, body: message)
        dialog.addAnswer("close", localized("Close"))
        dialog.present(cancel: "close") { _ in }
    }
}

/// What the settings window shows, read in one go.
struct SettingsState: Sendable {
    var mediaEnabled = true
    var pause: RecordingPause?
    var retentionDays = 0
    var newApps = NewAppsMode.record
    var optedOutSites: [String] = []
    var apps: [AppInfo] = []
    var readers: [ReaderInfo] = []
    /// The most recent kept listens, newest first.
    var recentListens: [GenericMedia] = []
    /// The corrections applied to later plays, oldest first.
    var rules: [CorrectionRuleInfo] = []
    /// The daily suggestion's time (`nil`: off), the journal app it opens, the journal apps installed.
    var suggestionTime: String?
    var journalApp: String?
    var journalApps: [JournalAppInfo] = []
    var error: MediaBrokerError?

    /// How many recent listens the window shows: enough to find the one just heard.
    static let recentListenCount = 10

    static func read(from client: MediaBrokerClient) async -> SettingsState {
        var state = SettingsState()
        do throws(MediaBrokerError) {
            state.mediaEnabled = try await client.isMediaEnabled()
            state.pause = try await client.currentPause()
            state.retentionDays = try await client.retentionDays()
            state.newApps = try await client.newApps()
            state.optedOutSites = try await client.optedOutSites()
            state.apps = try await client.apps()
            state.readers = try await client.readers()
            state.recentListens = try await client.recentMedia(limit: recentListenCount)
            state.rules = try await client.rules()
            state.suggestionTime = try await client.suggestionTime()
            state.journalApp = try await client.journalApp()
            state.journalApps = try await client.journalApps()
        } catch {
            state.error = error
        }
        return state
    }
}
