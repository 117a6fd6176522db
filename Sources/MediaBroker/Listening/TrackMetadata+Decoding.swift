import SwiftDBus
import BrokerCore

/// Reading MPRIS `Metadata` as real players send it (mpris-quirks.md 1–6).
extension TrackMetadata {
    /// The MPRIS metadata keys read; every other key (`xesam:comment`, vendor keys) is ignored, so
    /// a change to one of them is not a change of metadata.
    enum Key {
        static let trackID = "mpris:trackid"
        static let length = "mpris:length"
        static let title = "xesam:title"
        static let artist = "xesam:artist"
        static let album = "xesam:album"
        static let albumArtist = "xesam:albumArtist"
        static let genre = "xesam:genre"
        static let url = "xesam:url"
        static let artURL = "mpris:artUrl"
        /// The broker's own vendor key: `b` true marks an item as not to be recorded.
        static let exclude = "mediabroker:exclude"
    }

    /// The metadata in an MPRIS `Metadata` value read where it lies in a message (a signal's
    /// changed properties, see ``PropertiesChangedSignal``): the entries in one pass, only the
    /// keys read becoming values, as ``DBusValue/vardict()`` would take them (a key sent twice keeps
    /// its last value; one variant wrapper removed). Anything that is not a string-keyed dictionary
    /// (inside any variants) is ``empty``. A key of the wrong type is absent without costing the
    /// others (quirk 1):
    /// - text keys accept `s`, `o` or `g`; list keys accept `as`, an array of variants, or a single
    ///   `s` (quirk 1) — non-string elements are skipped;
    /// - `mpris:trackid` accepts `o` or `s` (quirk 3);
    /// - `mpris:length` accepts any integer type, `d`, or a numeric string, in microseconds; a value
    ///   that is ≤ 0, below ``Limits/minimumLength`` or above ``Limits/maximumLength`` is unknown (quirk 2);
    /// - `mediabroker:exclude` excludes unless it reads as false (see ``excludeFlag(_:)``);
    /// - variants are unwrapped at any depth.
    ///
    /// Throws only for a malformed body.
    static func decode(reading value: inout ValueReader) throws(MarshallingError) -> TrackMetadata {
        var values = KeyValues()
        let isDictionary = try value.entries { name, entry throws(MarshallingError) in
            guard let slot = KeyValues.slot(name) else { return }
            values[slot] = try entry.value()
        }
        return isDictionary ? decode(values) : .empty
    }

    /// The metadata in an MPRIS `Metadata` value (`a{sv}`, possibly inside variants), read by
    /// ``decode(reading:)`` as it would be read once sent. A value no message could carry (nested
    /// deeper than D-Bus allows, say) is ``empty``. Never throws.
    static func decode(_ value: DBusValue) -> TrackMetadata {
        var metadata = TrackMetadata.empty
        try? value.read { (reader: inout ValueReader) throws(MarshallingError) in metadata = try decode(reading: &reader) }
        return metadata
    }

    /// The metadata in an MPRIS `Metadata` dictionary (see ``decode(_:)-(DBusValue)``).
    static func decode(_ map: [String: DBusValue]) -> TrackMetadata {
        decode(.vardict(map))
    }

    private static func decode(_ values: KeyValues) -> TrackMetadata {
        TrackMetadata(
            cleanedTrackID: values[.trackID].flatMap(text).flatMap(cleanTrackID),
            title: values[.title].flatMap(text).flatMap(cleanText),
            artists: list(values[.artist], max: Limits.maximumArtists),
            album: values[.album].flatMap(text).flatMap(cleanText),
            albumArtists: list(values[.albumArtist], max: Limits.maximumArtists),
            genres: list(values[.genre], max: Limits.maximumGenres),
            url: values[.url].flatMap(text).flatMap(cleanURL),
            length: values[.length].flatMap(microseconds).flatMap(plausibleLength),
            isExcluded: values[.exclude].map(excludeFlag) ?? false,
            artURL: values[.artURL].flatMap(text).flatMap(boundedArtURL))
    }

    /// The values of the keys read (``Key``), each absent until found.
    private struct KeyValues {
        enum Slot {
            case trackID, length, title, artist, album, albumArtist, genre, url, exclude, artURL
        }

