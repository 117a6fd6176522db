import MediaDonationClient

// `MediaBrokerClient` is being written on another branch; until it is merged this branch builds
// without it. Define MEDIABROKER_CLIENT_READY (or drop the condition) once it exists.
#if MEDIABROKER_CLIENT_READY
extension MediaBrokerClient: BrokerService {}

/// Connects to the broker on the session bus.
func connectToLiveBroker() throws(MediaBrokerError) -> any BrokerService {
    try MediaBrokerClient()
}
#else
/// Stands in for the D-Bus client until it is merged, so every command fails as a runtime error.
func connectToLiveBroker() throws(MediaBrokerError) -> any BrokerService {
    throw .busUnavailable("this build of broker-ctl has no D-Bus client (MEDIABROKER_CLIENT_READY is not set)")
}
#endif
