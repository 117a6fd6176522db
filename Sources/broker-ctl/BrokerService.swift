import FoundationEssentials
import MediaDonationClient

/// What broker-ctl needs from the media broker. `MediaBrokerClient` provides it over D-Bus
/// (see LiveBroker.swift); tests provide a fake, so commands are checked without a bus.
///
/// The signatures are exactly `MediaBrokerClient`'s so its conformance is an empty extension.
protocol BrokerService: Sendable {
    /// Assets newest first; `since` inclusive, `until` exclusive, `limit` 1…1000, `before` an asset
    /// id to continue after when paging.
    func recentMedia(
        since: Date?, until: Date?, limit: Int, appID: String?, before: Int64?
    ) async throws(MediaBrokerError) -> [GenericMedia]

    /// Moments newest first (broker version 2): `limit` 1…200, `gap` 1 minute…6 hours;
    /// `onThisDay` (version 9) the same date in earlier years.
    func moments(
        since: Date?, until: Date?, limit: Int, gap: Duration?, appID: String?, before: String?, onThisDay: Date?
    ) async throws(MediaBrokerError) -> [Moment]

    /// The assets with these ids, in the order asked; unknown ids skipped. At most 1000.
    func media(ids: [Int64]) async throws(MediaBrokerError) -> [GenericMedia]

    /// What each active player plays now, as assets not yet finally recorded.
    func nowPlaying() async throws(MediaBrokerError) -> [GenericMedia]

    func status() async throws(MediaBrokerError) -> BrokerStatus

    /// The assets recorded from now on, until the broker leaves the bus or the bus connection is
    /// lost; subscribed on return.
    func mediaAdded() async throws(MediaBrokerError) -> AsyncStream<GenericMedia>

    /// Records a listen directly; returns the new asset's id. `.mediaDisabled` when Media is off.
    func donate(_ donation: Donation) async throws(MediaBrokerError) -> Int64

    /// The Media toggle.
    func isMediaEnabled() async throws(MediaBrokerError) -> Bool
    func setMediaEnabled(_ enabled: Bool) async throws(MediaBrokerError)

    /// Pauses recording (broker version 6): for `duration`, until `date`, or, with neither, until
    /// ``resume()``.
    func pause(for duration: Duration?, until date: Date?) async throws(MediaBrokerError)
    func resume() async throws(MediaBrokerError)
    /// The pause in force, `nil` when recording is not paused.
    func currentPause() async throws(MediaBrokerError) -> RecordingPause?

    /// Days after which assets expire; 0 keeps them forever.
    func retentionDays() async throws(MediaBrokerError) -> Int
    func setRetentionDays(_ days: Int) async throws(MediaBrokerError)

    /// Ids of the apps opted out, by the person or by themselves.
    func optedOutApps() async throws(MediaBrokerError) -> [String]
    /// The person's opt-out of one app.
    func setAppOptedOut(_ appID: String, _ optedOut: Bool) async throws(MediaBrokerError)
    /// Every app seen or registered, with its opt-out state.
    func apps() async throws(MediaBrokerError) -> [AppInfo]
    /// The person keeps a site out of the history in every web browser, or lets it in (broker version 7).
    func setSiteOptedOut(_ site: String, _ optedOut: Bool) async throws(MediaBrokerError)
    /// What becomes of an app the person has not decided about (broker version 7).
    func newApps() async throws(MediaBrokerError) -> NewAppsMode
    func setNewApps(_ mode: NewAppsMode) async throws(MediaBrokerError)

    /// Corrects a kept listen's words; returns it as it now reads (broker version 7). `fromNowOn`
    /// keeps the correction as a rule for later listens (broker version 8).
    func editMedia(_ id: Int64, title: String?, artists: [String]?, album: String??, fromNowOn: Bool) async throws(MediaBrokerError)
        -> GenericMedia
    /// Puts back the words a corrected listen was first recorded with.
    func undoEdit(_ id: Int64) async throws(MediaBrokerError) -> GenericMedia
    /// The daily journaling suggestion's time, `nil` while off, and the journal app it opens
    /// (broker version 9).
    func suggestionTime() async throws(MediaBrokerError) -> String?
    func setSuggestionTime(_ time: String?) async throws(MediaBrokerError)
    func journalApp() async throws(MediaBrokerError) -> String?
    func setJournalApp(_ id: String?) async throws(MediaBrokerError)
    func journalApps() async throws(MediaBrokerError) -> [JournalAppInfo]

    /// The corrections applied to later listens, oldest first (broker version 8).
    func rules() async throws(MediaBrokerError) -> [CorrectionRuleInfo]
    func removeRule(_ id: Int64) async throws(MediaBrokerError)

    /// Deletes assets for good; returns how many.
    func purge(_ scope: PurgeScope) async throws(MediaBrokerError) -> Int

    /// The sandboxed apps the person decided about (broker version 3).
    func readers() async throws(MediaBrokerError) -> [ReaderInfo]
    /// Allows or denies a sandboxed app reading the history; `nil` forgets the decision.
    func setReaderAccess(_ appID: String, _ access: ReaderInfo.Access?) async throws(MediaBrokerError)
}

extension BrokerService {
    /// The listens of `moments`, by id, asked for in pages of the contract's largest size.
    func tracks(of moments: [Moment]) async throws(MediaBrokerError) -> [Int64: GenericMedia] {
        var tracks: [Int64: GenericMedia] = [:]
        let ids = moments.flatMap(\.assetIDs)
        for start in stride(from: 0, to: ids.count, by: 1000) {
            for item in try await media(ids: Array(ids[start..<min(start + 1000, ids.count)])) { tracks[item.id] = item }
        }
        return tracks
    }
}
