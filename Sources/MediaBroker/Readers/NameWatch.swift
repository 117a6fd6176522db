import SwiftDBus

/// The broker's one watch on `NameOwnerChanged`: notes each connection as it arrives
/// (``ConnectionArrivals``) and tells its observers of every name's new owner (the players follow
/// MPRIS names) and of each connection that leaves (the parts that keep something per
/// connection). Only the bus daemon speaks for names.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread, then touched only on the connection's thread.
final class NameWatch: @unchecked Sendable {
    /// A part that acts when names change hands; each method does nothing unless the part says.
    protocol Observer: AnyObject {
        /// `name` has a new owner, `new` (empty: none), after `old` (empty: none).
        func ownerChanged(name: String, old: String, new: String)
        /// The connection `uniqueName` left the bus.
        func left(_ uniqueName: String)
    }

    private let connection: BusConnection
    private let arrivals: ConnectionArrivals
    private let observers: [any Observer]
    private var token: MatchToken?

    /// `observers` are told in order.
    init(connection: BusConnection, arrivals: ConnectionArrivals, observers: [any Observer]) {
        self.connection = connection
        self.arrivals = arrivals
        self.observers = observers
    }

    /// Starts watching; `done` runs once the watch is in force (with the bus's refusal, if any).
    /// Call on the connection's thread, before the broker serves a call or lists the players, so
    /// that no connection or player that comes meanwhile is missed.
    func start(done: @escaping @Sendable (BusError?) -> Void) {
        let rule = MatchRule(sender: BusConnection.busName, interface: .bus, member: "NameOwnerChanged", path: BusConnection.busPath)
        connection.addMatch(rule, handler: { [self] message in changed(message) }, completion: { [self] result in
            switch result {
            case .success(let token):
                self.token = token
                arrivals.watching()
                done(nil)
            case .failure(let error):
                done(error)
            }
        })
    }

    func stop() {
        token?.cancel()
        token = nil
    }

    private func changed(_ message: BusMessage) {
        guard message.sender == BusConnection.busName.rawValue else { return }
        let arguments = message.arguments
        guard arguments.count == 3, let name = try? arguments[0].string(),
              let old = try? arguments[1].string(), let new = try? arguments[2].string() else { return }
        let leaves = name.hasPrefix(":") && new.isEmpty
        if name.hasPrefix(":") {
            if leaves { arrivals.left(name) } else if old.isEmpty { arrivals.arrived(name) }
        }
        for observer in observers {
            observer.ownerChanged(name: name, old: old, new: new)
            if leaves { observer.left(name) }
        }
    }
}

extension NameWatch.Observer {
    func ownerChanged(name: String, old: String, new: String) {}
    func left(_ uniqueName: String) {}
}
