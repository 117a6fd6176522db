import FoundationEssentials
import SwiftDBus

extension GenericMedia {
    /// Reads one asset (`a{sv}`) as the contract defines it; `nil` when it lacks a `started`.
    /// An asset not yet recorded (from `NowPlaying`) has no `id` and gets ``GenericMedia/notRecorded``. A key of an unexpected type is read as absent, so a newer broker adding or
    /// widening keys never breaks this client.
    init?(fields: [String: DBusValue]) {
        self.init(Fields(fields))
    }

    /// Reads one asset where it lies in a reply (an element of `aa{sv}`), as ``init(fields:)`` reads
    /// it decoded: only the contract's keys become values. `nil` for an element that is no
    /// string-keyed dictionary, or lacks a `started`; throws only for a malformed body.
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

        init() {}

        init(_ map: [String: DBusValue]) {
            id = map["id"]
            title = map["title"]
            artist = map["artist"]
            artists = map["artists"]
            album = map["album"]
            appID = map["app_id"]
            appName = map["app_name"]
            appIcon = map["app_icon"]
            started = map["started"]
            ended = map["ended"]
            listened = map["listened"]
            length = map["length"]
            kind = map["kind"]
            source = map["source"]
        }

        /// Takes one entry of an asset read in place (the keys above, as static text); any other
        /// key is stepped over. A key sent twice keeps its last value, as in a decoded dictionary.
        mutating func take(_ name: borrowing EntryKey, _ value: inout ValueReader) throws(MarshallingError) {
            switch name.count {
            case 2: if name.equals("id") { id = try value.value() }
            case 4: if name.equals("kind") { kind = try value.value() }
            case 5:
                if name.equals("title") { title = try value.value() }
                else if name.equals("album") { album = try value.value() }
                else if name.equals("ended") { ended = try value.value() }
            case 6:
                if name.equals("artist") { artist = try value.value() }
                else if name.equals("app_id") { appID = try value.value() }
                else if name.equals("length") { length = try value.value() }
                else if name.equals("source") { source = try value.value() }
            case 7:
                if name.equals("artists") { artists = try value.value() }
                else if name.equals("started") { started = try value.value() }
            case 8:
                if name.equals("listened") { listened = try value.value() }
                else if name.equals("app_name") { appName = try value.value() }
                else if name.equals("app_icon") { appIcon = try value.value() }
            default: break
            }
        }
    }
}
