import Clocks
import Localization
import SwiftDBus
import BrokerCore

/// The daily journaling suggestion (issue 35): once a day at the person's time, when the day holds
/// a moment worth writing about (``DailySuggestion``), one notification — the moment's title and
/// time, its art, *Write about it* and *Not today*; *Write about it* opens the person's journal
/// app at that moment (``JournalLauncher``), handing it the suggestion's id in its URL.
///
/// One timer, armed only while suggestions are on. Nothing is sent while recording is off or
/// paused, nor twice on one listening day (``SuggestionSettings/lastDay``); a day missed while the
/// broker was down is not made up.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread (calls, the timer, completions handed back with `loop.execute`).
final class JournalSuggestions: @unchecked Sendable {
    static let writeAction = "default"
    static let notTodayAction = "not-today"

    private let connection: BusConnection
    private let store: HistoryStore
    private let queries: HistoryQueries
    private let privacy: CurrentSettings
    private let notifications: DesktopNotifications
    private let resolver: AppResolver
    private let launcher: JournalLauncher
    private let copier: CopyPicker
    private let localTime: LocalTime
    private let log: Log
    private var settings: SuggestionSettings
    private var tokens = SuggestionTokens()
    private var timer: TimerToken?
    private var shown: DesktopNotifications.Shown?

    init(connection: BusConnection, store: HistoryStore, queries: HistoryQueries, privacy: CurrentSettings,
         notifications: DesktopNotifications, resolver: AppResolver, launcher: JournalLauncher, copier: CopyPicker,
         settings: SuggestionSettings, localTime: LocalTime = .system, log: Log) {
        self.connection = connection
        self.store = store
        self.queries = queries
        self.privacy = privacy
        self.notifications = notifications
        self.resolver = resolver
        self.launcher = launcher
        self.copier = copier
        self.settings = settings
        self.localTime = localTime
        self.log = log
    }

    /// Arms the timer, when suggestions are on.
    func start() {
        arm()
    }

    func stop() {
        timer?.cancel()
        timer = nil
        if let shown { notifications.withdraw(shown) }
        shown = nil
        copier.stop()
    }

    // MARK: The interface

    /// `SuggestAt`: `HH:MM` (or `HH:MM:SS`), local; empty while suggestions are off.
    var suggestAt: String { settings.time?.text ?? "" }

    /// `JournalApp`: the desktop-file id of the journal app suggestions open; empty for none.
    var journalApp: String { settings.journalApp ?? "" }

    func setSuggestAt(_ value: DBusValue, done: @escaping @Sendable (BusError?) -> Void) {
        guard case .string(let text) = value else { return done(.invalidArgs("SuggestAt is a string")) }
        let time: TimeOfDay?
        if text.isEmpty {
            time = nil
        } else {
            guard let parsed = TimeOfDay(parsing: text) else {
                return done(.invalidArgs("SuggestAt is HH:MM or HH:MM:SS (24-hour, local time), or empty for off"))
            }
            time = parsed
        }
        change(property: "SuggestAt", { $0.time = time }, done: done)
    }

    /// A journal app is one installed with a usable suggestion URL; empty chooses none.
    func setJournalApp(_ value: DBusValue, done: @escaping @Sendable (BusError?) -> Void) {
        guard case .string(let text) = value else { return done(.invalidArgs("JournalApp is a string")) }
        let id = text.hasSuffix(".desktop") ? String(text.dropLast(".desktop".count)) : text
        guard !id.isEmpty else { return change(property: "JournalApp", { $0.journalApp = nil }, done: done) }
        guard SuggestionSettings.isDesktopID(id) else { return done(.invalidArgs("'\(id.prefix(255))' is not a desktop-file id")) }
        resolver.journalApps { [self, loop = connection.loop] apps in
            loop.execute { [self] in
                guard let app = apps.first(where: { $0.id == id }) else {
                    return done(.invalidArgs("no installed journal app has the id '\(id)' (see JournalApps)"))
                }
                if case .failure(let problem) = app.template {
                    return done(.invalidArgs("\(id) cannot take suggestions: its suggestion URL cannot be used: \(problem)"))
                }
                change(property: "JournalApp", { $0.journalApp = id }, done: done)
            }
        }
    }

