import SwiftDBus
import BrokerCore

/// Tells journaling apps what the history gains, loses and corrects (`MediaAdded`, `MediaRemoved`,
/// `MediaChanged`): each
/// signal goes to every connection that called `Subscribe` and may read now (``Subscribers``), to
/// each alone, so no other process on the bus sees it.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread.
final class Announcer: @unchecked Sendable, NameWatch.Observer {
    /// The member names of the two signals, checked once.
    private static let mediaAdded: MemberName = "MediaAdded"
    private static let mediaRemoved: MemberName = "MediaRemoved"
    private static let mediaChanged: MemberName = "MediaChanged"

    private let connection: BusConnection
    private let settings: CurrentSettings
    private let log: Log
    private var subscribers = Subscribers()

    init(connection: BusConnection, settings: CurrentSettings, log: Log) {
        self.connection = connection
        self.settings = settings
        self.log = log
    }

    /// `Subscribe()` from a caller the gate identified as `reader`: live listens go to it while its
    /// connection lives and its grant holds.
    func subscribe(_ call: MethodInvocation, as reader: Reader) {
        guard let sender = call.sender else { return call.fail(.failed("a call with no sender cannot subscribe")) }
        guard subscribers.add(sender, reader: reader) else {
            return call.fail(BusError(.limitsExceeded, "\(Subscribers.maximum) connections subscribe already"))
        }
        call.reply()
    }

    /// `uniqueName` left the bus.
    func left(_ uniqueName: String) {
        subscribers.remove(uniqueName)
    }

    /// Announces a stored asset (it has its id).
    func added(_ asset: MediaAsset) {
        send(SignalEmission(path: BrokerContract.objectPath, interface: BrokerContract.interface,
                            member: Self.mediaAdded, body: AssetAnnouncement(asset: asset)))
    }

    /// Announces a kept asset whose words the person corrected (or whose correction was undone).
    func changed(_ asset: MediaAsset) {
        send(SignalEmission(path: BrokerContract.objectPath, interface: BrokerContract.interface,
                            member: Self.mediaChanged, body: AssetAnnouncement(asset: asset)))
    }

    /// Announces assets deleted, by id.
    func removed(_ ids: [Int64]) {
        guard !ids.isEmpty else { return }
        send(SignalEmission(path: BrokerContract.objectPath, interface: BrokerContract.interface,
                            member: Self.mediaRemoved, arguments: [.array(element: .int64, ids.map(DBusValue.int64))]))
    }

    /// Sends `signal` to each subscriber that may read now; one that could not be sent is logged,
    /// since no caller waits on it.
    private func send(_ signal: SignalEmission) {
        for recipient in subscribers.recipients(under: settings.value) {
            var addressed = signal
            addressed.destination = try? BusName(recipient)
            do { try connection.emit(addressed) } catch { log.warning("could not send \(signal.member): \(error)") }
        }
    }
}
