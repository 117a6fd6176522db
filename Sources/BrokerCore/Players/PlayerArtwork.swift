/// The art one player showed lately, as ``PlayersCore`` keeps it: for each `artUrl` secured (read
/// at once, see ``ArtworkReader``), the path its file has in the artwork folder, and — until the
/// listen that shows it is first written — its bytes. A few URLs are remembered, the oldest
/// forgotten first. Pure.
struct PlayerArtwork {
    /// URLs remembered: the current track's, the one before (its listen may finish after the next
    /// track's art arrived), and a little slack for players that change art within a track.
    static let remembered = 4

    /// The last `artUrl` asked for, so the same URL told again is not read again.
    var requested: String?
    /// The read of ``requested`` waits until the player's process is known.
    var awaitingProcess = false
    /// `artUrl` → the absolute path of its file in the artwork folder.
    private(set) var files: [String: String] = [:]
    /// `artUrl` → bytes secured and not yet handed to the store.
    private var pending: [String: SecuredArtwork] = [:]
    private var order: [String] = []

    /// Bytes secured and not yet handed to the store.
    var pendingBytes: Int { pending.values.reduce(0) { $0 + $1.bytes.count } }

    /// Remembers `artwork` read from `url`; returns how many pending bytes were forgotten to make room.
    mutating func secured(_ artwork: SecuredArtwork, from url: String, folder: String) -> Int {
        var forgotten = 0
        if files[url] == nil {
            order.append(url)
            while order.count > Self.remembered {
                let oldest = order.removeFirst()
                files[oldest] = nil
                forgotten += pending.removeValue(forKey: oldest)?.bytes.count ?? 0
            }
        }
        files[url] = folder + "/" + artwork.fileName
        forgotten += pending.updateValue(artwork, forKey: url)?.bytes.count ?? 0
        return forgotten
    }

    /// The bytes secured from `url` that the store has not been given yet, taken out.
    mutating func takePending(_ url: String) -> SecuredArtwork? {
        pending.removeValue(forKey: url)
    }
}
