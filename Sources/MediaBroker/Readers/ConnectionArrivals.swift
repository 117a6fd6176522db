import BrokerCore

/// When the broker first knew each connection (``ConnectionBirths``), noted by the ``NameWatch``
/// and asked by whoever must tell a connection's process from a later one on the same pid: the
/// reader gate, the players, the picker's asker.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread, then touched only on the connection's thread.
final class ConnectionArrivals: @unchecked Sendable {
    private var births = ConnectionBirths()

    /// The watch on connections is in force from now on.
    func watching() {
        births.watching(since: BootClock.now())
    }

    func arrived(_ uniqueName: String) {
        births.arrived(uniqueName, at: BootClock.now())
    }

    func left(_ uniqueName: String) {
        births.left(uniqueName)
    }

    /// The latest start a process of connection `uniqueName` can have.
    func startedBy(_ uniqueName: String) -> BootClock.Ticks {
        births.startedBy(uniqueName, now: BootClock.now())
    }

    /// The process of connection `uniqueName`, whose pid the bus daemon says is `pid`, as far as it
    /// can be told from a later process on the same pid (``ConnectedProcess``).
    func process(of uniqueName: String, processID pid: UInt32) -> ConnectedProcess {
        ConnectedProcess(processID: pid, startedBy: startedBy(uniqueName))
    }
}
