public import FoundationEssentials

/// A pause of recording: "don't record for a while" (interface version 6).
public enum RecordingPause: Sendable, Hashable {
    /// Until the person resumes.
    case untilResumed
    /// Until this time, when it ends by itself.
    case until(Date)
}
