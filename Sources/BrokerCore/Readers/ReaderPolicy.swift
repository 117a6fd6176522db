/// Who may make which call (issue 20), decided before the call runs. Pure.
///
/// - Host processes may do everything, as before: they could read the history file anyway.
/// - A sandboxed app reads nothing — `RecentMedia`, `Moments`, `MediaByID`, `NowPlaying`, `Apps`,
///   live listens, the players in `Status`, `OptedOutApps`, `AllowedApps` — until the person allows it. It may
///   always ask (`RequestAccess`), donate in its own name, and opt its own player out or in; it may
///   never change a setting, a grant or the history (`Set`, `SetAppOptedOut`, `SetReaderAccess`,
///   `Purge`, `Pause`, `Resume`), nor see the grants (`Readers`).
/// - Any app may ask the person to pick listens for it (`PickMedia`), granted or not: what it gets
///   is what the person chose.
/// - A process the broker could not identify may only opt its own player out or in, and read
///   what anyone may (`Version`, `MediaEnabled`, `RetentionDays`, `PausedUntil`, `NewApps`,
///   `Status`' version).
package enum ReaderPolicy {
    /// What a call asks for.
    package enum Right: Sendable, Equatable {
        case readHistory, donate, optOutItself, changeSettings, seeGrants, askForAccess
        /// Hand over what the person picks (`PickMedia`): any app the broker can name may ask.
        case pick
        /// Anyone may, but what it shows depends on who asks (`Status`): the caller is identified.
        case anyoneIdentified
        /// Anyone may, without being identified.
        case anyone
    }

    /// The right `member` of the broker's interface needs — or, for a call of
    /// `org.freedesktop.DBus.Properties` (`ofProperties`), the right its `property` needs (`nil`:
    /// `GetAll`). Unknown members need nothing here: SwiftDBus answers them with `UnknownMethod`.
    package static func right(member: String, ofProperties: Bool, property: String?) -> Right {
        if ofProperties {
            switch (member, property) {
            case ("Get", "Version"?), ("Get", "MediaEnabled"?), ("Get", "RetentionDays"?), ("Get", "PausedUntil"?), ("Get", "NewApps"?):
                return .anyone
            case ("Get", _), ("GetAll", _): return .readHistory
            default: return .changeSettings
            }
        }
        switch member {
        case "RecentMedia", "Moments", "MediaByID", "NowPlaying", "Apps", "Subscribe": return .readHistory
        case "Donate": return .donate
        case "OptOut", "OptIn": return .optOutItself
        case "SetAppOptedOut", "SetSiteOptedOut", "Purge", "SetReaderAccess", "Pause", "Resume", "EditMedia", "UndoEdit", "Rules", "RemoveRule",
             "JournalApps":
            return .changeSettings
        case "Readers": return .seeGrants
        case "RequestAccess": return .askForAccess
        case "PickMedia": return .pick
        case "Status": return .anyoneIdentified
        default: return .anyone
        }
    }

    /// The error refusing `right` to `reader`, or `nil` when it may.
    package static func refusal(of right: Right, to reader: Reader, settings: PrivacySettings) -> Refusal? {
        switch (reader, right) {
        case (.host, _), (_, .anyone), (_, .anyoneIdentified), (_, .optOutItself):
            return nil
        case (.app(let id), .readHistory):
            guard !settings.allowsReading(id) else { return nil }
            return Refusal(.brokerAccessDenied, "\(id) may not read the listening history: call RequestAccess to ask the person, "
                + "who can also allow it with `broker-ctl allow \(id)`")
        case (.app, .donate), (.app, .askForAccess), (.app, .pick):
            return nil
        case (.app(let id), .changeSettings), (.app(let id), .seeGrants):
            return Refusal(.brokerAccessDenied, "\(id) is sandboxed: only the person's own programs change settings, grants or the history")
        case (.unidentified, _):
            return Refusal(.brokerAccessDenied, "the broker could not tell which app this process is, so it may not read or change anything")
        }
    }
}
