import SwiftDBus
import BrokerCore

extension PlayersCore.Answer {
    /// What the reply to `read` says, read from the wire; the bus daemon's "no such name" is the
    /// player gone.
    init(_ read: PlayersCore.Read, _ reply: Result<[DBusValue], BusError>) {
        switch reply {
        case .failure(let error) where error.name == .serviceUnknown || error.name == .nameHasNoOwner:
            self = .gone
        case .failure(let error):
            self = .failed(read, reason: "\(error.name)")
        case .success(let values):
            // A `GetAll` answer that is no dictionary is an empty one.
            let properties = (try? values.first?.vardict()) ?? [:]
            switch read {
            case .identity:
                self = .identity(name: try? properties["Identity"]?.string(),
                                 desktopEntry: try? properties["DesktopEntry"]?.string())
            case .player: self = .player(PlayerProperties(properties))
            case .position: self = .position(values.first.flatMap(TrackMetadata.microseconds))
            }
        }
    }
}
