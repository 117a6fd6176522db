internal import Localization

/// Why a call to the broker failed.
public enum MediaBrokerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No session bus could be reached (no `DBUS_SESSION_BUS_ADDRESS`, or it refused us).
    case busUnavailable(String)
    /// The broker is not running and could not be activated.
    case brokerNotRunning
    /// The broker rejected the arguments (`org.freedesktop.DBus.Error.InvalidArgs`); the message
    /// names the offending key.
    case invalidArguments(String)
    /// Media recording is switched off (`org.mediabroker.MediaBroker1.Error.MediaDisabled`).
    case mediaDisabled
    /// Recording is paused (`org.mediabroker.MediaBroker1.Error.Paused`, interface version 6).
    case paused
    /// The app is not recorded until the person allows it: new apps are asked about or ignored
    /// (`org.mediabroker.MediaBroker1.Error.AppNotAllowed`, interface version 7).
    case appNotAllowed(String)
    /// The broker refused the caller (`org.mediabroker.MediaBroker1.Error.AccessDenied`): a
    /// sandboxed app the person has not allowed to read, a sandboxed app changing a setting, or a
    /// donation in another app's name. The message says what the app may do instead.
    case accessDenied(String)
    /// Any other D-Bus error, with its name and message, or a reply the client did not understand.
    case busFailure(name: String, message: String)

    /// The failure in a sentence for a person, in their language: the fixed words are looked up
    /// in the `media-broker` gettext domain, whose catalogs the Debian package installs in
    /// `/usr/share/locale`. The library does not bind the domain, so gettext reads them there, and
    /// an app using the library gets them too once it has taken its locale from the environment
    /// (`setlocale(LC_ALL, "")`, which GTK's start-up does); in the C locale they are English.
    /// What the broker or the bus said (the text inside `busUnavailable`, `invalidArguments`,
    /// `appNotAllowed`, `accessDenied` and `busFailure`) is their English D-Bus message, kept as is.
    public var description: String {
        switch self {
        case .busUnavailable(let why): localized("cannot reach the session bus: {why}", ["why": why])
        case .brokerNotRunning: localized("the media broker is not running ({name} has no owner)", ["name": MediaBrokerClient.busName])
        case .invalidArguments(let why): localized("invalid arguments: {why}", ["why": why])
        case .mediaDisabled: localized("media recording is switched off")
        case .paused: localized("recording is paused")
        case .appNotAllowed(let why): why
        case .accessDenied(let why): localized("access denied: {why}", ["why": why])
        case .busFailure(let name, let message): "\(name): \(message)"
        }
    }
}
