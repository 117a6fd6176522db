/// The one place the project's version is written; both executables and the client library read
/// it, and `broker-ctl status` compares the CLI's with the running broker's.
public enum MediaBrokerVersion {
    public static let current = "0.1.0"
}
