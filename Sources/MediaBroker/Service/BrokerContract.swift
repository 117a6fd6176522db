import SwiftDBus
import AssetContract

/// The fixed names of the D-Bus contract (docs/dbus-api.md). Clients we never see depend on
/// them: add, never rename.
enum BrokerContract {
    static let busName: BusName = "org.mediabroker.MediaBroker1"
    static let objectPath: ObjectPath = "/org/mediabroker/MediaBroker1"
    static let interface: InterfaceName = "org.mediabroker.MediaBroker1"

    /// The interface's `Version` property, bumped whenever a client-visible behaviour changes
    /// (docs/dbus-api.md lists each version).
    static let version: UInt32 = 10

    /// `RecentMedia`'s default and largest page.
    static let defaultLimit = 50
    static let maximumLimit = 1000
    /// The introspection annotation on every asset argument: `key:signature` of each asset key,
    /// space-separated (``AssetContract``).
    static let assetKeysAnnotation = "org.mediabroker.MediaBroker1.AssetKeys"

    /// Longest `app_id` a filter may name.
    static let maximumAppIDLength = AssetContract.maximumAppIDBytes

    /// What `Donate`'s arguments may hold: its largest useful call — the 256 artists looked at and
    /// six texts of 1024 bytes, an icon path, the times, about 275 KB — with room to spare; a larger
    /// call is refused before it is read (issue 32). Every other method's calls fit SwiftDBus's
    /// standard 64 KiB many times over: the largest, `MediaByID` with 1000 ids, takes 8 KB.
    static let donationLimits = ArgumentLimits(bytes: 1 << 20)
}

extension ErrorName {
    /// Media recording is switched off.
    static let mediaDisabled: ErrorName = "org.mediabroker.MediaBroker1.Error.MediaDisabled"
    /// Recording is paused (`Pause`, version 6).
    static let paused: ErrorName = "org.mediabroker.MediaBroker1.Error.Paused"
    /// `OptOut`/`OptIn` from a connection that owns no `org.mpris.MediaPlayer2.*` name.
    static let notAPlayer: ErrorName = "org.mediabroker.MediaBroker1.Error.NotAPlayer"
    /// `OptIn` against the user's own opt-out.
    static let optedOutByUser: ErrorName = "org.mediabroker.MediaBroker1.Error.OptedOutByUser"
    /// A sandboxed app without the person's grant reading the history, any sandboxed app changing a
    /// setting, or a donation in another app's name (issue 20).
    static let brokerAccessDenied: ErrorName = "org.mediabroker.MediaBroker1.Error.AccessDenied"
    /// `Donate` from an app the person has not allowed while new apps are asked about or ignored
    /// (`NewApps`, version 7).
    static let appNotAllowed: ErrorName = "org.mediabroker.MediaBroker1.Error.AppNotAllowed"
    /// `Donate` from an app that is opted out.
    static let appOptedOut: ErrorName = "org.mediabroker.MediaBroker1.Error.AppOptedOut"
}
