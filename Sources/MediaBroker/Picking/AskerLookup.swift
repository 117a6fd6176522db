import SwiftDBus
import BrokerCore

/// Who asks for a pick, named for the person (issue 31): a sandboxed app by its app id's desktop
/// file; a process on the host by the desktop file of a well-known name it owns (GApplication and
/// KDE apps own their app id), else by its executable when that is no interpreter, else by nobody's
/// name — the picker then says "An app on this computer", never "Python".
///
/// Each step runs where it may: bus calls on the connection's thread, desktop files on the
/// resolver's; `then` runs on the connection's thread.
struct AskerLookup: Sendable {
    let connection: BusConnection
    let resolver: AppResolver

    /// Bounds what a crowded bus makes the lookup ask: names checked, and owners asked.
    static let maximumNames = 512
    static let maximumOwnerQuestions = 8

    /// Names `caller`, whose connection's process is told apart from a later one on its pid by
    /// `startedBy` (``ConnectedProcess``).
    func describe(_ caller: String, reader: Reader, startedBy: BootClock.Ticks, then: @escaping @Sendable (AppIdentity?) -> Void) {
        let loop = connection.loop
        let described: @Sendable (AppIdentity?) -> Void = { identity in loop.execute { then(identity) } }
        if let appID = reader.appID {
            // A sandboxed app's id is its own, from the sandbox: it names the app even without a desktop file.
            return resolver.identity(forAppID: appID) { identity in
                described(AppIdentity(appID: appID, appName: identity.appName ?? appID, appIcon: identity.appIcon, source: .given))
            }
        }
        connection.callBus("GetConnectionUnixProcessID", [.string(caller)], timeout: .seconds(5)) { [self] result in
            let process = ((try? result.get().first?.integer(as: UInt32.self)) ?? nil)
                .map { ConnectedProcess(processID: $0, startedBy: startedBy) }
            connection.callBus("ListNames", timeout: .seconds(5)) { [self] result in
                let names = ((try? result.get().first?.strings()) ?? [])
                    .filter { !$0.hasPrefix(":") && !$0.hasPrefix("org.freedesktop.") }.prefix(Self.maximumNames)
                resolver.installedAppIDs(among: Array(names)) { [self] candidates in
                    loop.execute { [self] in
                        firstOwned(by: caller, among: candidates.prefix(Self.maximumOwnerQuestions)) { [self] owned in
                            resolver.asker(ownedAppID: owned, process: process, completion: described)
                        }
                    }
                }
            }
        }
    }

    /// The first of `names` whose owner is `caller`, asking the bus one name at a time.
    private func firstOwned(by caller: String, among names: ArraySlice<String>, then: @escaping @Sendable (String?) -> Void) {
        guard let name = names.first else { return then(nil) }
        connection.callBus("GetNameOwner", [.string(name)], timeout: .seconds(5)) { [self] result in
            if (try? result.get().first?.string()) == caller { return then(name) }
            firstOwned(by: caller, among: names.dropFirst(), then: then)
        }
    }
}
