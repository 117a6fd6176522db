import SwiftDBus
import AssetContract
import BrokerCore

extension MediaAsset {
    /// Reads `Donate`'s `a{sv}` into an asset by the contract's table (``AssetContract``): the keys
    /// it marks required must be there, those it refuses (`id`, `source`, `artwork`, …) or does
    /// not know are `InvalidArgs`, each value is read by its type and limits — integers of any
    /// D-Bus integer type, text cleaned and bounded like MPRIS metadata — and a wrong kind or an
    /// out-of-range value is `InvalidArgs` naming the key.
    ///
    /// `listened` defaults to `ended - started`, and `ended` to `started + length` (or `started`):
    /// an app that donates without saying how long is vouching for a listen.
    init(donation fields: [String: DBusValue], now: Microseconds) throws(BusError) {
        var values: [AssetKey: AssetValue] = [:]
        for name in fields.keys.sorted() {
            guard let key = AssetKey(rawValue: name), AssetContract.spec(key).donate != .refused, let value = fields[name] else {
                throw .invalidArgs("unknown key '\(name.prefix(64))' (known: \(Self.donationKeys))")
            }
            values[key] = try Self.donated(AssetContract.spec(key), value)
        }
        for spec in AssetContract.keys where spec.donate == .required && values[spec.key] == nil {
            throw .invalidArgs("'\(spec.key.rawValue)' is required")
        }
        func text(_ key: AssetKey) -> String? { if case .text(let text)? = values[key] { text } else { nil } }
        func micros(_ key: AssetKey) -> Microseconds? { if case .integer(let number)? = values[key] { number } else { nil } }
        var artists: [String] = []
        if case .texts(let list)? = values[.artists] { artists = list } else if let artist = text(.artist) { artists = [artist] }
        let started = micros(.started) ?? now
        // A listen cannot start tomorrow; a little clock skew between processes is allowed.
        guard started <= now + 60_000_000 else { throw .invalidArgs("'started' is in the future") }
        let length = micros(.length)
        if let length, length == 0 { throw .invalidArgs("'length' must be positive") }
        let given = micros(.listened)
        let ended = micros(.ended) ?? (started &+ (given ?? length ?? 0))
        guard ended >= started else { throw .invalidArgs("'ended' must not be before 'started'") }
        self.init(title: text(.title) ?? "", artists: artists, album: text(.album), appID: text(.appID) ?? "",
                  appName: text(.appName), appIcon: text(.appIcon), started: started, ended: ended,
                  listened: given ?? (ended - started), length: length, kind: text(.kind).map(Kind.init(rawValue:)),
                  source: .donation)
    }

    /// The keys `Donate` takes, for the error that names an unknown one.
    static let donationKeys = AssetContract.keys.filter { $0.donate != .refused }.map(\.key.rawValue).joined(separator: ", ")

    /// One donated value, read by its type in the table; `nil` for a value that says nothing (an
    /// empty optional text, an icon path that is not absolute).
    static func donated(_ spec: AssetKeySpec, _ value: DBusValue) throws(BusError) -> AssetValue? {
        let key = spec.key.rawValue
        switch spec.type {
        case .text, .path, .appID, .kind:
            guard let raw = try? value.string() else { throw .invalidArgs("'\(key)' must be a string") }
            let clean = BoundedText.clean(raw, maxBytes: AssetContract.maximumTextBytes)
            if spec.donate == .required, clean == nil { throw .invalidArgs("'\(key)' must not be empty") }
            guard let clean else { return nil }
            switch spec.type {
            case .path: return clean.hasPrefix("/") ? .text(clean) : nil
            case .appID:
                guard AssetContract.isAppID(clean) else {
                    throw .invalidArgs("'\(key)' must be a desktop-file id: \(AssetContract.appIDRule)")
                }
            case .kind:
                guard ["music", "podcast", "audiobook", "video"].contains(clean) else {
                    throw .invalidArgs("'\(key)' must be music, podcast, audiobook or video")
                }
            default: break
            }
            return .text(clean)
        case .texts:
            // Only the items that could be kept are looked at, as of a player's list
            // (``TrackMetadata/cleanList(_:max:)``): a list of thousands costs what its first 256 do.
            let looked = AssetContract.maximumArtists * TrackMetadata.examinedPerKept
            guard let items = try? value.array(), let list = try? items.prefix(looked).map({ try $0.string() })
            else { throw .invalidArgs("'\(key)' must be an array of strings") }
            return .texts(Array(list.lazy.compactMap { BoundedText.clean($0, maxBytes: AssetContract.maximumTextBytes) }
                .prefix(AssetContract.maximumArtists)))
        case .instant, .duration, .id:
            guard let number = try? value.integer(as: Int64.self), number >= 0 else {
                throw .invalidArgs("'\(key)' must be a non-negative integer of microseconds")
            }
            return .integer(number)
        }
    }
}

extension MediaAsset {
    /// `Donate` as the rule and the person's settings allow it (``refusalOfDonation(listenedTold:now:rule:settings:)``).
    init(donation fields: [String: DBusValue], now: Microseconds, rule: ListenRule, settings: PrivacySettings) throws(BusError) {
        try self.init(donation: fields, now: now)
        if let refusal = refusalOfDonation(listenedTold: fields["listened"] != nil, now: now, rule: rule, settings: settings) {
            throw BusError(refusal)
        }
    }
}
