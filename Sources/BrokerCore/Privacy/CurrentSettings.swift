/// The person's settings as they are now, read by every part that acts on them. Only
/// ``SettingsKeeper`` changes them, so a change is applied, saved and told in one place.
///
/// Lives on the connection's thread.
// @unchecked Sendable: built on the main thread before the object is exported, then read and
// written only on the connection's thread.
package final class CurrentSettings: @unchecked Sendable {
    package private(set) var value: PrivacySettings

    package init(_ loaded: PrivacySettings) {
        value = loaded
    }

    /// For ``SettingsKeeper`` alone.
    package func replace(with settings: PrivacySettings) {
        value = settings
    }
}
