import MediaBrokerVersion

/// The version `broker-ctl --version` prints: the project's single version string.
enum BrokerCtlVersion {
    static let current = MediaBrokerVersion.current
}
