/// The version `broker-ctl --version` prints.
enum BrokerCtlVersion {
    // Kept here only until the project has one shared place for its version that both executables
    // read; the daemon must not be able to drift from the CLI.
    static let current = "0.1.0"
}
