import MediaDonationClient

extension MediaBrokerClient: BrokerService {}

/// Connects to the broker on the session bus.
func connectToLiveBroker() throws(MediaBrokerError) -> any BrokerService {
    try MediaBrokerClient()
}
