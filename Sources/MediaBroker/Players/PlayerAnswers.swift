import SwiftDBus

// What a player's `GetAll` answers say, read from the wire for the policy types, which take them
// as the broker's values.

extension PlayerIdentity {
    /// The root interface answered with `properties`: its `Identity` and `DesktopEntry`.
    mutating func answered(_ properties: [String: DBusValue]) {
        answered(identity: try? properties["Identity"]?.string(), desktopEntry: try? properties["DesktopEntry"]?.string())
    }
}

extension LeftoverListens {
    /// ``resuming(_:with:rule:recordingAllowed:at:)`` with the properties a `GetAll` answered.
    static func resuming(
        _ leftover: OpenListen, with properties: [String: DBusValue], rule: ListenRule, recordingAllowed: Bool,
        at now: Microseconds
    ) -> PlayerListening? {
        resuming(leftover, with: PlayerProperties(properties), rule: rule, recordingAllowed: recordingAllowed, at: now)
    }
}