    /// `JournalApps() → aa{sv}`: the installed journal apps, with whether each can take a suggestion.
    func journalApps(_ call: MethodInvocation) {
        resolver.journalApps { apps in
            call.reply([.array(element: .vardict, apps.map { app in
                var fields: [String: DBusValue] = ["id": .string(app.id), "name": .string(app.name)]
                if let icon = app.icon { fields["icon"] = .string(icon) }
                switch app.template {
                case .success(let template): fields["url"] = .string(template.text)
                case .failure(let problem): fields["problem"] = .string("\(problem)")
                }
                return .vardict(fields)
            })])
        }
    }

    private func change(property: MemberName, _ update: (inout SuggestionSettings) -> Void,
                        done: @escaping @Sendable (BusError?) -> Void) {
        var after = settings
        update(&after)
        guard after != settings else { return done(nil) }
        let turnedOn = !settings.isOn && after.isOn
        settings = after
        if turnedOn { log.info("journaling suggestions are on, at \(suggestAt)") }
        arm()
        connection.emitPropertiesChanged(path: BrokerContract.objectPath, interface: BrokerContract.interface, names: [property])
        save(done: done)
    }

    private func save(done: @escaping @Sendable (BusError?) -> Void = { _ in }) {
        store.setSetting(SuggestionSettings.storeKey, settings.encoded) { [log] result in
            if case .failure(let error) = result {
                log.error("could not save the suggestion settings: \(error)")
                done(.failed("the suggestion settings apply now but could not be saved: \(error)"))
            } else {
                done(nil)
            }
        }
    }

    // MARK: The day's suggestion

    /// Arms the one timer for the next time of day, or none while suggestions are off.
    private func arm() {
        timer?.cancel()
        timer = nil
        guard let time = settings.time else { return }
        let now = WallClock.now
        let next = DailySuggestion.nextTime(after: now, at: time, localTime: localTime)
        timer = connection.schedule(after: .microseconds(next - now)) { [self] in
            timer = nil
            // The timer counts on the monotonic clock; a clock set back or a suspend shifts it.
            let now = WallClock.now
            if now < next - 1_000_000 { return arm() }
            suggest(at: now)
            arm()
        }
    }

    private func suggest(at now: Microseconds) {
        let day = localTime.dayStart(containing: now)
        let privacy = privacy.value
        guard privacy.mediaEnabled, privacy.pausedUntil == nil else { return log.debug("no suggestion: recording is off or paused") }
        guard settings.lastDay != day else { return log.debug("no suggestion: one was made today already") }
        moments(since: day, until: now) { [self] today in
            if let choice = DailySuggestion.choose(today: today) { return show(choice, day: day) }
            let years = OnThisDay.days(sameDateAs: day, localTime: localTime, years: 1...DailySuggestion.yearsBack)
            readEarlier(years[...], found: [:]) { [self] earlier in
                guard let choice = DailySuggestion.choose(today: [], earlier: earlier) else {
                    return log.debug("no moment worth a suggestion today")
                }
                show(choice, day: day)
            }
        }
    }

    private func readEarlier(_ years: ArraySlice<OnThisDay.Day>, found: [Int: [Moment]],
                             then: @escaping @Sendable ([Int: [Moment]]) -> Void) {
        guard let year = years.first else { return then(found) }
        moments(since: year.since, until: year.until) { [self] moments in
            var found = found
            found[year.yearsAgo] = moments
            readEarlier(years.dropFirst(), found: found, then: then)
        }
    }

    /// The moments from `since` to `until` that readers may see (opted-out apps left out), on
    /// the connection's thread; none when they cannot be read.
    private func moments(since: Microseconds, until: Microseconds, then: @escaping @Sendable ([Moment]) -> Void) {
        guard let query = MomentsQuery(since: since, until: until, limit: MomentsQuery.maximumLimit).allowed(by: privacy.value) else {
            return then([])
        }
        let localTime = localTime
        queries.read({ history throws(SQLiteError) in try history.moments(query, localTime: localTime) ?? [] }) { [log, loop = connection.loop] result in
            loop.execute {
                switch result {
                case .success(let moments): then(moments)
                case .failure(let error):
                    log.warning("could not read the moments for a suggestion: \(error)")
                    then([])
                }
            }
        }
    }

