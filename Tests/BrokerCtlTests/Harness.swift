import Foundation
import MediaDonationClient
import Synchronization
@testable import broker_ctl

/// 2026-11-29T14:05:00Z, the fixed "now" of every test.
let fixedNow = Date(timeIntervalSince1970: 1_795_961_100)
let utc = TimeZone(secondsFromGMT: 0)!
let plusTwo = TimeZone(secondsFromGMT: 2 * 3600)!
let berlin = TimeZone(identifier: "Europe/Berlin")!

/// Foundation's zones, for fixed offsets and real rules in tests. broker-ctl itself stays off
/// `TimeZone` (see `UTCOffsetRule`).
extension TimeZone: UTCOffsetRule {
    func secondsFromUTC(at instant: Date) -> Int {
        secondsFromGMT(for: instant)
    }
}

/// An instant written as ISO-8601 with an offset, read by Foundation: an independent oracle for
/// broker-ctl's own parsing.
func instant(_ iso: String) -> Date {
    let style = Date.ISO8601FormatStyle(includingFractionalSeconds: iso.contains("."))
    return try! style.parse(iso)
}

/// Collects what a command writes; safe to share with the code under test.
final class CapturedText: Sendable {
    private let buffer = Mutex<[String]>([])
    var text: String { buffer.withLock { $0.joined() } }
    /// Each piece of text as it was handed to the writer, one entry per write.
    var writes: [String] { buffer.withLock { $0 } }
    var lines: [String] { text.split(separator: "\n").map(String.init) }
    var writer: TextWriter { TextWriter { text in self.buffer.withLock { $0.append(text) } } }
}

/// A broker that answers from memory and remembers what it was asked.
///
/// `recentMedia` and `moments` behave like the real ones (moments are answered in the order
/// given, which tests keep newest first): newest first (by start, then id), `since` inclusive,
/// `until` exclusive, `appID`, `before` as a paging cursor and `limit`.
final class FakeBroker: BrokerService {
    struct MomentsRequest: Equatable {
        var since: Date?
        var until: Date?
        var limit: Int
        var before: String?
        var onThisDay: Date? = nil
    }

    struct RecentRequest: Equatable {
        var since: Date?
        var until: Date?
        var limit: Int
        var appID: String?
        var before: Int64?
    }

    /// A change the fake was asked to make, in order.
    enum Change: Equatable {
        case setMediaEnabled(Bool)
        case setRetentionDays(Int)
        case setAppOptedOut(String, Bool)
        case purge(PurgeScope)
        case donate(Donation)
        case setReaderAccess(String, ReaderInfo.Access?)
        case pause(Duration?, Date?)
        case resume
        case setNewApps(NewAppsMode)
        case setSiteOptedOut(String, Bool)
        case editMedia(Int64, String?, [String]?, String??, fromNowOn: Bool)
        case undoEdit(Int64)
        case removeRule(Int64)
        case setSuggestionTime(String?)
        case setJournalApp(String?)
    }

    let media: Result<[GenericMedia], MediaBrokerError>
    let brokerStatus: Result<BrokerStatus, MediaBrokerError>
    let playing: Result<[GenericMedia], MediaBrokerError>
    let added: Result<AsyncStream<GenericMedia>, MediaBrokerError>
    let appList: [AppInfo]
    let readerList: [ReaderInfo]
    let ruleList: [CorrectionRuleInfo]
    let journalAppList: [JournalAppInfo]
    private let suggestionState = Mutex<(time: String?, app: String?)>((nil, nil))
    let momentList: [Moment]
    let purgeCount: Int
    let donatedID: Int64
    /// Errors by method name (`"donate"`, `"purge"`, …), thrown instead of answering.
    let failures: [String: MediaBrokerError]
    private let newestFirst: [GenericMedia]
    private let state: Mutex<(enabled: Bool, retention: Int, requests: [RecentRequest], changes: [Change])>
    /// The pause a `pause` set: one that lasts a while ends that long after 2027-01-15 08:00 UTC.
    private let pauseState = Mutex<RecordingPause?>(nil)
    private let momentsRequests = Mutex<[MomentsRequest]>([])
    private let newAppsState = Mutex(NewAppsMode.record)

    var recentRequests: [RecentRequest] { state.withLock { $0.requests } }
    var momentRequests: [MomentsRequest] { momentsRequests.withLock { $0 } }
    var changes: [Change] { state.withLock { $0.changes } }
    var mediaEnabled: Bool { state.withLock { $0.enabled } }
    var retention: Int { state.withLock { $0.retention } }

