import AssetContract
/// What the person decided for a sandboxed app that asked to read the listening history, kept
/// with the other settings (``PrivacySettings/readers``).
package struct ReaderGrant: Sendable, Equatable {
    package enum Access: String, Sendable, CaseIterable {
        case allowed, denied
    }

    package var access: Access
    /// When the person decided (µs since the epoch): a denial holds back the next question for a day.
    package var decided: Microseconds
    /// When the app last read the history, if it has since the broker kept track.
    package var lastRead: Microseconds?

    package init(access: Access, decided: Microseconds, lastRead: Microseconds? = nil) {
        self.access = access
        self.decided = decided
        self.lastRead = lastRead
    }

    /// How long a denied app waits before it may ask again.
    static let askAgainAfter: Microseconds = 24 * 3_600_000_000
    /// A read is noted at most this often per app, so reading does not write the settings each time.
    package static let lastReadResolution: Microseconds = 600_000_000

    /// `ACCESS:DECIDED:LASTREAD:APP`, `-` for a read never noted. App ids hold no `:`.
    func encoded(appID: String) -> String {
        "\(access.rawValue):\(decided):\(lastRead.map(String.init) ?? "-"):\(appID)"
    }

    /// Reads what ``encoded(appID:)`` wrote; `nil` when any part is damaged.
    static func decode(_ text: Substring) -> (appID: String, grant: ReaderGrant)? {
        let parts = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, let access = Access(rawValue: String(parts[0])), let decided = Microseconds(parts[1]),
              parts[2] == "-" || Microseconds(parts[2]) != nil, AssetContract.isAppID(parts[3]) else { return nil }
        return (String(parts[3]), ReaderGrant(access: access, decided: decided, lastRead: Microseconds(parts[2])))
    }
}
