/// A player's MPRIS `PlaybackStatus`.
package enum PlaybackStatus: String, Sendable, Hashable, CaseIterable {
    case playing = "Playing"
    case paused = "Paused"
    case stopped = "Stopped"

    /// The status an MPRIS status string names, case-insensitively; `nil` for anything else.
    package init?(mpris text: String) {
        // Bounded: a valid status is a short word, so a long string is rejected before any work.
        guard text.utf8.count <= 32 else { return nil }
        // The words as MPRIS spells them, as nearly every player sends them, need no trimming and
        // lowercasing.
        if let exact = PlaybackStatus(rawValue: text) {
            self = exact
            return
        }
        switch BoundedText.trimmed(text[...]).lowercased() {
        case "playing": self = .playing
        case "paused": self = .paused
        case "stopped": self = .stopped
        default: return nil
        }
    }
}
