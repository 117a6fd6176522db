/// A call the broker's policy refuses: which of the contract's errors it is, and the words that say
/// why. The policy types return it; the runtime answers the call with it (``BusError/init(_:)``).
package struct Refusal: Error, Sendable, Hashable {
    /// The contract's errors a policy can answer with (docs/dbus-api.md, "Errors").
    package enum Name: Sendable, Hashable {
        case invalidArgs
        case brokerAccessDenied
        case notAPlayer
        case optedOutByUser
        case mediaDisabled
        case appOptedOut
        case paused
        case appNotAllowed
    }

    package var name: Name
    package var message: String

    package init(_ name: Name, _ message: String) {
        self.name = name
        self.message = message
    }
}
