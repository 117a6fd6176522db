/// The process behind a bus connection, told so that a reused process id cannot borrow it
/// (issue 32).
///
/// The bus daemon records a connection's process id when the connection is made, but a connection
/// can outlive that process: an app connects, forks, and the first process exits; the pid then goes
/// to whatever process the kernel starts next on it, perhaps one of the person's own. So the
/// process found at the pid is believed only if it started no later than ``startedBy`` — when the
/// broker first knew the connection (``ConnectionBirths``) — and is still the same process (the
/// same start) once everything was read from its `/proc` entry. A process that started later is
/// not the connection's: what it would tell is not believed.
package struct ConnectedProcess: Hashable, Sendable {
    /// The pid the bus daemon recorded for the connection.
    package var processID: UInt32
    /// The latest start a process of the connection can have, in ``BootClock`` ticks since boot.
    package var startedBy: UInt64

    package init(processID: UInt32, startedBy: UInt64) {
        self.processID = processID
        self.startedBy = startedBy
    }
}
