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

    func status() async throws(MediaBrokerError) -> BrokerStatus
}
