import Clocks
import AssetContract
internal import Glibc
import SwiftDBus
import BrokerCore

/// The runtime of who may read (issue 20): it tells who each caller is (``Reader``, cached per
/// unique name in ``ReaderCache``), admits or refuses each call on the broker's object
/// (``ReaderPolicy``), limits sandboxed
/// donations (``DonationRateLimit``), and answers `Readers` and `SetReaderAccess`. Who is told of
/// live listens is the ``Announcer``'s; the questions `RequestAccess` puts to the person are
/// ``AccessNotifications``'.
///
/// A caller is identified once per connection, from what the bus daemon recorded when the
/// connection was made (`GetConnectionCredentials`): a snap by its AppArmor label
/// (`LinuxSecurityLabel`), else by its process id, whose `/proc` entry tells the sandbox (read off
/// the bus thread). The process at that pid is believed only if it is the connection's own
/// (``ConnectedProcess``: it started before the broker first knew the connection, noted in
/// ``ConnectionArrivals``), so an app that connects, exits and leaves the socket to a child cannot
/// lend its connection the identity of whatever process gets the pid next. The cache is keyed by
/// the unique name, which the bus never gives to another connection.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread (handlers, completions handed back with `loop.execute`).
final class ReaderGate: @unchecked Sendable, NameWatch.Observer {
    private let connection: BusConnection
    private let settings: CurrentSettings
    private let keeper: SettingsKeeper
    private let arrivals: ConnectionArrivals
    private let questions: AccessNotifications
    private let resolver: AppResolver
    private let log: Log
    private let procRoot: String
    private var cache = ReaderCache()
    /// Calls waiting for their caller to be identified, by unique name.
    private var waiting: [String: [(Reader) -> Void]] = [:]
    /// Reads `/proc`, which a sandbox's mounts could make slow: never on the bus thread.
    private let lookups = WorkerThread()
    private var donations = DonationRateLimit()

    init(connection: BusConnection, settings: CurrentSettings, keeper: SettingsKeeper, arrivals: ConnectionArrivals,
         questions: AccessNotifications, resolver: AppResolver, log: Log, procRoot: String = "/proc") {
        self.connection = connection
        self.settings = settings
        self.keeper = keeper
        self.arrivals = arrivals
        self.questions = questions
        self.resolver = resolver
        self.log = log
        self.procRoot = procRoot
    }

    /// Lets the thread that reads `/proc` go.
    func stop() {
        lookups.shutdown()
    }

    func left(_ uniqueName: String) {
        cache.forget(uniqueName)
    }

    // MARK: Admission

    /// SwiftDBus's `admit` for the broker's object: identifies the caller when the call needs it.
    func admit(_ call: BusMessage, done: @escaping @Sendable (BusError?) -> Void) {
        let member = call.member?.rawValue ?? ""
        let right = ReaderPolicy.right(interface: call.interface, member: member,
                                       arguments: call.interface == .properties ? call.arguments : [])
        guard right != .anyone, right != .optOutItself else { return done(nil) }
        guard let sender = call.sender else {
            return done(BusError(.brokerAccessDenied, "a call with no sender cannot be attributed to anyone"))
        }
        identify(sender) { [self] reader in
            let refusal = ReaderPolicy.refusal(of: right, to: reader, settings: settings.value)
            if refusal == nil, right == .readHistory, let appID = reader.appID { keeper.noteRead(by: appID, at: WallClock.now) }
            done(refusal.map(BusError.init))
        }
    }

    /// The reader of `uniqueName`, once admitted (every admitted call that needed one has it cached).
    func reader(of uniqueName: String?) -> Reader {
        uniqueName.flatMap(cache.reader(of:)) ?? .unidentified
    }

    /// Tells who `uniqueName` is, from the cache or afresh; `then` runs on the connection's thread.
    func identify(_ uniqueName: String, then: @escaping (Reader) -> Void) {
        if let known = cache.reader(of: uniqueName) { return then(known) }
        if waiting[uniqueName] != nil { return waiting[uniqueName]?.append(then) ?? () }
        waiting[uniqueName] = [then]
        connection.callBus("GetConnectionCredentials", [.string(uniqueName)], timeout: .seconds(5)) { [self] result in
            guard case .success(let values) = result, let credentials = try? values.first?.vardict(),
                  (try? credentials["UnixUserID"]?.integer(as: UInt32.self)) == getuid() else {
                return identified(uniqueName, as: .unidentified, remember: false)
            }
            if let label = try? credentials["LinuxSecurityLabel"]?.array(),
               let snap = Sandbox.fromSecurityLabel(label.compactMap { try? $0.integer(as: UInt8.self) }) {
                return identified(uniqueName, as: Reader(snap), remember: true)
            }
            guard let pid = try? credentials["ProcessID"]?.integer(as: UInt32.self) else {
                return identified(uniqueName, as: .unidentified, remember: false)
            }
            let process = arrivals.process(of: uniqueName, processID: pid), loop = connection.loop, procRoot = procRoot
            let submitted = lookups.submit { [self] in
                let reader = Reader.of(process, procRoot: procRoot)
                loop.execute { [self] in confirm(uniqueName, pid: pid, as: reader) }
            }
            if !submitted { identified(uniqueName, as: .unidentified, remember: false) }
        }
    }

