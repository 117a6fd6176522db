import Localization
import FoundationEssentials
import MediaDonationClient

/// What `broker-ctl recent` prints.
enum RecentOutput {
    static var emptyMessage: String { localized("No media recorded in that range.") + "\n" }

    /// A table newest first, in the local time of `timeZone`, no wider than `width` columns when
    /// the text can be cut to fit.
    static func table(_ media: [GenericMedia], timeZone: some UTCOffsetRule, width: Int) -> String {
        guard !media.isEmpty else { return emptyMessage }
        let rows = newestFirst(media).map { cells(for: $0, timeZone: timeZone) }
        return TextTable(headers: headers, rows: rows, fixedColumns: [0]).rendered(width: width)
    }

    // TRANSLATORS: the column headings of broker-ctl's tables are in capitals, as ps and ls write theirs.
    static var headers: [String] { [localized("WHEN"), localized("TITLE"), localized("ARTIST"), localized("ALBUM"), localized("APP")] }

    /// One listen's row: local start time, title, artist, album and app.
    static func cells(for item: GenericMedia, timeZone: some UTCOffsetRule) -> [String] {
        [
            timeZone.civilTime(at: item.date).localeMinuteText,
            cell(item.title), cell(item.artist), cell(item.album), cell(item.appID ?? item.appName),
        ]
    }

    /// One JSON object a line, newest first, with the D-Bus contract's keys.
    static func jsonLines(_ media: [GenericMedia]) -> String {
        newestFirst(media).map { json(for: $0).serialized + "\n" }.joined()
    }

    static func json(for item: GenericMedia) -> JSONValue {
        var object = JSONObjectBuilder()
        object.add("id", item.id)
        object.add("title", item.title)
        object.add("artist", item.artist)
        object.add("artists", item.artists.isEmpty ? nil : JSONValue.array(item.artists.map(JSONValue.string)))
        object.add("album", item.album)
        object.add("app_id", item.appID)
        object.add("app_name", item.appName)
        object.add("app_icon", item.appIcon)
        object.add("started", microsecondsSinceEpoch(item.date))
        object.add("started_iso", UTC().civilTime(at: item.date).utcISO8601Text)
        object.add("ended", item.ended.map(microsecondsSinceEpoch))
        object.add("listened", item.listened.map(microseconds))
        object.add("length", item.length.map(microseconds))
        object.add("kind", item.kind?.rawValue)
        object.add("source", item.source?.rawValue)
        return object.object
    }

    /// The broker already answers newest first; sorting again keeps the promise whatever the
    /// service behind the protocol does.
    private static func newestFirst(_ media: [GenericMedia]) -> [GenericMedia] {
        media.sorted { ($0.date, $0.id) > ($1.date, $1.id) }
    }

    /// A table cell: `-` for unknown, and control characters (a newline in a title) as spaces so
    /// one listen stays on one line.
    static func cell(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "-" }
        return text.onOneLine
    }

    /// The contract's unit for instants. Dates from the client are built from whole microseconds,
    /// so rounding recovers them exactly.
    static func microsecondsSinceEpoch(_ date: Date) -> Int64 {
        Int64(exactly: (date.timeIntervalSince1970 * 1_000_000).rounded()) ?? 0
    }

    /// The contract's unit for durations; saturates rather than traps on a nonsensical length
    /// from another process.
    static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflowed) = seconds.multipliedReportingOverflow(by: 1_000_000)
        let (total, sumOverflowed) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000)
        guard !overflowed, !sumOverflowed else { return seconds < 0 ? .min : .max }
        return total
    }
}

extension String {
    /// The text with each control character (a newline, a tab, an escape) as a space: words from
    /// players stay on the line they are printed on and cannot move the terminal's cursor.
    var onOneLine: String {
        guard unicodeScalars.contains(where: \.isControl) else { return self }
        var printable = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            printable.append(scalar.isControl ? " " : scalar)
        }
        return String(printable)
    }
}

extension Unicode.Scalar {
    /// General category Cc. Unicode fixes that set for good (C0, DEL and C1), so this is a range
    /// test rather than a property-table lookup per scalar, which showed in profiles.
    fileprivate var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}

/// Left-aligned columns two spaces apart, fitted to their content and then to the terminal.
struct TextTable {
    var headers: [String]
    var rows: [[String]]
    /// Columns never narrowed, such as a date that means nothing when cut.
    var fixedColumns: Set<Int> = []

    static let gap = "  "

    func rendered(width: Int) -> String {
        let widths = fittedWidths(width: width)
        return ([headers] + rows).map { cells in
            cells.enumerated().map { column, text in
                let fitted = text.truncated(toColumns: widths[column])
                return column == cells.count - 1 ? fitted : fitted.padded(toColumns: widths[column])
            }.joined(separator: Self.gap)
        }.map { $0 + "\n" }.joined()
    }

    /// Content widths, narrowed one column at a time (always the widest) until the lines fit;
    /// no column goes below its header, so a tiny terminal gets wrapped lines, never empty ones.
    private func fittedWidths(width: Int) -> [Int] {
        var widths = headers.indices.map { column in
            ([headers] + rows).map { $0[column].terminalColumns }.max() ?? 0
        }
        let minimums = headers.map { max($0.terminalColumns, 3) }
        let gaps = Self.gap.count * (headers.count - 1)
        while widths.reduce(gaps, +) > width {
            let narrowable = widths.indices.filter { !fixedColumns.contains($0) && widths[$0] > minimums[$0] }
            guard let widest = narrowable.max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
        }
        return widths
    }
}
