import AssetContract
import FoundationEssentials
import SwiftDBus

extension GenericMedia {
    /// Reads one asset (`a{sv}`) by the contract's table (``AssetContract``), where it lies in a
    /// message (an element of a reply's `aa{sv}`, or `MediaAdded`'s argument): a key sent twice
    /// keeps its last value, one variant wrapper is removed. `nil` for a value that is no
    /// string-keyed dictionary (inside any variants), or lacks a `started`; throws only for a
    /// malformed body.
    ///
    /// An asset not yet recorded (from `NowPlaying`) has no `id` and gets ``GenericMedia/notRecorded``.
    /// A known key of an unexpected type is read as absent; an unknown key is kept in
    /// ``otherFields`` (at most ``maximumOtherFields``): a newer broker adding or widening keys
    /// never breaks this client.
    init?(reading asset: inout ValueReader) throws(MarshallingError) {
        var known: [AssetKey: DBusValue] = [:]
        var others: [String: OtherField] = [:]
        guard try asset.entries({ name, value throws(MarshallingError) in
            let key = name.string
            if let field = AssetKey(rawValue: key) {
                known[field] = try value.value()
            } else if others.count < Self.maximumOtherFields {
                others[key] = OtherField(try value.value())
            }
        }) else { return nil }
        guard let started = known[.started].flatMap({ try? $0.integer(as: Int64.self) }) else { return nil }
        func text(_ key: AssetKey) -> String? {
            guard let text = try? known[key]?.string(), !text.isEmpty else { return nil }
            return text
        }
        func micros(_ key: AssetKey) -> Int64? { known[key].flatMap { try? $0.integer(as: Int64.self) } }
        self.init(
            id: micros(.id) ?? Self.notRecorded, title: text(.title), artist: text(.artist),
            artists: (try? known[.artists]?.strings()) ?? [], album: text(.album), appID: text(.appID),
            appName: text(.appName), appIcon: text(.appIcon), date: Date(microsecondsSinceEpoch: started),
            ended: micros(.ended).map(Date.init(microsecondsSinceEpoch:)),
            listened: micros(.listened).map { Duration.microseconds($0) },
            length: micros(.length).map { Duration.microseconds($0) },
            kind: text(.kind).map(Kind.init(rawValue:)), source: text(.source).map(Source.init(rawValue:)),
            artwork: text(.artwork), artworkURL: text(.artworkURL), site: text(.site), summary: text(.summary), otherFields: others)
    }

    /// The most unknown keys one asset keeps: a broker sends a few; a hostile peer cannot make an
    /// app hold more.
    static let maximumOtherFields = 32
}

extension GenericMedia.OtherField {
    init(_ value: DBusValue) {
        switch value.unwrapped {
        case .string(let text): self = .text(text)
        case .objectPath(let path): self = .text(path.rawValue)
        case .signature(let signature): self = .text(signature.rawValue)
        case .boolean(let flag): self = .boolean(flag)
        case .double(let number): self = .number(number)
        case .byte, .int16, .uint16, .int32, .uint32, .int64, .uint64:
            self = (try? value.integer(as: Int64.self)).map(Self.integer) ?? .unsupported(signature: value.signature.rawValue)
        default:
            self = (try? value.strings()).map(Self.texts) ?? .unsupported(signature: value.unwrapped.signature.rawValue)
        }
    }
}
