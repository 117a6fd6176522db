import Clocks
import SwiftDBus
import BrokerCore

/// `Donate`: an app hands the broker a listen it vouches for. A host process donates in the name it
/// gives; a sandboxed app only in its own, within its rate, and with its desktop file's name and
/// icon, never its words (``ReaderGate/donationAppID(_:for:)``). The reply's id is 0 for an app
/// that may not read: a row id would count the listens recorded since its last donation.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread.
final class Donations: @unchecked Sendable {
    private let connection: BusConnection
    private let gate: ReaderGate
    private let writer: HistoryWriter
    private let resolver: AppResolver
    private let settings: CurrentSettings
    private let rule: ListenRule

    init(connection: BusConnection, gate: ReaderGate, writer: HistoryWriter, resolver: AppResolver, settings: CurrentSettings,
         rule: ListenRule) {
        self.connection = connection
        self.gate = gate
        self.writer = writer
        self.resolver = resolver
        self.settings = settings
        self.rule = rule
    }

    func donate(_ call: MethodInvocation) {
        let asset: MediaAsset
        let sandboxed = gate.reader(of: call.sender).appID
        do throws(BusError) {
            guard var fields = try? call.arguments[0].vardict() else { throw .invalidArgs("the media must be a{sv}") }
            // A sandboxed app donates in its own name only, and within its rate.
            if let appID = try gate.donationAppID(try? fields["app_id"]?.string(), for: call) { fields["app_id"] = .string(appID) }
            // Its name and icon are its desktop file's, never its words: an app could otherwise
            // pass as another, or hand the picker a path to open.
            if sandboxed != nil { fields["app_name"] = nil; fields["app_icon"] = nil }
            asset = try MediaAsset(donation: fields, now: WallClock.now, rule: rule, settings: settings.value)
        } catch {
            return call.fail(error)
        }
        let mayRead = gate.mayRead(call)
        guard let appID = sandboxed else { return store(asset, for: call, mayRead: mayRead) }
        let loop = connection.loop, donated = asset
        resolver.identity(forAppID: appID) { [self] app in
            var named = donated
            named.appName = app.appName
            named.appIcon = app.appIcon
            loop.execute { [self, named] in store(named, for: call, mayRead: mayRead) }
        }
    }

    private func store(_ asset: MediaAsset, for call: MethodInvocation, mayRead: Bool) {
        writer.record(asset, openKey: nil) { result in
            switch result {
            case .success(let outcome): call.reply([.int64(mayRead ? outcome.id : 0)])
            case .failure(let error): call.fail(.failed("the donation could not be stored: \(error)"))
            }
        }
    }
}