        private var trackID, length, title, artist, album, albumArtist, genre, url, exclude, artURL: DBusValue?

        subscript(slot: Slot) -> DBusValue? {
            get {
                switch slot {
                case .trackID: trackID
                case .length: length
                case .title: title
                case .artist: artist
                case .album: album
                case .albumArtist: albumArtist
                case .genre: genre
                case .url: url
                case .exclude: exclude
                case .artURL: artURL
                }
            }
            set {
                switch slot {
                case .trackID: trackID = newValue
                case .length: length = newValue
                case .title: title = newValue
                case .artist: artist = newValue
                case .album: album = newValue
                case .albumArtist: albumArtist = newValue
                case .genre: genre = newValue
                case .url: url = newValue
                case .exclude: exclude = newValue
                case .artURL: artURL = newValue
                }
            }
        }

        /// The slot of a key read; `nil` for every other key.
        ///
        /// The keys are spelled as static text, compared where they lie without becoming `String`s,
        /// and told apart by length first, so a key is compared with one or two names rather than
        /// nine (PropertiesChangedReadingTests checks the spellings against ``Key``). For the
        /// `bench/run` track-change row.
        static func slot(_ name: borrowing EntryKey) -> Slot? {
            func matches(_ key: StaticString) -> Bool { name.equals(key) }
            return switch name.count {
            case 9: matches("xesam:url") ? .url : nil
            case 11: matches("xesam:title") ? .title : matches("xesam:album") ? .album : matches("xesam:genre") ? .genre : nil
            case 12: matches("xesam:artist") ? .artist : matches("mpris:length") ? .length : matches("mpris:artUrl") ? .artURL : nil
            case 13: matches("mpris:trackid") ? .trackID : nil
            case 17: matches("xesam:albumArtist") ? .albumArtist : nil
            case 19: matches("mediabroker:exclude") ? .exclude : nil
            default: nil
            }
        }
    }

    /// The text of an `s`, `o` or `g` value; `nil` for any other type.
    static func text(_ value: DBusValue) -> String? { try? value.string() }

    /// The cleaned strings of a list key: an array's string elements, or a lone string. Of an array
    /// only the items ``cleanList(_:max:)`` may look at are read.
    static func list(_ value: DBusValue?, max: Int) -> [String] {
        guard let value else { return [] }
        switch value.unwrapped {
        case .string(let single): return cleanList([single], max: max)
        case .array(_, let items): return cleanList(items.prefix(max * examinedPerKept).compactMap(text), max: max)
        default: return []
        }
    }

    /// A number of microseconds from any integer type, a finite `d` (rounded) or a decimal string.
    /// Range checks are the caller's (``plausibleLength(_:)``).
    static func microseconds(_ value: DBusValue) -> Microseconds? {
        switch value.unwrapped {
        case .byte, .int16, .uint16, .int32, .uint32, .int64, .uint64:
            return try? value.integer(as: Int64.self)
        case .double(let number):
            return wholeMicroseconds(number)
        case .string(let string):
            guard string.utf8.count <= 40 else { return nil }
            let trimmed = BoundedText.trimmed(string[...])
            if let integer = Int64(trimmed) { return integer }
            return Double(trimmed).flatMap(wholeMicroseconds)
        default:
            return nil
        }
    }

    private static func wholeMicroseconds(_ number: Double) -> Microseconds? {
        guard number.isFinite, number > -9.0e18, number < 9.0e18 else { return nil }
        return Int64(number.rounded())
    }

    /// Whether a `mediabroker:exclude` value excludes. `b` says it; an integer excludes unless 0; a
    /// string excludes unless it is `false`, `no`, `0` or empty. Any other type excludes: a player
    /// that sends the broker's own key means to use it, and a misreading must err towards privacy.
    static func excludeFlag(_ value: DBusValue) -> Bool {
        switch value.unwrapped {
        case .boolean(let flag):
            return flag
        case .byte, .int16, .uint16, .int32, .uint32, .int64, .uint64:
            return (try? value.integer(as: Int64.self)) != 0
        case .string(let string):
            guard string.utf8.count <= 16 else { return true }
            return !["false", "no", "0", ""].contains(BoundedText.trimmed(string[...]).lowercased())
        default:
            return true
        }
    }
}
