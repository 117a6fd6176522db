/// The questions `RequestAccess` puts to the person (issue 20): at most one open per app, none
/// from an app the person refused or left unanswered less than a day ago, and what each answer
/// leaves stored. Pure.
package struct AccessQuestions {
    /// How long the person has to answer.
    package static let patience: Microseconds = 120_000_000

    /// What `RequestAccess` answers.
    package enum Answer: String, Sendable {
        case allowed, denied, unanswered
    }

    /// What to do with a new question.
    package enum Start: Equatable {
        /// Put it to the person.
        case ask
        /// The person decided already: answer at once.
        case answered(Answer)
        case refused(String)
    }

    /// Apps with a question open.
    package private(set) var open: Set<String> = []
    /// When the person last left an app's question unanswered (dismissed it, or let it time out):
    /// that counts as asked, so the app is not shown another for a day. Kept in memory only, for
    /// the broker's run, and bounded: an app cannot grow it.
    private(set) var unanswered: [String: Microseconds] = [:]

    package init(open: Set<String> = [], unanswered: [String: Microseconds] = [:]) {
        self.open = open
        self.unanswered = unanswered
    }
    static let maximumRemembered = 1024

    package func start(for appID: String, settings: PrivacySettings, now: Microseconds) -> Start {
        switch settings.readers[appID] {
        case let grant? where grant.access == .allowed:
            return .answered(.allowed)
        case let grant? where now - grant.decided < ReaderGrant.askAgainAfter:
            return .refused("the person did not allow \(appID) to read the listening history; it may ask again 24 hours after that answer")
        default:
            break
        }
        guard !open.contains(appID) else { return .refused("\(appID) already has a question open; wait for its answer") }
        if let asked = unanswered[appID], now - asked < ReaderGrant.askAgainAfter {
            return .refused("the person left \(appID)'s question unanswered; it may ask again 24 hours after it was asked")
        }
        return .ask
    }

    package mutating func forgetUnanswered(_ appID: String) { unanswered[appID] = nil }

    /// The question of `appID`, shown, ended with no answer at `now`.
    package mutating func leftUnanswered(_ appID: String, at now: Microseconds) {
        if unanswered.count >= Self.maximumRemembered, unanswered[appID] == nil,
           let oldest = unanswered.min(by: { $0.value < $1.value })?.key {
            unanswered[oldest] = nil
        }
        unanswered[appID] = now
    }

    package mutating func opened(for appID: String) { open.insert(appID) }

    /// The question of `appID` is over; `false` when it was not open (answered already).
    package mutating func close(_ appID: String) -> Bool { open.remove(appID) != nil }

    /// What the notification's action means (`ActionInvoked`): the grant to store, if any.
    package static func answer(forAction key: String) -> Answer {
        switch key {
        case Self.allowAction: .allowed
        case Self.denyAction: .denied
        default: .unanswered
        }
    }

    package static let allowAction = "allow"
    package static let denyAction = "deny"
}
