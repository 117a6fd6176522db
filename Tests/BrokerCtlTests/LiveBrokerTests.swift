import MediaDonationClient
import Testing
@testable import broker_ctl

@Suite struct LiveBrokerTests {
    /// LiveBroker.swift makes the real client a `BrokerService` with an empty extension; this
    /// fails to compile the moment a protocol requirement drifts from the client's signature.
    @Test func theRealClientIsABrokerService() {
        let type: any BrokerService.Type = MediaBrokerClient.self
        #expect(ObjectIdentifier(type) == ObjectIdentifier(MediaBrokerClient.self))
    }
}
