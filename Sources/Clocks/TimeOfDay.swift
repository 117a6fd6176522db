/// A local wall-clock time of day, to the second: when the daily suggestion comes
/// (`broker-ctl suggest on --at 21:00`). Pure.
public struct TimeOfDay: Sendable, Hashable, Comparable {
    /// Seconds after local midnight, 0…86399.
    public let seconds: Int

    public init?(seconds: Int) {
        guard (0..<86_400).contains(seconds) else { return nil }
        self.seconds = seconds
    }

    /// `HH:MM` or `HH:MM:SS`, 24-hour, hours of one or two digits.
    public init?(parsing text: some StringProtocol) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.utf8.allSatisfy { (48...57).contains($0) } }),
              parts.dropFirst().allSatisfy({ $0.count == 2 }),
              let hours = Int(parts[0]), let minutes = Int(parts[1]), hours < 24, minutes < 60 else { return nil }
        let seconds = parts.count == 3 ? Int(parts[2]) ?? 60 : 0
        guard seconds < 60 else { return nil }
        self.seconds = hours * 3600 + minutes * 60 + seconds
    }

    /// `21:00`, or `21:00:05` when it has seconds.
    public var text: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let base = two(seconds / 3600) + ":" + two(seconds / 60 % 60)
        return seconds % 60 == 0 ? base : base + ":" + two(seconds % 60)
    }

    public static func < (a: TimeOfDay, b: TimeOfDay) -> Bool { a.seconds < b.seconds }
}
