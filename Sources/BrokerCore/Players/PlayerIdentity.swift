import AssetContract

/// Who a player is, as far as the broker knows yet: what its root interface said (`Identity`,
/// `DesktopEntry`), and the app resolved from that. Pure: the caller reads and resolves, and
/// tells the outcome.
///
/// The app is resolved only from an answer of the root interface, or — once the player was given
/// up on (``ReadRetry``) — from its bus name and process alone: a player that owns its name before
/// it exports its object (Firefox) is never recorded under a guess.
struct PlayerIdentity {
    /// `Identity` and `DesktopEntry`, bounded like metadata (a player's words are peer data too).
    private(set) var identity: String?
    private(set) var desktopEntry: String?
    /// The app as the resolver found it (desktop file, icon, sandbox); `nil` until resolved.
    private(set) var app: AppIdentity?
    /// The root interface answered.
    private(set) var isAnswered = false
    /// A read of the root interface or a lookup of the app is under way.
    var isFindingApp = false
    /// The owner's process, once the bus daemon was asked for its pid (`nil` inside: it did not say).
    var process: ConnectedProcess??
    private var retry = ReadRetry()

    /// What to do after a failed read of the root interface.
    enum AfterFailure: Equatable {
        /// Read it again after this many microseconds.
        case askAgain(after: Microseconds)
        /// Give up: resolve the app from the bus name and the process.
        case resolveWithout
        /// Nothing: an answer came already, or the app is known.
        case nothing
    }

    /// The root interface answered with its `Identity` and `DesktopEntry` (each `nil` when it
    /// told none, or not as text): resolve the app from them.
    mutating func answered(identity told: String?, desktopEntry entry: String?) {
        identity = told.flatMap(TrackMetadata.cleanText)
        desktopEntry = entry.flatMap(TrackMetadata.cleanText)
            .flatMap { $0.utf8.count <= AssetContract.maximumAppIDBytes && !$0.contains("/") ? $0 : nil }
        isAnswered = true
        retry = ReadRetry()
    }

    /// A read of the root interface failed at `now` (monotonic µs).
    mutating func failed(at now: Microseconds) -> AfterFailure {
        if isAnswered { return .nothing }
        if let delay = retry.failed(at: now) { return .askAgain(after: delay) }
        return app == nil ? .resolveWithout : .nothing
    }

    /// The resolver found `found`; whether it replaced another app.
    mutating func resolved(_ found: AppIdentity) -> (isNew: Bool, replaced: Bool) {
        defer { app = found }
        return (app?.appID != found.appID, app != nil && app != found)
    }

    /// The app id: the resolver's answer; until it comes, the desktop entry when the player names
    /// one, else the stem of its first bus name without an instance suffix (`vlc.instance7389` →
    /// `vlc`).
    func appID(busNames: Set<String>) -> String {
        if let app { return app.appID }
        if let desktopEntry, !desktopEntry.isEmpty { return desktopEntry }
        return busNames.sorted().first.map(PlayerClues.stem(ofBusName:)) ?? "unknown"
    }

    var appName: String? { app?.appName ?? identity }

    /// What the resolver is given, from the first of `busNames`; `nil` without a name.
    func clues(busNames: Set<String>) -> PlayerClues? {
        guard let busName = busNames.sorted().first else { return nil }
        return PlayerClues(busName: busName, desktopEntry: desktopEntry, identity: identity, process: process ?? nil)
    }
}
