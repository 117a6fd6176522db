import Clocks
public import FoundationEssentials
import SwiftDBus

/// The person's controls: the Media toggle, a pause, per-app opt-out, retention and purge.
extension MediaBrokerClient {
    /// Pauses recording (nothing is recorded from any source, a listen in progress is discarded)
    /// for `duration`, until `date`, or, with neither, until ``resume()``. Interface version 6.
    public func pause(for duration: Duration? = nil, until date: Date? = nil) async throws(MediaBrokerError) {
        var options: [String: DBusValue] = [:]
        if let duration { options["duration"] = .int64(duration.wholeMicroseconds) }
        if let date { options["until"] = .int64(date.microsecondsSinceEpoch) }
        _ = try await call("Pause", [.vardict(options)])
    }

    /// Ends a pause now; nothing happens when recording is not paused.
    public func resume() async throws(MediaBrokerError) {
        _ = try await call("Resume", [])
    }

    /// The pause in force, `nil` when recording is not paused.
    public func currentPause() async throws(MediaBrokerError) -> RecordingPause? {
        guard let value = try? await property("PausedUntil").integer(as: Int64.self) else { throw Self.unexpected("PausedUntil") }
        switch value {
        case 0: return nil
        case .max: return .untilResumed
        default: return .until(Date(microsecondsSinceEpoch: value))
        }
    }

    /// The Media toggle. Off: nothing new is recorded, and journaling apps get no media.
    public func isMediaEnabled() async throws(MediaBrokerError) -> Bool {
        guard let value = try? await property("MediaEnabled").boolean() else { throw Self.unexpected("MediaEnabled") }
        return value
    }

    public func setMediaEnabled(_ enabled: Bool) async throws(MediaBrokerError) {
        try await setProperty("MediaEnabled", .boolean(enabled))
    }

    /// Days after which assets are deleted automatically; 0 keeps them forever.
    public func retentionDays() async throws(MediaBrokerError) -> Int {
        guard let value = try? await property("RetentionDays").integer(as: Int.self) else { throw Self.unexpected("RetentionDays") }
        return value
    }

    public func setRetentionDays(_ days: Int) async throws(MediaBrokerError) {
        guard let value = UInt32(exactly: days) else { throw .invalidArguments("retention must be 0 or more days, not \(days)") }
        try await setProperty("RetentionDays", .uint32(value))
    }

    /// The ids of the apps opted out, by the person or by themselves.
    public func optedOutApps() async throws(MediaBrokerError) -> [String] {
        guard let value = try? await property("OptedOutApps").strings() else { throw Self.unexpected("OptedOutApps") }
        return value
    }

    /// The person keeps `site` (a host such as `youtube.com`) out of the history in every web
    /// browser, or lets it in again. Interface version 7.
    public func setSiteOptedOut(_ site: String, _ optedOut: Bool) async throws(MediaBrokerError) {
        _ = try await call("SetSiteOptedOut", [.string(site), .boolean(optedOut)])
    }

    /// The sites kept out of the history in web browsers. Interface version 7.
    public func optedOutSites() async throws(MediaBrokerError) -> [String] {
        guard let value = try? await property("OptedOutSites").strings() else { throw Self.unexpected("OptedOutSites") }
        return value
    }

    /// What becomes of an app the person has neither allowed nor opted out. Interface version 7.
    public func newApps() async throws(MediaBrokerError) -> NewAppsMode {
        guard let value = try? await property("NewApps").string(), let mode = NewAppsMode(rawValue: value) else {
            throw Self.unexpected("NewApps")
        }
        return mode
    }

    /// Sets what becomes of new apps; leaving `record`, the apps in the history count as allowed.
    public func setNewApps(_ mode: NewAppsMode) async throws(MediaBrokerError) {
        try await setProperty("NewApps", .string(mode.rawValue))
    }

    /// The person's opt-out of one app: from now on nothing of it is recorded and its past assets
    /// are never returned (they stay in the history until purged). `false` clears any opt-out and
    /// allows the app, so it is recorded whatever ``newApps()`` says (interface version 7).
    public func setAppOptedOut(_ appID: String, _ optedOut: Bool) async throws(MediaBrokerError) {
        _ = try await call("SetAppOptedOut", [.string(appID), .boolean(optedOut)])
    }

    /// Every app seen or registered, with its opt-out state.
    public func apps() async throws(MediaBrokerError) -> [AppInfo] {
        let reply = try await call("Apps", [])
        guard let items = try? reply.first?.array() else { throw Self.unexpected("Apps") }
        return items.compactMap { item -> AppInfo? in
            guard let fields = try? item.vardict(), let id = try? fields["app_id"]?.string() else { return nil }
            return AppInfo(
                appID: id, appName: try? fields["app_name"]?.string(), appIcon: try? fields["app_icon"]?.string(),
                isOptedOut: (try? fields["opted_out"]?.boolean()) ?? false,
                optedOutBy: (try? fields["opted_out_by"]?.string()).flatMap(AppInfo.OptedOutBy.init(rawValue:)),
                isAllowed: (try? fields["allowed"]?.boolean()) ?? false,
                sites: (try? fields["sites"]?.strings()) ?? [],
                listens: (try? fields["listens"]?.integer(as: Int.self)) ?? 0,
                lastSeen: (try? fields["last_seen"]?.integer(as: Int64.self)).map(Date.init(microsecondsSinceEpoch:)))
        }
    }

    /// Deletes assets for good; returns how many.
    public func purge(_ scope: PurgeScope) async throws(MediaBrokerError) -> Int {
        var filter: [String: DBusValue] = [:]
        switch scope {
        case .app(let id): filter["app_id"] = .string(id)
        case .site(let site): filter["site"] = .string(site)
        case .range(let since, let until):
            if let since { filter["since"] = .int64(since.microsecondsSinceEpoch) }
            if let until { filter["until"] = .int64(until.microsecondsSinceEpoch) }
        case .all: filter["all"] = .boolean(true)
        }
        let reply = try await call("Purge", [.vardict(filter)])
        guard let count = try? reply.first?.integer(as: Int.self) else { throw Self.unexpected("Purge") }
        return count
    }

    /// Donates a listen directly; returns the asset's id. Subject to the Media toggle
    /// (``MediaBrokerError/mediaDisabled``) and opt-outs like everything else.
    public func donate(_ donation: Donation) async throws(MediaBrokerError) -> Int64 {
        var media: [String: DBusValue] = ["app_id": .string(donation.appID), "title": .string(donation.title)]
        if !donation.artists.isEmpty { media["artists"] = .strings(donation.artists) }
        if let album = donation.album { media["album"] = .string(album) }
        if let started = donation.started { media["started"] = .int64(started.microsecondsSinceEpoch) }
        if let length = donation.length { media["length"] = .int64(length.wholeMicroseconds) }
        if let listened = donation.listened { media["listened"] = .int64(listened.wholeMicroseconds) }
        let reply = try await call("Donate", [.vardict(media)])
        guard let id = try? reply.first?.integer(as: Int64.self) else { throw Self.unexpected("Donate") }
        return id
    }

    // MARK: Properties

    func property(_ name: String) async throws(MediaBrokerError) -> DBusValue {
        let reply = try await call("Get", [.string(Self.interfaceName), .string(name)], interface: .properties)
        guard let value = reply.first?.unwrapped else { throw Self.unexpected(name) }
        return value
    }

    func setProperty(_ name: String, _ value: DBusValue) async throws(MediaBrokerError) {
        _ = try await call("Set", [.string(Self.interfaceName), .string(name), .variant(value)], interface: .properties)
    }
}
