/// `Pause` as asked — for a while, until a time, or until the person resumes — and when the pause
/// it asks for ends. Pure: the caller reads the call's options and the clock.
package enum PauseRequest: Equatable, Sendable {
    case lasting(Microseconds)
    case until(Microseconds)
    case untilResumed

    /// The longest pause with an end: a year. A longer one is surely a mistake (pause until
    /// resumed says what it means).
    package static let longest: Microseconds = 366 * 86_400_000_000

    /// When the pause asked at `now` ends (``PrivacySettings/untilResumed`` for one without an
    /// end), or why it cannot be had: a duration that is not positive, a time that is not in the
    /// future, or either beyond ``longest``.
    package func end(askedAt now: Microseconds) -> Result<Microseconds, Refusal> {
        switch self {
        case .untilResumed:
            return .success(PrivacySettings.untilResumed)
        case .lasting(let duration):
            guard duration > 0 else { return .failure(Refusal(.invalidArgs, "'duration' must be a positive number of microseconds")) }
            guard duration <= Self.longest else { return .failure(Refusal(.invalidArgs, "'duration' must be at most a year")) }
            return .success(now + duration)
        case .until(let end):
            guard end > now else { return .failure(Refusal(.invalidArgs, "'until' must be a time in the future")) }
            guard end - now <= Self.longest else { return .failure(Refusal(.invalidArgs, "'until' must be within a year")) }
            return .success(end)
        }
    }
}
