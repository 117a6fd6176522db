@testable import MediaBroker
import SwiftDBus
@testable import BrokerCore

// The policy types take the broker's values; these tests speak as players do, in D-Bus values,
// read by the runtime's own readers (`PlayerAnswers.swift`, `PlayerProperties+Reading.swift`,
// `PropertiesChangedSignal+Reading.swift`).

extension PlayersCore.Input {
    /// The reply to `read`, as ``PlayerTracker`` hands it to the core.
    static func answered(_ ref: PlayerRef, _ read: PlayersCore.Read, _ reply: Result<[DBusValue], BusError>) -> Self {
        .answered(ref, PlayersCore.Answer(read, reply))
    }

    /// A `PropertiesChanged` with `body`, read as ``PlayerTracker`` reads one that is no repeat.
    static func propertiesChanged(sender: String, path: String?, body: MessageBody) -> Self {
        .propertiesChanged(sender: sender, path: path, signal: PropertiesChangedSignal(body, readingPropertiesOf: PlayersCore.playerInterface))
    }
}

extension PlayerIdentity {
    /// The root interface answered with `properties`.
    mutating func answered(_ properties: [String: DBusValue]) {
        guard case .identity(let name, let desktopEntry) = PlayersCore.Answer(.identity, .success([.vardict(properties)])) else {
            preconditionFailure("an identity read answers an identity")
        }
        answered(identity: name, desktopEntry: desktopEntry)
    }
}

extension LeftoverListens {
    static func resuming(
        _ leftover: OpenListen, with properties: [String: DBusValue], rule: ListenRule, recordingAllowed: Bool,
        at now: Microseconds
    ) -> PlayerListening? {
        resuming(leftover, with: PlayerProperties(properties), rule: rule, recordingAllowed: recordingAllowed, at: now)
    }
}

/// An object path as a player sends its `mpris:trackid`.
func objectPath(_ text: String) -> DBusValue { .objectPath(try! ObjectPath(text)) }
