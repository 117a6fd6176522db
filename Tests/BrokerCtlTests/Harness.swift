import Foundation
import MediaDonationClient
import Synchronization
@testable import broker_ctl

/// 2026-11-29T14:05:00Z, the fixed "now" of every test.
let fixedNow = Date(timeIntervalSince1970: 1_795_961_100)
let utc = TimeZone(secondsFromGMT: 0)!
let plusTwo = TimeZone(secondsFromGMT: 2 * 3600)!
let berlin = TimeZone(identifier: "Europe/Berlin")!

/// An instant written as ISO-8601 with an offset, read by Foundation: an independent oracle for
/// broker-ctl's own parsing.
func instant(_ iso: String) -> Date {
    let style = Date.ISO8601FormatStyle(includingFractionalSeconds: iso.contains("."))
    return try! style.parse(iso)
}

/// Collects what a command writes; safe to share with the code under test.
final class CapturedText: Sendable {
    private let buffer = Mutex("")
    var text: String { buffer.withLock { $0 } }
    var writer: TextWriter { TextWriter { text in self.buffer.withLock { $0 += text } } }
}

/// A broker that answers from memory and remembers what it was asked.
final class FakeBroker: BrokerService {
    struct RecentRequest: Equatable {
        var since: Date?
        var until: Date?
        var limit: Int
        var appID: String?
        var before: Int64?
    }

    let media: Result<[GenericMedia], MediaBrokerError>
    let brokerStatus: Result<BrokerStatus, MediaBrokerError>
    private let requests = Mutex<[RecentRequest]>([])
    var recentRequests: [RecentRequest] { requests.withLock { $0 } }

    init(
        media: Result<[GenericMedia], MediaBrokerError> = .success([]),
        status: Result<BrokerStatus, MediaBrokerError> = .success(
            BrokerStatus(version: "0.1.0", assetCount: 0, players: []))
    ) {
        self.media = media
        self.brokerStatus = status
    }

    func recentMedia(
        since: Date?, until: Date?, limit: Int, appID: String?, before: Int64?
    ) async throws(MediaBrokerError) -> [GenericMedia] {
        requests.withLock {
            $0.append(RecentRequest(since: since, until: until, limit: limit, appID: appID, before: before))
        }
        return try media.get()
    }

    func status() async throws(MediaBrokerError) -> BrokerStatus {
        try brokerStatus.get()
    }
}

/// One run of broker-ctl against a fake broker, with everything it printed.
struct Invocation {
    var exitCode: Int32
    var standardOutput: String
    var standardError: String
}

func runBrokerCtl(
    _ words: [String], broker: FakeBroker = FakeBroker(), connectionError: MediaBrokerError? = nil,
    variables: [String: String] = [:], terminalColumns: Int? = nil, timeZone: TimeZone = utc
) async -> Invocation {
    let output = CapturedText()
    let errors = CapturedText()
    let environment = RunEnvironment(
        variables: variables, now: fixedNow, timeZone: timeZone,
        standardOutput: output.writer, standardError: errors.writer,
        connectToBroker: { () throws(MediaBrokerError) -> any BrokerService in
            if let connectionError { throw connectionError }
            return broker
        },
        terminalColumns: terminalColumns)
    let code = await BrokerCtl.run(arguments: ["broker-ctl"] + words, in: environment)
    return Invocation(exitCode: code, standardOutput: output.text, standardError: errors.text)
}

func parse(_ words: [String], timeZone: TimeZone = utc) throws(UsageError) -> Command {
    try CommandParser.parse(words, context: ParseContext(now: fixedNow, timeZone: timeZone))
}

struct UnexpectedCommand: Error {}

/// The subcommand `words` parse to, when it is of type `T`.
func parse<T: Subcommand>(_ words: [String], as type: T.Type, timeZone: TimeZone = utc) throws -> T {
    guard case .run(let subcommand) = try parse(words, timeZone: timeZone), let typed = subcommand as? T else {
        throw UnexpectedCommand()
    }
    return typed
}

/// The usage error `words` give, or nil when they parse.
func usageError(_ words: [String]) -> UsageError? {
    do {
        _ = try parse(words)
        return nil
    } catch {
        return error
    }
}

extension GenericMedia {
    /// A listen with every field known, for tests that change one at a time.
    static func sample(id: Int64 = 1, started: String = "2026-11-29T13:00:00Z") -> GenericMedia {
        GenericMedia(
            id: id, title: "Teardrop", artists: ["Massive Attack"], album: "Mezzanine",
            appID: "mpv", appName: "mpv Media Player", appIcon: "/usr/share/icons/hicolor/scalable/apps/mpv.svg",
            date: instant(started), ended: instant(started).addingTimeInterval(330),
            listened: .seconds(329) + .milliseconds(500), length: .seconds(330),
            kind: .music, source: .mpris)
    }

    /// A listen of which nothing but the id and the time is known.
    static func bare(id: Int64, started: String) -> GenericMedia {
        GenericMedia(id: id, date: instant(started))
    }
}
