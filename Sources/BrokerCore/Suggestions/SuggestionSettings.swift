package import Clocks

/// The person's journaling suggestions (issue 35): off until turned on; once on, one suggestion a
/// day at `time`, local; `journalApp` is the journal app the person chose to open it with (a
/// desktop-file id), `nil` for the broker's own picker. Stored apart from the privacy settings,
/// under ``storeKey``. Pure.
package struct SuggestionSettings: Sendable, Hashable {
    /// When the day's suggestion comes; `nil`: suggestions are off.
    package var time: TimeOfDay?
    package var journalApp: String?
    /// The start of the last listening day a suggestion was sent on (or declined, *Not today*):
    /// nothing more is sent that day, across restarts and changes of the time.
    package var lastDay: Microseconds?

    package init(time: TimeOfDay? = nil, journalApp: String? = nil, lastDay: Microseconds? = nil) {
        self.time = time
        self.journalApp = journalApp
        self.lastDay = lastDay
    }

    package var isOn: Bool { time != nil }

    /// The key the settings are stored under.
    package static let storeKey = "suggestions"

    /// One `key=value` per line; only what is set.
    package var encoded: String {
        var lines: [String] = []
        if let time { lines.append("at=\(time.text)") }
        if let journalApp, Self.isDesktopID(journalApp) { lines.append("journal_app=\(journalApp)") }
        if let lastDay { lines.append("last_day=\(lastDay)") }
        return lines.map { $0 + "\n" }.joined()
    }

    /// Reads what ``encoded`` wrote; a line it does not understand is an error, naming the line.
    package init(decoding text: String) throws(PrivacySettings.DecodingError) {
        self.init()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            guard let equals = line.firstIndex(of: "=") else {
                throw .init(line: index + 1, reason: "expected key=value, found '\(line.prefix(80))'")
            }
            let value = line[line.index(after: equals)...]
            switch line[..<equals] {
            case "at":
                guard let time = TimeOfDay(parsing: value) else { throw .init(line: index + 1, reason: "at must be HH:MM or HH:MM:SS") }
                self.time = time
            case "journal_app":
                guard Self.isDesktopID(value) else { throw .init(line: index + 1, reason: "journal_app must be a desktop-file id") }
                journalApp = String(value)
            case "last_day":
                guard let day = Microseconds(value) else { throw .init(line: index + 1, reason: "last_day must be microseconds") }
                lastDay = day
            default:
                throw .init(line: index + 1, reason: "unknown setting '\(line[..<equals].prefix(80))'")
            }
        }
    }

    /// A desktop-file id as the Desktop Entry Specification makes them — `org.example.Journal` or
    /// `org.example.Journal.desktop` — of letters, digits, `_`, `-` and `.`, at most 255 bytes; so
    /// it cannot carry a path, a line of its own or anything a launcher would read.
    package static func isDesktopID(_ id: some StringProtocol) -> Bool {
        !id.isEmpty && id.utf8.count <= 255 && id.first != "." && id.first != "-" && id.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }
}
