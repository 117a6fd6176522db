import BrokerCore

extension ConnectedProcess {
    /// `read()` — which reads the process's `/proc` entry under `procRoot` — when the process at the
    /// pid is the connection's from before to after the read; nil when it is not, or has gone.
    /// Blocks on the file system.
    func reading<Value>(procRoot: String, _ read: () -> Value) -> Value? {
        let directory = procRoot + "/" + String(processID)
        guard let start = BootClock.start(ofProcessAt: directory), start <= startedBy else { return nil }
        let value = read()
        guard BootClock.start(ofProcessAt: directory) == start else { return nil }
        return value
    }
}
