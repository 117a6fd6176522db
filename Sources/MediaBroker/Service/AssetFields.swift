import SwiftDBus
import AssetContract
import BrokerCore

/// Where an asset's contract fields go: straight into a message (``VardictWriter``), or into a
/// ``DBusValue`` dictionary (``MediaAsset/fields``). One list of fields serves both.
protocol AssetFieldSink: ~Copyable {
    mutating func add(_ key: AssetKey, text: String)
    mutating func add(_ key: AssetKey, texts: [String])
    mutating func add(_ key: AssetKey, integer: Int64)
}

extension VardictWriter: AssetFieldSink {
    mutating func add(_ key: AssetKey, text: String) { add(key.rawValue, text) }
    mutating func add(_ key: AssetKey, texts: [String]) { add(key.rawValue, texts) }
    mutating func add(_ key: AssetKey, integer: Int64) { add(key.rawValue, integer) }
}

extension MediaAsset {
    /// The asset as the contract's `a{sv}` (``AssetContract``): every key it has a value for, in
    /// the table's order; unknown values are absent keys, never empty strings.
    func writeFields<Sink: AssetFieldSink & ~Copyable>(to sink: inout Sink) {
        // `artist` joins the artists: once for its own key and the summary.
        let artist = artist
        func text(_ key: AssetKey, _ value: String?) {
            if let value, !value.isEmpty { sink.add(key, text: value) }
        }
        func integer(_ key: AssetKey, _ value: Int64?) {
            if let value { sink.add(key, integer: value) }
        }
        for key in AssetContract.orderedKeys {
            switch key {
            case .album: text(key, album)
            case .appIcon: text(key, appIcon)
            case .appID: sink.add(key, text: appID)
            case .appName: text(key, appName)
            case .artist: text(key, artist)
            case .artists: if !artists.isEmpty { sink.add(key, texts: artists) }
            case .artwork: text(key, artwork)
            case .artworkURL: text(key, artworkURL)
            case .site: text(key, site)
            case .ended: integer(key, ended)
            case .id: integer(key, id)
            case .kind: text(key, kind?.rawValue)
            case .length: integer(key, length)
            case .listened: integer(key, listened)
            case .source: sink.add(key, text: source.rawValue)
            case .started: integer(key, started)
            case .summary: sink.add(key, text: Self.summary(title: title, artist: artist, album: album))
            case .title: sink.add(key, text: title)
            }
        }
    }

    /// One line ready to display: "Teardrop — Massive Attack · Mezzanine", cut like any text.
    var summary: String { Self.summary(title: title, artist: artist, album: album) }

    static func summary(title: String, artist: String?, album: String?) -> String {
        let album = album.flatMap { $0.isEmpty ? nil : $0 }
        var line = ""
        line.reserveCapacity(title.utf8.count + (artist?.utf8.count ?? 0) + (album?.utf8.count ?? 0) + 10)
        line.append(title)
        if let artist {
            line.append(" — ")
            line.append(artist)
        }
        if let album {
            line.append(" · ")
            line.append(album)
        }
        // The parts are clean already (``bounded``); only together may they pass the bound.
        guard line.utf8.count > AssetContract.maximumTextBytes else { return line }
        return BoundedText.clean(line, maxBytes: AssetContract.maximumTextBytes) ?? title
    }

    /// The asset as the contract's `a{sv}`, as a value (see ``writeFields(to:)``).
    var fields: DBusValue {
        var entries = FieldEntries()
        writeFields(to: &entries)
        return .dictionary(key: .string, value: .variant, entries.entries)
    }
}

private struct FieldEntries: AssetFieldSink {
    var entries: [DBusValue.DictionaryEntry] = []

    init() { entries.reserveCapacity(AssetContract.keys.count) }

    mutating func add(_ key: AssetKey, text: String) { add(key, .string(text)) }
    mutating func add(_ key: AssetKey, texts: [String]) { add(key, .strings(texts)) }
    mutating func add(_ key: AssetKey, integer: Int64) { add(key, .int64(integer)) }

    private mutating func add(_ key: AssetKey, _ value: DBusValue) {
        entries.append(DBusValue.DictionaryEntry(key: .string(key.rawValue), value: .variant(value)))
    }
}

/// A page of assets as a reply's `aa{sv}`, written straight into the message.
struct AssetPage: MessageArguments {
    let assets: [MediaAsset]
    var signature: Signature { "aa{sv}" }

    func write(to writer: inout ArgumentWriter) {
        writer.appendVardicts(assets) { asset, fields in asset.writeFields(to: &fields) }
    }
}

/// One asset as `MediaAdded`'s `a{sv}`, written straight into the signal.
struct AssetAnnouncement: MessageArguments {
    let asset: MediaAsset
    var signature: Signature { .vardict }

    func write(to writer: inout ArgumentWriter) {
        writer.appendVardict { asset.writeFields(to: &$0) }
    }
}

