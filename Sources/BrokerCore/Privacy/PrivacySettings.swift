import AssetContract
/// The person's decisions: the Media toggle, a pause, how long history is kept, which apps are
/// never recorded (and by whose decision), which are allowed, and what happens to a new app.
///
/// Persisted as one text value in the store's `settings` table, so a change is a single
/// transaction in the same database as the data — a crash leaves the old settings or the new
/// ones, never half of them.
package struct PrivacySettings: Sendable, Equatable {
    /// Who opted an app out. The person's decision outranks the app's: an app can withdraw only
    /// its own opt-out.
    package enum OptOutSource: String, Sendable, Hashable {
        case user, app
    }

    static let defaultRetentionDays: UInt32 = 90
    /// About 27 years: anything larger is surely a mistake, and keeps day arithmetic in range.
    package static let maximumRetentionDays: UInt32 = 10_000

    /// What becomes of an app the person has neither allowed nor opted out (`new_apps`).
    package enum NewApps: String, Sendable, CaseIterable {
        /// Recorded at once (the default, and every broker before version 7).
        case record
        /// Its listens are held in memory while the person is asked once (``AppQuestions``).
        case ask
        /// Not recorded: only the apps the person allowed are.
        case ignore
    }

    package var mediaEnabled = true
    /// Assets older than this many days are deleted automatically; 0 keeps them forever.
    package var retentionDays = PrivacySettings.defaultRetentionDays
    package var optOuts: [String: OptOutSource] = [:]
    /// Sandboxed apps the person allowed or refused to read the history, by app id (issue 20).
    package var readers: [String: ReaderGrant] = [:]
    /// Until when recording is paused (wall clock): ``untilResumed`` until the person resumes it;
    /// `nil` when it is not paused. The ``SettingsKeeper``'s one timer ends a pause at its time.
    package var pausedUntil: Microseconds?
    package var newApps = NewApps.record
    /// Apps the person allowed (`SetAppOptedOut(…, false)`, *Record* in a question): recorded
    /// whatever ``newApps`` says, until opted out.
    package var allowedApps: Set<String> = []
    /// Sites the person keeps out of the history, whatever browser plays them (``BrowserSites``).
    package var optedOutSites: Set<String> = []

    /// ``pausedUntil`` of a pause that lasts until the person resumes.
    package static let untilResumed = Microseconds.max

    package init(mediaEnabled: Bool = true, retentionDays: UInt32 = PrivacySettings.defaultRetentionDays, optOuts: [String: OptOutSource] = [:],
                readers: [String: ReaderGrant] = [:], pausedUntil: Microseconds? = nil, newApps: NewApps = .record,
                allowedApps: Set<String> = [], optedOutSites: Set<String> = []) {
        self.mediaEnabled = mediaEnabled
        self.retentionDays = retentionDays
        self.optOuts = optOuts
        self.readers = readers
        self.pausedUntil = pausedUntil
        self.newApps = newApps
        self.allowedApps = allowedApps
        self.optedOutSites = optedOutSites
    }

    /// Whether the sandboxed app `appID` may read the history now.
    func allowsReading(_ appID: String) -> Bool { readers[appID]?.access == .allowed }

    /// Whether anything from `appID` may be recorded or shown now: not while Media is off or
    /// recording is paused, never for an opted-out app, and for an app the person has not decided
    /// about only when new apps are recorded.
    package func allows(_ appID: String) -> Bool { mediaEnabled && pausedUntil == nil && recordsApp(appID) }

    /// Whether a listen of `appID` on the page of `site` may be recorded or shown now: as
    /// ``allows(_:)`` says, and never on an opted-out site.
    package func allows(_ appID: String, site: String?) -> Bool {
        allows(appID) && !isOptedOut(site: site)
    }

    /// Whether `site` falls under a site the person opted out.
    package func isOptedOut(site: String?) -> Bool {
        guard let site, !optedOutSites.isEmpty else { return false }
        return optedOutSites.contains { BrowserSites.site(site, fallsUnder: $0) }
    }

    /// Whether `appID` is recorded when recording is on: not opted out, and allowed or new apps recorded.
    package func recordsApp(_ appID: String) -> Bool {
        optOuts[appID] == nil && (newApps == .record || allowedApps.contains(appID))
    }

    /// Whether the person is to be asked before `appID` is recorded: new apps are asked about,
    /// recording is on, and the person has neither allowed nor opted out the app.
    package func awaitsAnswer(about appID: String) -> Bool {
        newApps == .ask && mediaEnabled && pausedUntil == nil && optOuts[appID] == nil && !allowedApps.contains(appID)
    }

    /// These settings with `appID` allowed: what they would have been had the person answered
    /// before the listens held for the answer were played.
    package func allowing(_ appID: String) -> PrivacySettings {
        var allowed = self
        allowed.allowedApps.insert(appID)
        return allowed
    }

    /// Whether a pause is over at `now` (one that lasts until the person resumes never is).
    package func pauseHasEnded(at now: Microseconds) -> Bool {
        guard let pausedUntil, pausedUntil != Self.untilResumed else { return false }
        return pausedUntil <= now
    }

    package var optedOutApps: [String] { optOuts.keys.sorted() }

    /// How far back assets are kept, in microseconds; `nil` when they are kept forever.
    package var retentionWindow: Microseconds? {
        retentionDays == 0 ? nil : Microseconds(retentionDays) * 86_400_000_000
    }

    /// Whether retention would delete an asset that started at `started`, seen at `now`.
    func hasExpired(started: Microseconds, now: Microseconds) -> Bool {
        guard let retentionWindow else { return false }
        return started < now - retentionWindow
    }

    // MARK: Persistence

    /// The key the settings are stored under.
    package static let storeKey = "privacy"

    /// One `key=value` per line, opt-outs sorted, so the stored text is stable and readable.
    package var encoded: String {
        var lines = ["media_enabled=\(mediaEnabled ? 1 : 0)", "retention_days=\(retentionDays)"]
        // Only ids by the rule are written: one that is not could carry a line of its own.
        for app in optedOutApps where AssetContract.isAppID(app) {
            if let source = optOuts[app] { lines.append("opt_out=\(source.rawValue):\(app)") }
        }
        for app in readers.keys.sorted() where AssetContract.isAppID(app) {
            if let grant = readers[app] { lines.append("reader=" + grant.encoded(appID: app)) }
        }
        // Written only while paused: settings that never paused stay readable by older brokers.
        if let pausedUntil { lines.append("paused_until=" + (pausedUntil == Self.untilResumed ? "resume" : String(pausedUntil))) }
        // Likewise written only when not the default.
        if newApps != .record { lines.append("new_apps=\(newApps.rawValue)") }
        for app in allowedApps.sorted() where AssetContract.isAppID(app) { lines.append("allow=\(app)") }
        for site in optedOutSites.sorted() where AssetContract.site(normalizing: site) == site { lines.append("opt_out_site=\(site)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A stored value that could not be read, naming the line.
    package struct DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
        package var line: Int
        package var reason: String
        package var description: String { "line \(line): \(reason)" }
    }

    /// Reads what ``encoded`` wrote. Unknown keys are errors too: a setting we do not understand
    /// might be a privacy decision we would silently drop.
    package init(decoding text: String) throws(DecodingError) {
        self.init()
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = rawLine.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw DecodingError(line: number, reason: "expected key=value, found '\(line.prefix(80))'")
            }
            let key = line[..<equals].trimmingSpaces
            let value = line[line.index(after: equals)...].trimmingSpaces
            switch key {
            case "media_enabled":
                guard value == "0" || value == "1" else { throw DecodingError(line: number, reason: "media_enabled must be 0 or 1") }
                mediaEnabled = value == "1"
            case "retention_days":
                guard let days = UInt32(value), days <= Self.maximumRetentionDays else {
                    throw DecodingError(line: number, reason: "retention_days must be 0…\(Self.maximumRetentionDays)")
                }
                retentionDays = days
            case "opt_out":
                guard let colon = value.firstIndex(of: ":"), let source = OptOutSource(rawValue: String(value[..<colon])) else {
                    throw DecodingError(line: number, reason: "opt_out must be user:APP or app:APP")
                }
                let app = String(value[value.index(after: colon)...])
                guard AssetContract.isAppID(app) else { throw DecodingError(line: number, reason: "opt_out: \(AssetContract.appIDRule)") }
                optOuts[app] = source
            case "reader":
                guard let (app, grant) = ReaderGrant.decode(value) else {
                    throw DecodingError(line: number, reason: "reader must be allowed|denied:DECIDED:LASTREAD|-:APP")
                }
                readers[app] = grant
            case "paused_until":
                if value == "resume" {
                    pausedUntil = Self.untilResumed
                } else {
                    guard let until = Microseconds(value), until > 0 else {
                        throw DecodingError(line: number, reason: "paused_until must be a time in microseconds or 'resume'")
                    }
                    pausedUntil = until
                }
            case "new_apps":
                guard let mode = NewApps(rawValue: String(value)) else {
                    throw DecodingError(line: number, reason: "new_apps must be record, ask or ignore")
                }
                newApps = mode
            case "opt_out_site":
                guard let site = AssetContract.site(normalizing: value), site == value else {
                    throw DecodingError(line: number, reason: "opt_out_site must be a host name, like example.com")
                }
                optedOutSites.insert(site)
            case "allow":
                let app = String(value)
                guard AssetContract.isAppID(app) else { throw DecodingError(line: number, reason: "allow: \(AssetContract.appIDRule)") }
                allowedApps.insert(app)
            default:
                throw DecodingError(line: number, reason: "unknown setting '\(key.prefix(80))'")
            }
        }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return text
    }
}

extension PrivacySettings {
    /// What journaling apps may see of `playing`: nothing with Media off, nothing of an opted-out
    /// app, and only assets within the contract's bounds.
    package func shown(_ playing: [MediaAsset]) -> [MediaAsset] {
        guard mediaEnabled else { return [] }
        return playing.filter { allows($0.appID, site: $0.site) }.compactMap(\.bounded)
    }
}