    init(
        media: Result<[GenericMedia], MediaBrokerError> = .success([]),
        status: Result<BrokerStatus, MediaBrokerError> = .success(
            BrokerStatus(version: "0.1.0", assetCount: 0, players: [])),
        nowPlaying: Result<[GenericMedia], MediaBrokerError> = .success([]),
        mediaAdded: Result<AsyncStream<GenericMedia>, MediaBrokerError> = .success(AsyncStream { _ in }),
        mediaEnabled: Bool = true, retentionDays: Int = 90, apps: [AppInfo] = [], readers: [ReaderInfo] = [], rules: [CorrectionRuleInfo] = [], journalApps: [JournalAppInfo] = [],
        moments: [Moment] = [],
        purgeCount: Int = 0,
        donatedID: Int64 = 1, failures: [String: MediaBrokerError] = [:]
    ) {
        self.media = media
        self.brokerStatus = status
        self.playing = nowPlaying
        self.added = mediaAdded
        self.appList = apps
        self.readerList = readers
        self.ruleList = rules
        self.journalAppList = journalApps
        self.momentList = moments
        self.purgeCount = purgeCount
        self.donatedID = donatedID
        self.failures = failures
        self.newestFirst = ((try? media.get()) ?? []).sorted { ($0.date, $0.id) > ($1.date, $1.id) }
        self.state = Mutex((mediaEnabled, retentionDays, [], []))
    }

    private func check(_ method: String) throws(MediaBrokerError) {
        if let failure = failures[method] { throw failure }
    }

    private func record(_ change: Change) {
        state.withLock { $0.changes.append(change) }
    }

    func recentMedia(
        since: Date?, until: Date?, limit: Int, appID: String?, before: Int64?
    ) async throws(MediaBrokerError) -> [GenericMedia] {
        state.withLock {
            $0.requests.append(RecentRequest(since: since, until: until, limit: limit, appID: appID, before: before))
        }
        _ = try media.get()
        var matching = newestFirst.filter { item in
            (since.map { item.date >= $0 } ?? true) && (until.map { item.date < $0 } ?? true)
                && (appID.map { item.appID == $0 } ?? true)
        }
        if let before, let index = matching.firstIndex(where: { $0.id == before }) {
            matching.removeFirst(index + 1)
        }
        return Array(matching.prefix(limit))
    }

    func nowPlaying() async throws(MediaBrokerError) -> [GenericMedia] { try playing.get() }

    func moments(
        since: Date?, until: Date?, limit: Int, gap: Duration?, appID: String?, before: String?, onThisDay: Date?
    ) async throws(MediaBrokerError) -> [Moment] {
        try check("moments")
        momentsRequests.withLock { $0.append(MomentsRequest(since: since, until: until, limit: limit, before: before, onThisDay: onThisDay)) }
        var matching = momentList.filter { moment in
            (since.map { moment.started >= $0 } ?? true) && (until.map { moment.started < $0 } ?? true)
        }
        if let before, let index = matching.firstIndex(where: { $0.id == before }) {
            matching.removeFirst(index + 1)
        }
        return Array(matching.prefix(limit))
    }

    func media(ids: [Int64]) async throws(MediaBrokerError) -> [GenericMedia] {
        try check("media")
        let all = (try? media.get()) ?? []
        return ids.compactMap { id in all.first { $0.id == id } }
    }

    func status() async throws(MediaBrokerError) -> BrokerStatus { try brokerStatus.get() }

    func mediaAdded() async throws(MediaBrokerError) -> AsyncStream<GenericMedia> { try added.get() }

    func donate(_ donation: Donation) async throws(MediaBrokerError) -> Int64 {
        try check("donate")
        record(.donate(donation))
        return donatedID
    }

    func isMediaEnabled() async throws(MediaBrokerError) -> Bool {
        try check("isMediaEnabled")
        return mediaEnabled
    }

    func setMediaEnabled(_ enabled: Bool) async throws(MediaBrokerError) {
        try check("setMediaEnabled")
        record(.setMediaEnabled(enabled))
        state.withLock { $0.enabled = enabled }
    }

    func pause(for duration: Duration?, until date: Date?) async throws(MediaBrokerError) {
        try check("pause")
        record(.pause(duration, date))
        let end = date ?? duration.map { Date(timeIntervalSince1970: 1_800_000_000 + Double($0.components.seconds)) }
        pauseState.withLock { $0 = end.map { .until($0) } ?? .untilResumed }
    }

    func resume() async throws(MediaBrokerError) {
        try check("resume")
        record(.resume)
        pauseState.withLock { $0 = nil }
    }

    func currentPause() async throws(MediaBrokerError) -> RecordingPause? {
        try check("currentPause")
        return pauseState.withLock { $0 }
    }

    func retentionDays() async throws(MediaBrokerError) -> Int {
        try check("retentionDays")
        return retention
    }

    func setRetentionDays(_ days: Int) async throws(MediaBrokerError) {
        try check("setRetentionDays")
        record(.setRetentionDays(days))
        state.withLock { $0.retention = days }
    }

