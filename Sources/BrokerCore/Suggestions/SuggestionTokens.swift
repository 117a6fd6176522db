/// The ids suggestions hand to journal apps (in the URL, then back in `PickMedia`'s
/// `suggestion`): random, so an id reveals nothing by itself, each naming the moment it was made
/// for. The broker keeps the newest ``capacity`` in memory only: after a restart, or for an id it
/// never gave, the picker opens as usual. Pure; the runtime draws the random ids.
package struct SuggestionTokens: Sendable {
    package static let capacity = 32

    /// A moment a suggestion offered: its id, and when it began and ended, so the picker can be
    /// opened on its day.
    package struct Suggested: Sendable, Equatable {
        package var momentID: String
        package var started: Microseconds
        package var ended: Microseconds

        package init(momentID: String, started: Microseconds, ended: Microseconds) {
            self.momentID = momentID
            self.started = started
            self.ended = ended
        }

        /// The span a picker opened at this moment offers: the moment's listening day (04:00 to
        /// 04:00 local), stretched to the moment's end when it runs past.
        package func listeningDay(localTime: LocalTime) -> (since: Microseconds, until: Microseconds) {
            let day = localTime.dayStart(containing: started)
            return (day, max(day + LocalTime.day, ended + 1))
        }
    }

    private var moments: [(token: String, moment: Suggested)] = []

    package init() {}

    /// Remembers that `token` names `moment`, forgetting the oldest beyond ``capacity``.
    package mutating func remember(_ token: String, for moment: Suggested) {
        moments.removeAll { $0.token == token }
        moments.append((token, moment))
        if moments.count > Self.capacity { moments.removeFirst(moments.count - Self.capacity) }
    }

    /// The moment `token` was made for, if the broker gave it.
    package func moment(for token: String) -> Suggested? {
        moments.last { $0.token == token }?.moment
    }

    /// Whether `token` can be a suggestion's id: 32 lowercase hexadecimal digits, as the broker
    /// draws them; anything else is refused before it is looked up.
    package static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 32 && token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
