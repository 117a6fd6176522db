import FoundationEssentials
import SwiftDBus

extension GenericMedia {
    /// Reads one asset (`a{sv}`) as the contract defines it, where it lies in a message (an element
    /// of a reply's `aa{sv}`, or `MediaAdded`'s argument): only the contract's keys become values, a
    /// key sent twice keeps its last value, one variant wrapper is removed. `nil` for a value that
    /// is no string-keyed dictionary (inside any variants), or lacks a `started`; throws only for a
    /// malformed body.
    ///
    /// An asset not yet recorded (from `NowPlaying`) has no `id` and gets ``GenericMedia/notRecorded``.
    /// A key of an unexpected type is read as absent, so a newer broker adding or widening keys
    /// never breaks this client.
    init?(reading asset: inout ValueReader) throws(MarshallingError) {
        var fields = Fields()
        guard try asset.entries({ name, value throws(MarshallingError) in try fields.take(name, &value) }) else { return nil }
        self.init(fields)
    }

    private init?(_ fields: Fields) {
        guard let started = try? fields.started?.integer(as: Int64.self) else { return nil }
        let id = (try? fields.id?.integer(as: Int64.self)) ?? Self.notRecorded
        func text(_ value: DBusValue?) -> String? {
            guard let text = try? value?.string(), !text.isEmpty else { return nil }
            return text
        }
        func micros(_ value: DBusValue?) -> Int64? { try? value?.integer(as: Int64.self) }
        self.init(
            id: id, title: text(fields.title), artist: text(fields.artist), artists: (try? fields.artists?.strings()) ?? [],
            album: text(fields.album), appID: text(fields.appID), appName: text(fields.appName), appIcon: text(fields.appIcon),
            date: Date(microsecondsSinceEpoch: started),
            ended: micros(fields.ended).map(Date.init(microsecondsSinceEpoch:)),
            listened: micros(fields.listened).map { Duration.microseconds($0) },
            length: micros(fields.length).map { Duration.microseconds($0) },
            kind: text(fields.kind).map(Kind.init(rawValue:)),
            source: text(fields.source).map(Source.init(rawValue:)))
    }

    /// The values of the contract's keys in one asset, each absent until found.
    private struct Fields {
        var id, title, artist, artists, album, appID, appName, appIcon: DBusValue?
        var started, ended, listened, length, kind, source: DBusValue?

        /// Takes one entry of an asset read in place; any other key is stepped over. A key sent
        /// twice keeps its last value, as in a decoded dictionary.
        mutating func take(_ name: borrowing EntryKey, _ value: inout ValueReader) throws(MarshallingError) {
            guard let field = Field(count: name.count, matching: { name.equals($0) }) else { return }
            set(field, try value.value())
        }

        private enum Field {
            case id, title, artist, artists, album, appID, appName, appIcon, started, ended, listened, length, kind, source

            /// The field a key names: the contract's keys, spelled as static text and told apart
            /// by length first; `nil` for any other key.
            init?(count: Int, matching matches: (StaticString) -> Bool) {
                let field: Field? = switch count {
                case 2: matches("id") ? .id : nil
                case 4: matches("kind") ? .kind : nil
                case 5: matches("title") ? .title : matches("album") ? .album : matches("ended") ? .ended : nil
                case 6: matches("artist") ? .artist : matches("app_id") ? .appID : matches("length") ? .length
                    : matches("source") ? .source : nil
                case 7: matches("artists") ? .artists : matches("started") ? .started : nil
                case 8: matches("listened") ? .listened : matches("app_name") ? .appName : matches("app_icon") ? .appIcon : nil
                default: nil
                }
                guard let field else { return nil }
                self = field
            }
        }

        private mutating func set(_ field: Field, _ value: DBusValue) {
            switch field {
            case .id: id = value
            case .title: title = value
            case .artist: artist = value
            case .artists: artists = value
            case .album: album = value
            case .appID: appID = value
            case .appName: appName = value
            case .appIcon: appIcon = value
            case .started: started = value
            case .ended: ended = value
            case .listened: listened = value
            case .length: length = value
            case .kind: kind = value
            case .source: source = value
            }
        }
    }
}