    func optedOutApps() async throws(MediaBrokerError) -> [String] {
        appList.filter(\.isOptedOut).map(\.appID)
    }

    func setAppOptedOut(_ appID: String, _ optedOut: Bool) async throws(MediaBrokerError) {
        try check("setAppOptedOut")
        record(.setAppOptedOut(appID, optedOut))
    }

    func apps() async throws(MediaBrokerError) -> [AppInfo] {
        try check("apps")
        return appList
    }

    func setSiteOptedOut(_ site: String, _ optedOut: Bool) async throws(MediaBrokerError) {
        try check("setSiteOptedOut")
        record(.setSiteOptedOut(site, optedOut))
    }

    func editMedia(_ id: Int64, title: String?, artists: [String]?, album: String??, fromNowOn: Bool) async throws(MediaBrokerError)
        -> GenericMedia {
        try check("editMedia")
        record(.editMedia(id, title, artists, album, fromNowOn: fromNowOn))
        return GenericMedia(id: id, title: title ?? "Told", artists: artists ?? ["Told Artist"], album: album ?? "Told Album",
                            date: Date(timeIntervalSince1970: 1_800_000_000))
    }

    func undoEdit(_ id: Int64) async throws(MediaBrokerError) -> GenericMedia {
        try check("undoEdit")
        record(.undoEdit(id))
        return GenericMedia(id: id, title: "Told", artists: ["Told Artist"], date: Date(timeIntervalSince1970: 1_800_000_000))
    }

    func rules() async throws(MediaBrokerError) -> [CorrectionRuleInfo] {
        try check("rules")
        return ruleList
    }

    func removeRule(_ id: Int64) async throws(MediaBrokerError) {
        try check("removeRule")
        record(.removeRule(id))
    }

    func suggestionTime() async throws(MediaBrokerError) -> String? {
        try check("suggestionTime")
        return suggestionState.withLock { $0.time }
    }

    func setSuggestionTime(_ time: String?) async throws(MediaBrokerError) {
        try check("setSuggestionTime")
        record(.setSuggestionTime(time))
        suggestionState.withLock { $0.time = time }
    }

    func journalApp() async throws(MediaBrokerError) -> String? {
        try check("journalApp")
        return suggestionState.withLock { $0.app }
    }

    func setJournalApp(_ id: String?) async throws(MediaBrokerError) {
        try check("setJournalApp")
        record(.setJournalApp(id))
        suggestionState.withLock { $0.app = id }
    }

    func journalApps() async throws(MediaBrokerError) -> [JournalAppInfo] {
        try check("journalApps")
        return journalAppList
    }

    func newApps() async throws(MediaBrokerError) -> NewAppsMode {
        try check("newApps")
        return newAppsState.withLock { $0 }
    }

    func setNewApps(_ mode: NewAppsMode) async throws(MediaBrokerError) {
        try check("setNewApps")
        record(.setNewApps(mode))
        newAppsState.withLock { $0 = mode }
    }

    func purge(_ scope: PurgeScope) async throws(MediaBrokerError) -> Int {
        try check("purge")
        record(.purge(scope))
        return purgeCount
    }

    func readers() async throws(MediaBrokerError) -> [ReaderInfo] {
        try check("readers")
        return readerList
    }

    func setReaderAccess(_ appID: String, _ access: ReaderInfo.Access?) async throws(MediaBrokerError) {
        try check("setReaderAccess")
        record(.setReaderAccess(appID, access))
    }
}

/// A person at a terminal (or not), and what they type, one answer a line.
struct Keyboard: Sendable {
    var isTerminal: Bool
    var answers: [String]

    static let none = Keyboard(isTerminal: false, answers: [])

    static func terminal(answering answers: String...) -> Keyboard {
        Keyboard(isTerminal: true, answers: answers)
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
    variables: [String: String] = [:], terminalColumns: Int? = nil, timeZone: TimeZone = utc,
    keyboard: Keyboard = .none, stopSignals: AsyncStream<Int32>? = nil, output: CapturedText = CapturedText()
) async -> Invocation {
    let errors = CapturedText()
    let typed = Mutex(keyboard.answers[...])
    let environment = RunEnvironment(
        variable: { variables[$0] }, now: fixedNow, timeZone: timeZone,
        standardOutput: output.writer, standardError: errors.writer,
        connectToBroker: { () throws(MediaBrokerError) -> any BrokerService in
            if let connectionError { throw connectionError }
            return broker
        },
        terminalColumns: terminalColumns,
        standardInputIsTerminal: keyboard.isTerminal,
        readLine: { typed.withLock { $0.popFirst() } },
        stopSignals: { stopSignals ?? AsyncStream { $0.finish() } })
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