    /// Shows `choice` with its art: a listen's, else its app's icon — as kept, or as the app's
    /// desktop file names it (a donating app may give none).
    private func show(_ choice: DailySuggestion.Choice, day: Microseconds) {
        let moment = choice.moment
        if let art = moment.assets.lazy.compactMap(\.artwork).first ?? moment.appIcon { return show(choice, day: day, art: art) }
        guard let appID = moment.appIDs.first else { return show(choice, day: day, art: nil) }
        resolver.identity(forAppID: appID) { [self, loop = connection.loop] app in
            loop.execute { [self] in show(choice, day: day, art: app.appIcon) }
        }
    }

    private func show(_ choice: DailySuggestion.Choice, day: Microseconds, art: String?) {
        var random = SystemRandomNumberGenerator()
        let token = (0..<4).map { _ in String(random.next() as UInt32, radix: 16) }
            .map { String(repeating: "0", count: 8 - $0.count) + $0 }.joined()
        tokens.remember(token, for: .init(momentID: choice.moment.id, started: choice.moment.started, ended: choice.moment.ended))
        settings.lastDay = day
        save()
        let moment = choice.moment
        let words = moment.localizedSummary(localTime: localTime)
        let line = choice.yearsAgo == 0 ? words
            // TRANSLATORS: the daily suggestion of a moment from past years: "On this day 2 years ago: Mezzanine — Massive Attack · 21:04–22:10 · 9 tracks".
            : localizedPlural("On this day a year ago: {moment}", "On this day {count} years ago: {moment}", count: choice.yearsAgo, ["moment": words])
        // Low urgency: an invitation, not an alert.
        var hints: [String: DBusValue] = ["urgency": .byte(0)]
        if let art { hints["image-path"] = .string(art) }
        let notice = DesktopNotifications.Notification(
            summary: choice.yearsAgo == 0 ? localized("Reflect on this moment") : localized("On this day"),
            body: NotificationMarkup.escaped(line),
            icon: moment.appIcon,
            actions: [(Self.writeAction, localized("Write about it")), (Self.notTodayAction, localized("Not today"))],
            hints: hints)
        if let shown { notifications.withdraw(shown) }
        log.info("suggesting the moment \(moment.id) (\(moment.title.text))")
        shown = notifications.show(notice, patience: nil) { [self] outcome in
            shown = nil
            switch outcome {
            case .chose(Self.writeAction, let activationToken): open(token, activationToken: activationToken)
            case .chose, .dismissed, .timedOut: break
            case .notShown(let reason): log.warning("the suggestion could not be shown: \(reason)")
            }
        }
    }

    /// *Write about it*: the chosen journal app, started at the suggestion; with none chosen, the
    /// broker's own picker, to copy the moment as text.
    private func open(_ token: String, activationToken: String?) {
        guard let id = settings.journalApp else {
            guard let suggested = tokens.moment(for: token) else { return }
            log.info("a suggestion was chosen with no journal app: the picker opens to copy it")
            return copier.open(at: suggested, activationToken: activationToken)
        }
        resolver.journalApps { [self, loop = connection.loop] apps in
            loop.execute { [self] in
                guard let app = apps.first(where: { $0.id == id }) else {
                    return log.warning("the journal app \(id) is no longer installed")
                }
                guard case .success(let template) = app.template else { return log.warning("\(id) cannot take suggestions") }
                launcher.launch(app, url: template.url(for: token), activationToken: activationToken) { [log] problem in
                    if let problem { log.warning("could not open \(id) at the suggestion: \(problem)") }
                }
            }
        }
    }

    /// The moment suggestion `token` was made for, for `PickMedia`'s `suggestion`; `nil` for an
    /// id the broker did not give (or no longer remembers).
    func moment(forSuggestion token: String) -> SuggestionTokens.Suggested? {
        tokens.moment(for: token)
    }
}
