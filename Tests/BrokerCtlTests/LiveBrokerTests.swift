import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

/// Declared exactly as `MediaBrokerClient` will be, defaults included. If this conforms with an
/// empty extension, so will the real client when LiveBroker.swift is switched on.
private final class ShapedLikeMediaBrokerClient: Sendable {
    init() throws(MediaBrokerError) {}

    func recentMedia(
        since: Date? = nil, until: Date? = nil, limit: Int = 50, appID: String? = nil, before: Int64? = nil
    ) async throws(MediaBrokerError) -> [GenericMedia] { [] }

    func status() async throws(MediaBrokerError) -> BrokerStatus {
        BrokerStatus(version: "0.1.0", assetCount: 0, players: [])
    }
}

extension ShapedLikeMediaBrokerClient: BrokerService {}

@Suite struct LiveBrokerTests {
    @Test func theClientsShapeConformsWithAnEmptyExtension() async throws {
        let service: any BrokerService = try ShapedLikeMediaBrokerClient()
        #expect(try await service.status().version == "0.1.0")
    }
}
