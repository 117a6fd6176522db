import AssetContract
import Clocks
import SwiftDBus
import BrokerCore

/// Corrects a kept listen (issue 34, §3): `EditMedia` writes the person's words to the asset —
/// what every reader and export then sees — and keeps the words first recorded; `UndoEdit` puts
/// them back. Each change is told to subscribers (`MediaChanged`) once it is on disk. An edit made
/// `from_now_on` is also kept as a rule, which the ``HistoryWriter`` applies to the app's later
/// listens told with the same words; `Rules` lists them and `RemoveRule` takes one away.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread.
final class HistoryEditor: @unchecked Sendable {
    private let store: HistoryStore
    private let writer: HistoryWriter
    private let announcer: Announcer
    private let loop: EventLoop

    init(store: HistoryStore, writer: HistoryWriter, announcer: Announcer, loop: EventLoop) {
        self.store = store
        self.writer = writer
        self.announcer = announcer
        self.loop = loop
    }

    /// `EditMedia(x id, a{sv} changes)`: `title` (s), `artist` (s) or `artists` (as), `album` (s;
    /// empty clears it) — read and cleaned as `Donate` reads them — and `from_now_on` (b).
    func editMedia(_ call: MethodInvocation) {
        guard case .int64(let id) = call.arguments[0] else { return }
        var changes = (try? call.arguments[1].vardict()) ?? [:]
        let correction: MediaCorrection
        let fromNowOn: Bool
        do throws(BusError) {
            fromNowOn = try Self.fromNowOn(in: changes.removeValue(forKey: Self.fromNowOnKey))
            correction = try Self.correction(from: changes)
        } catch {
            return call.fail(error)
        }
        store.edit(id, with: correction, fromNowOn: fromNowOn, at: WallClock.now) { [self] result in
            loop.execute { [self] in
                if case .success(let outcome?) = result, let rules = outcome.rules { writer.use(CorrectionRules(rules)) }
                answer(call, result.map { $0?.asset }, id: id, nothing: "the history holds no asset \(id)")
            }
        }
    }

    /// `UndoEdit(x id)`: the words the asset was first recorded with. A rule made from it stays.
    func undoEdit(_ call: MethodInvocation) {
        guard case .int64(let id) = call.arguments[0] else { return }
        store.undoEdit(id) { [self] result in
            loop.execute { [self] in answer(call, result, id: id, nothing: "asset \(id) holds no correction to undo") }
        }
    }

    /// `Rules() → aa{sv}`: every correction rule, oldest first.
    func rules(_ call: MethodInvocation) {
        store.correctionRules { result in
            switch result {
            case .success(let rules): call.reply([.array(element: .vardict, rules.map(Self.fields))])
            case .failure(let error): call.fail(.failed("the correction rules could not be read: \(error)"))
            }
        }
    }

    /// `RemoveRule(x id)`: later listens are recorded as told; listens it corrected stay corrected.
    func removeRule(_ call: MethodInvocation) {
        guard case .int64(let id) = call.arguments[0] else { return }
        store.removeRule(id) { [self] result in
            loop.execute { [self] in
                switch result {
                case .failure(let error): call.fail(.failed("the rule could not be removed: \(error)"))
                case .success(nil): call.fail(.invalidArgs("there is no correction rule \(id)"))
                case .success(let rules?):
                    writer.use(CorrectionRules(rules))
                    call.reply()
                }
            }
        }
    }

    /// A rule as `Rules` tells it: the words it matches as told, and `correction`, the words it
    /// sets (an album of "" clears it).
    static func fields(of rule: CorrectionRule) -> DBusValue {
        var correction: [String: DBusValue] = [:]
        if let title = rule.correction.title { correction["title"] = .string(title) }
        if let artists = rule.correction.artists { correction["artists"] = .strings(artists) }
        if let album = rule.correction.album { correction["album"] = .string(album ?? "") }
        return .vardict([
            "id": .int64(rule.id), "app_id": .string(rule.appID), "title": .string(rule.title),
            "artists": .strings(rule.artists), "correction": .vardict(correction), "created": .int64(rule.created),
        ])
    }

    static let fromNowOnKey = "from_now_on"

    private static func fromNowOn(in value: DBusValue?) throws(BusError) -> Bool {
        switch value {
        case nil: false
        case .boolean(let on)?: on
        case _?: throw .invalidArgs("'from_now_on' must be a boolean")
        }
    }

    private func answer(_ call: MethodInvocation, _ result: Result<MediaAsset?, StoreError>, id: Int64, nothing: String) {
        switch result {
        case .failure(let error): call.fail(.failed("the correction could not be kept: \(error)"))
        case .success(nil): call.fail(.invalidArgs(nothing))
        case .success(let asset?):
            call.reply(AssetAnnouncement(asset: asset))
            announcer.changed(asset)
        }
    }

    /// The keys `EditMedia` takes.
    static let keys: Set<AssetKey> = [.title, .artist, .artists, .album]

    /// Reads `changes` by the contract's table, as `Donate` reads the same keys.
    static func correction(from changes: [String: DBusValue]) throws(BusError) -> MediaCorrection {
        var correction = MediaCorrection()
        for name in changes.keys.sorted() {
            guard let key = AssetKey(rawValue: name), keys.contains(key), let value = changes[name] else {
                throw .invalidArgs("unknown key '\(name.prefix(64))' (known: album, artist, artists, from_now_on, title)")
            }
            let read = try MediaAsset.donated(AssetContract.spec(key), value)
            switch (key, read) {
            case (.title, .text(let title)?): correction.title = title
            case (.title, _): throw .invalidArgs("'title' must not be empty")
            case (.artist, .text(let artist)?): correction.artists = [artist]
            case (.artists, .texts(let artists)?): correction.artists = artists
            case (.artist, nil), (.artists, nil): correction.artists = []
            case (.album, .text(let album)?): correction.album = .some(album)
            case (.album, nil): correction.album = .some(nil)
            default: throw .invalidArgs("'\(name)' has a value of the wrong kind")
            }
        }
        if changes["artist"] != nil, changes["artists"] != nil { throw .invalidArgs("give 'artist' or 'artists', not both") }
        guard !correction.isEmpty else { throw .invalidArgs("nothing to change: give title, artist, artists or album") }
        return correction
    }
}
