import AssetContract
import Clocks
import SwiftDBus
import BrokerCore

/// Corrects a kept listen (issue 34, §3): `EditMedia` writes the person's words to the asset —
/// what every reader and export then sees — and keeps the words first recorded; `UndoEdit` puts
/// them back. Each change is told to subscribers (`MediaChanged`) once it is on disk.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then touched only
// on the connection's thread.
final class HistoryEditor: @unchecked Sendable {
    private let store: HistoryStore
    private let announcer: Announcer
    private let loop: EventLoop

    init(store: HistoryStore, announcer: Announcer, loop: EventLoop) {
        self.store = store
        self.announcer = announcer
        self.loop = loop
    }

    /// `EditMedia(x id, a{sv} changes)`: `title` (s), `artist` (s) or `artists` (as), `album` (s;
    /// empty clears it) — read and cleaned as `Donate` reads them.
    func editMedia(_ call: MethodInvocation) {
        guard case .int64(let id) = call.arguments[0] else { return }
        let correction: MediaCorrection
        do throws(BusError) {
            correction = try Self.correction(from: (try? call.arguments[1].vardict()) ?? [:])
        } catch {
            return call.fail(error)
        }
        store.edit(id, with: correction, at: WallClock.now) { [self] result in
            loop.execute { [self] in answer(call, result, id: id, nothing: "the history holds no asset \(id)") }
        }
    }

    /// `UndoEdit(x id)`: the words the asset was first recorded with.
    func undoEdit(_ call: MethodInvocation) {
        guard case .int64(let id) = call.arguments[0] else { return }
        store.undoEdit(id) { [self] result in
            loop.execute { [self] in answer(call, result, id: id, nothing: "asset \(id) holds no correction to undo") }
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
                throw .invalidArgs("unknown key '\(name.prefix(64))' (known: album, artist, artists, title)")
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