    /// Asks the bus again after `/proc` was read: a connection that left meanwhile (its process
    /// exited, and its pid could now be another's) is not believed.
    private func confirm(_ uniqueName: String, pid: UInt32, as reader: Reader) {
        connection.callBus("GetConnectionUnixProcessID", [.string(uniqueName)], timeout: .seconds(5)) { [self] result in
            let same = (try? result.get().first?.integer(as: UInt32.self)) == pid
            identified(uniqueName, as: same ? reader : .unidentified, remember: same)
        }
    }

    private func identified(_ uniqueName: String, as reader: Reader, remember: Bool) {
        if remember { cache.remember(reader, for: uniqueName) }
        if reader != .host { log.debug("\(uniqueName) reads as \(reader.description)") }
        for then in waiting.removeValue(forKey: uniqueName) ?? [] { then(reader) }
    }

    // MARK: Calls

    /// Whether the caller of an admitted call may see the history (for `Status`' players).
    func mayRead(_ call: MethodInvocation) -> Bool {
        ReaderPolicy.refusal(of: .readHistory, to: reader(of: call.sender), settings: settings.value) == nil
    }

    /// A donation's `app_id` for the caller: a sandboxed app donates in its own name only, within
    /// its rate; a host process in the name it gives. Throws the refusal.
    func donationAppID(_ given: String?, for call: MethodInvocation) throws(BusError) -> String? {
        guard case .app(let appID) = reader(of: call.sender) else { return given }
        if let given, given != appID {
            throw BusError(.brokerAccessDenied, "\(appID) may donate only as itself, not as '\(given.prefix(255))'")
        }
        guard donations.take(appID, at: WallClock.now) else {
            throw BusError(.limitsExceeded, "\(appID) donated \(DonationRateLimit.burst) times in a burst; one more a second is allowed")
        }
        return appID
    }

    /// `Readers()`: each sandboxed app the person decided about, with its name and icon.
    func readers(_ call: MethodInvocation) {
        let grants = settings.value.readers
        let resolver = resolver
        // Desktop files and icons are on disk: looked up off the bus thread.
        let submitted = lookups.submit {
            let entries = grants.keys.sorted().compactMap { appID -> DBusValue? in
                guard let grant = grants[appID] else { return nil }
                let app = resolver.identity(forAppID: appID)
                var fields: [String: DBusValue] = [
                    "app_id": .string(appID), "access": .string(grant.access.rawValue), "decided": .int64(grant.decided),
                ]
                if let name = app.appName { fields["app_name"] = .string(name) }
                if let icon = app.appIcon { fields["app_icon"] = .string(icon) }
                if let lastRead = grant.lastRead { fields["last_read"] = .int64(lastRead) }
                return .vardict(fields)
            }
            call.reply([.array(element: .vardict, entries)])
        }
        if !submitted { call.fail(.failed("the broker is stopping")) }
    }

    /// `SetReaderAccess(app_id, access)`: `allowed`, `denied`, or `unset` to forget the decision.
    func setReaderAccess(_ call: MethodInvocation) {
        guard case .string(let appID) = call.arguments[0], case .string(let access) = call.arguments[1] else { return }
        guard AssetContract.isAppID(appID) else { return call.fail(.invalidArgs("'\(appID.prefix(255))' is not an app id")) }
        let grant: ReaderGrant?
        switch access {
        case "unset":
            grant = nil
            questions.forgetUnanswered(appID)  // the person's "forget" lets the app ask again at once
        default:
            guard let decided = ReaderGrant.Access(rawValue: access) else {
                return call.fail(.invalidArgs("access must be 'allowed', 'denied' or 'unset', not '\(access.prefix(32))'"))
            }
            grant = ReaderGrant(access: decided, decided: WallClock.now, lastRead: settings.value.readers[appID]?.lastRead)
        }
        keeper.setGrant(grant, for: appID, done: call.finish)
    }
}
