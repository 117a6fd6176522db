import FoundationEssentials
import SwiftDBus

extension GenericMedia {
    /// Reads one asset (`a{sv}`) as the contract defines it; `nil` when it lacks a `started`.
    /// An asset not yet recorded (from `NowPlaying`) has no `id` and gets ``GenericMedia/notRecorded``. A key of an unexpected type is read as absent, so a newer broker adding or
    /// widening keys never breaks this client.
    init?(fields: [String: DBusValue]) {
        guard let started = try? fields["started"]?.integer(as: Int64.self) else { return nil }
        let id = (try? fields["id"]?.integer(as: Int64.self)) ?? Self.notRecorded
        func text(_ key: String) -> String? {
            guard let value = try? fields[key]?.string(), !value.isEmpty else { return nil }
            return value
        }
        func micros(_ key: String) -> Int64? { try? fields[key]?.integer(as: Int64.self) }
        let artists = (try? fields["artists"]?.strings()) ?? []
        self.init(
            id: id, title: text("title"), artist: text("artist"), artists: artists, album: text("album"),
            appID: text("app_id"), appName: text("app_name"), appIcon: text("app_icon"),
            date: Date(microsecondsSinceEpoch: started),
            ended: micros("ended").map(Date.init(microsecondsSinceEpoch:)),
            listened: micros("listened").map { Duration.microseconds($0) },
            length: micros("length").map { Duration.microseconds($0) },
            kind: text("kind").map(Kind.init(rawValue:)),
            source: text("source").map(Source.init(rawValue:)))
    }
}
