/// When the broker first knew each connection on the bus, in ``BootClock`` ticks: the anchor of
/// ``ConnectedProcess``. The bus announces a connection (`NameOwnerChanged` of its unique name
/// from no owner) before the connection can send anything else, so a connection that calls the
/// broker was noted first. A connection older than the broker's watch is taken to be born when
/// the watch began, the latest moment its process can have started.
package struct ConnectionBirths {

    package init() {}
    /// More connections than this are not noted one by one: the bus itself refuses about as many
    /// per user (dbus-daemon's session `max_connections_per_user` is 100,000 by default).
    static let maximum = 100_000

    private var births: [String: UInt64] = [:]
    private var watchingSince: UInt64?

    /// The watch on `NameOwnerChanged` is in force from `moment` on.
    package mutating func watching(since moment: UInt64) {
        if watchingSince == nil { watchingSince = moment }
    }

    /// `uniqueName` connected; the broker learns of it at `moment`.
    package mutating func arrived(_ uniqueName: String, at moment: UInt64) {
        guard births.count < Self.maximum || births[uniqueName] != nil else { return }
        births[uniqueName] = births[uniqueName] ?? moment
    }

    package mutating func left(_ uniqueName: String) {
        births[uniqueName] = nil
    }

    /// The latest start a process of `uniqueName` can have: its birth, else the watch's start,
    /// else `now` (the watch is not in force yet, so every connection is older than this moment).
    package func startedBy(_ uniqueName: String, now: UInt64) -> UInt64 {
        births[uniqueName] ?? watchingSince ?? now
    }
}
