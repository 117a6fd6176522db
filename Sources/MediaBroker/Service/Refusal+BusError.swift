import SwiftDBus
import BrokerCore

extension BusError {
    /// The D-Bus error a policy's refusal is answered with.
    init(_ refusal: Refusal) {
        let name: ErrorName = switch refusal.name {
        case .invalidArgs: .invalidArgs
        case .brokerAccessDenied: .brokerAccessDenied
        case .notAPlayer: .notAPlayer
        case .optedOutByUser: .optedOutByUser
        case .mediaDisabled: .mediaDisabled
        case .appOptedOut: .appOptedOut
        case .paused: .paused
        case .appNotAllowed: .appNotAllowed
        }
        self.init(name, refusal.message)
    }
}
