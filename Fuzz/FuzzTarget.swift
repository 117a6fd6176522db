// libFuzzer entry point: hostile bytes into everything a player or a client can reach without a
// file — message unmarshalling, MPRIS metadata decoding, the listening state machine, RecentMedia's
// filter, Donate's fields, the stored settings — and into SwiftDBus's one writer and one reader:
// libdbus must take every message the writer makes of checked values, and reading it back must
// give those values; reading a body in place must agree with reading its values whole. Built
// against the real SwiftDBus and MediaBroker modules and run by `Fuzz/run`.
//
// The first byte picks a target; the rest is `FuzzInput`'s format (or raw bytes, for the wire and
// settings targets). Besides "no crash, no sanitizer report", each target checks what its callers
// rely on — bounds, invariants, round trips — and `abort()`s when one fails, which libFuzzer keeps
// as a crash.

@testable import SwiftDBus
@testable import BrokerCore
@testable import MediaBroker
@testable import FuzzFormat
internal import CDBus
#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    var input = FuzzInput(bytes)
    switch input.byte() % 8 {
    case 0: fuzzMetadata(&input)
    case 1: fuzzListening(&input)
    case 2: fuzzRecentQuery(&input)
    case 3: fuzzDonation(&input)
    case 4: fuzzSettings(Array(bytes.dropFirst()))
    case 5: fuzzSingleValues(&input)
    case 6: fuzzWire(Array(bytes.dropFirst()))
    default: if input.byte() & 1 == 0 { fuzzMarshalling(&input) } else { fuzzAssetPage(&input) }
    }
    return 0
}

/// A failed expectation: print it and abort, so libFuzzer saves the input.
func expect(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        let line = "fuzz expectation failed: \(message())\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        abort()
    }
}

typealias Limits = TrackMetadata.Limits

func expectBounded(_ metadata: TrackMetadata) {
    for text in [metadata.title, metadata.album].compactMap({ $0 }) + metadata.artists + metadata.albumArtists + metadata.genres {
        expect(!text.isEmpty && text.utf8.count <= Limits.maximumTextBytes, "text out of bounds: \(text.utf8.count) bytes")
    }
    expect(metadata.artists.count <= Limits.maximumArtists, "\(metadata.artists.count) artists")
    expect(metadata.albumArtists.count <= Limits.maximumArtists, "\(metadata.albumArtists.count) album artists")
    expect(metadata.genres.count <= Limits.maximumGenres, "\(metadata.genres.count) genres")
    expect((metadata.trackID?.utf8.count ?? 0) <= Limits.maximumTrackIDBytes, "track id too long")
    expect((metadata.url?.utf8.count ?? 0) <= Limits.maximumURLBytes, "url too long")
    if let length = metadata.length { expect((Limits.minimumLength...Limits.maximumLength).contains(length), "length \(length)") }
}

// MARK: Metadata

func fuzzMetadata(_ input: inout FuzzInput) {
    let value = input.value()
    // Decoded once, through the player's path: a hostile value costs the decoder its whole size,
    // and decoding it again (as a map, or `decode(value)` beside `PlayerEvent.metadata`) only
    // repeated the same calls at the same cost.
    guard case .metadata(let metadata) = PlayerEvent.metadata(mpris: value) else {
        return expect(false, "PlayerEvent.metadata made another kind of event")
    }
    expectBounded(metadata)
    // Decoding what was decoded changes nothing: cleaning is idempotent.
    var again: [String: DBusValue] = [:]
    if let trackID = metadata.trackID { again[TrackMetadata.Key.trackID] = .string(trackID) }
    if let title = metadata.title { again[TrackMetadata.Key.title] = .string(title) }
    if !metadata.artists.isEmpty { again[TrackMetadata.Key.artist] = .strings(metadata.artists) }
    if let album = metadata.album { again[TrackMetadata.Key.album] = .string(album) }
    if !metadata.albumArtists.isEmpty { again[TrackMetadata.Key.albumArtist] = .strings(metadata.albumArtists) }
    if !metadata.genres.isEmpty { again[TrackMetadata.Key.genre] = .strings(metadata.genres) }
    if let url = metadata.url { again[TrackMetadata.Key.url] = .string(url) }
    if let length = metadata.length { again[TrackMetadata.Key.length] = .int64(length) }
    if metadata.isExcluded { again[TrackMetadata.Key.exclude] = .boolean(true) }
    expect(TrackMetadata.decode(again) == metadata, "re-decoding the decoded metadata changed it")
}

func fuzzSingleValues(_ input: inout FuzzInput) {
    while !input.isAtEnd {
        let value = input.value()
        _ = PlaybackStatus(mpris: value)
        if case .rate(let rate)? = PlayerEvent.rate(mpris: value) { _ = PlayerListening.countedRate(rate) }
        _ = PlayerEvent.seeked(mpris: value)
        _ = TrackMetadata.excludeFlag(value)
        _ = TrackMetadata.microseconds(value)
        _ = try? value.strings()
        _ = try? value.integer(as: Int64.self)
        _ = try? value.integer(as: UInt32.self)
    }
}

// MARK: Listening

/// An event script: rule, checkpoint interval, then (time step, event) pairs until the input ends.
/// The effects must stay a coherent sequence of store operations whatever the player says and
/// whenever it says it (the invariants of `ListeningInvariantTests`, on arbitrary input).
func fuzzListening(_ input: inout FuzzInput) {
    let rules: [ListenRule] = [.lastFM, .minimum(seconds: 2), .minimum(0), .minimum(Microseconds(input.integer(UInt32.self)))]
    let rule = rules[Int(input.byte()) % rules.count]
    let intervals: [Microseconds?] = [nil, 60_000_000, PlayerListening.defaultCheckpointInterval, 1]
    var listening = PlayerListening(rule: rule, checkpointInterval: intervals[Int(input.byte()) % intervals.count])
    var now: Microseconds = 1_700_000_000_000_000
    var open: String?
    var keys: Set<String> = []
    var steps = 0
    while !input.isAtEnd && steps < 2_000 {
        steps += 1
        switch input.byte() % 16 {
        case 0: now = .max
        case 1: now = .min
        case 2: now = now &- Microseconds(input.integer(UInt32.self))  // the clock steps back
        case 3, 4, 5: break
        case 6: now = Clock.add(now, Microseconds(input.integer(UInt64.self) >> 20))
        default: now = Clock.add(now, Microseconds(input.integer(UInt16.self)) * 10_000)
        }
        let event: PlayerEvent?
        switch input.byte() % 11 {
        case 0: event = PlayerEvent.playbackStatus(mpris: input.value()) ?? .playbackStatus(PlaybackStatus.allCases[Int(input.byte()) % 3])
        case 1: event = .playbackStatus(PlaybackStatus.allCases[Int(input.byte()) % 3])
        case 2, 3: event = PlayerEvent.metadata(mpris: input.value())
        case 4: event = PlayerEvent.rate(mpris: input.value())
        case 5: event = PlayerEvent.seeked(mpris: input.value())
        case 6, 7: event = .tick
        case 8: event = .discard
        case 9: event = .playerGone
        default: event = .brokerStopping
        }
        guard let event else { continue }
        let effects = listening.handle(event, at: now)
        for effect in effects {
            let listen = effect.listen
            // Described only when an expectation fails: printing an event goes through reflection,
            // and describing every effect eagerly was a seventh of the fuzzer's time.
            let context = { "step \(steps) \(event) → \(effect)" }
            expect(listen.started <= listen.ended, "started after ended: \(context())")
            expect(listen.listened >= 0, "negative listened: \(context())")
            expectBounded(listen.metadata)
            switch effect {
            case .opened:
                expect(open == nil, "opened while another is open: \(context())")
                expect(!keys.contains(listen.key), "a key used twice: \(context())")
                expect(listen.metadata.isRecordable, "opened an unrecordable listen: \(context())")
                open = listen.key
                keys.insert(listen.key)
            case .checkpoint:
                expect(open == listen.key, "checkpoint of a listen not open: \(context())")
                expect(listen.metadata.isRecordable, "checkpoint of an unrecordable listen: \(context())")
            case .finished:
                // Written first, or qualifying before its first write (no event in between).
                expect(open == listen.key || (open == nil && !keys.contains(listen.key)), "finished a listen not open: \(context())")
                keys.insert(listen.key)
                expect(rule.qualifies(listened: listen.listened, length: listen.length), "finished a listen that does not qualify: \(context())")
                let asset = listen.asset(appID: "app", appName: nil, appIcon: nil)
                expect(asset != nil, "a finished listen makes no asset: \(context())")
                if let asset { checkMarshals(asset.fields, "a finished listen's asset") }
                open = nil
            case .dropped(_, let reason):
                expect(open == listen.key, "dropped a listen not open: \(context())")
                if reason == .tooShort {
                    expect(!rule.qualifies(listened: listen.listened, length: listen.length), "dropped as too short but qualifies: \(context())")
                }
                open = nil
            }
        }
        // A written listen is the current one; a current one not written has not been heard long
        // enough to be.
        if let open {
            expect(listening.current?.key == open, "current disagrees with the effects at step \(steps)")
        } else if let unwritten = listening.current {
            expect(unwritten.listened < PlayerListening.firstWriteAfter, "an unwritten listen heard long enough at step \(steps)")
            expect(!rule.qualifies(listened: unwritten.listened, length: unwritten.length), "an unwritten listen qualifies at step \(steps)")
        }
        if let deadline = listening.nextDeadline(at: now) { expect(deadline >= now, "a deadline in the past at step \(steps)") }
        if let current = listening.current(at: now) { expect(current.listened >= 0, "current listened < 0") }
        switch event {
        case .playbackStatus, .metadata, .rate:
            expect(listening.handle(event, at: now).isEmpty, "a repeated \(event) changed something")
        default: break
        }
    }
}

// MARK: Client input

func fuzzRecentQuery(_ input: inout FuzzInput) {
    let filter = input.dictionary()
    guard let query = try? RecentQuery(filter: filter) else { return }
    expect((1...BrokerContract.maximumLimit).contains(query.limit), "limit \(query.limit)")
    if let since = query.since, let until = query.until { expect(since <= until, "since after until") }
    if let since = query.since { expect(since >= 0, "negative since") }
    if let app = query.appID { expect(!app.isEmpty && app.utf8.count <= BrokerContract.maximumAppIDLength, "app_id bounds") }
    if let before = query.beforeID { expect(before > 0, "before_id \(before)") }
}

func fuzzDonation(_ input: inout FuzzInput) {
    let now = Microseconds(input.integer(UInt64.self) >> 2)
    let fields = input.dictionary()
    guard let asset = try? MediaAsset(donation: fields, now: now) else { return }
    expect(!asset.title.isEmpty && asset.title.utf8.count <= Limits.maximumTextBytes, "title bounds")
    expect(!asset.appID.isEmpty && asset.appID.utf8.count <= BrokerContract.maximumAppIDLength, "app_id bounds")
    expect(asset.artists.count <= Limits.maximumArtists, "artists bounds")
    expect(asset.started <= now &+ 60_000_000, "started in the future")
    expect(asset.ended >= asset.started, "ended before started")
    expect(asset.source == .donation, "source")
    checkMarshals(asset.fields, "a donated asset")
}

func fuzzSettings(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let settings = try? PrivacySettings(decoding: text) else { return }
    expect(settings.retentionDays <= PrivacySettings.maximumRetentionDays, "retention \(settings.retentionDays)")
    let again = try? PrivacySettings(decoding: settings.encoded)
    expect(again == settings, "settings do not survive encoding: \(settings)")
}

// MARK: The wire

/// Whatever a decoded value is, the broker must be able to send it (or refuse it in `check`).
func checkMarshals(_ value: DBusValue, _ what: String) {
    do {
        try Marshalling.check([value])
    } catch {
        expect(false, "\(what) cannot be sent: \(error)")
    }
}

/// The values of `message`'s body, read whole.
func readValues(of message: OpaquePointer) -> [DBusValue]? {
    let signature = dbus_message_get_signature(message).map { String(cString: $0) } ?? ""
    return try? MessageBody(of: message, signature: Signature(validated: signature)).values()
}

/// Raw bytes as a D-Bus message on the wire: libdbus validates it, then the broker's reader turns
/// its body into values, and the metadata decoder reads each one.
func fuzzWire(_ bytes: [UInt8]) {
    var error = DBusError()
    dbus_error_init(&error)
    defer { dbus_error_free(&error) }
    let message = bytes.withUnsafeBufferPointer { buffer in
        buffer.baseAddress.map { base in
            base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { dbus_message_demarshal($0, Int32(buffer.count), &error) }
        } ?? nil
    }
    guard let message else { return }
    defer { dbus_message_unref(message) }
    guard let values = readValues(of: message) else { return }
    for value in values {
        expectBounded(TrackMetadata.decode(value))
        // What arrived from libdbus can be sent again.
        checkMarshals(value, "a value read from the wire")
    }
    checkReadInPlace(message, values)
}

/// A body visited in place (`BodyReader`'s entries and elements, values stepped over or read)
/// must give what reading its values whole gives; a `PropertiesChanged` read in place must give
/// what its decoded arguments give once written again and read the same way.
func checkReadInPlace(_ message: OpaquePointer, _ values: [DBusValue]) {
    let signature = dbus_message_get_signature(message).map { String(cString: $0) } ?? ""
    guard let body = try? MessageBody(of: message, signature: Signature(validated: signature)) else { return }
    var visited: [[DBusValue.DictionaryEntry]] = []
    let read: Void? = try? body.read { reader throws(MarshallingError) in
        while !reader.isAtEnd {
            var entries: [DBusValue.DictionaryEntry] = []
            let isDictionary = try reader.entries { key, value throws(MarshallingError) in
                // Every other entry is stepped over rather than read.
                let content: DBusValue = entries.count % 2 == 0 ? try value.value() : .boolean(false)
                entries.append(.init(key: .string(key.string), value: content))
            }
            visited.append(isDictionary ? entries : [])
        }
    }
    expect(read != nil, "a body libdbus took could not be read in place: \(values)")
    let expected: [[DBusValue.DictionaryEntry]] = values.map { value in
        guard case .dictionary(let key, _, let entries) = value.unwrapped, key == .string || key == .objectPath else { return [] }
        return entries.enumerated().map { index, entry in
            var content = entry.value
            if case .variant(let inner) = content { content = inner }
            return .init(key: .string((try? entry.key.string()) ?? ""), value: index % 2 == 0 ? content : .boolean(false))
        }
    }
    expect(visited == expected, "entries read in place differ from the values read whole: \(values)")

    // The same for arrays' elements, every other one read (one variant removed), the rest stepped over.
    var elements: [[DBusValue]] = []
    let readElements: Void? = try? body.read { reader throws(MarshallingError) in
        while !reader.isAtEnd {
            var items: [DBusValue] = []
            let isArray = try reader.elements { element throws(MarshallingError) in
                items.append(items.count % 2 == 0 ? try element.value() : .boolean(false))
            }
            elements.append(isArray ? items : [])
        }
    }
    expect(readElements != nil, "a body libdbus took could not be read in place by elements: \(values)")
    let expectedElements: [[DBusValue]] = values.map { value in
        guard case .array(_, let items) = value.unwrapped else { return [] }
        return items.enumerated().map { index, item in
            guard index % 2 == 0 else { return .boolean(false) }
            if case .variant(let inner) = item { return inner }
            return item
        }
    }
    expect(elements == expectedElements, "elements read in place differ from the values read whole: \(values)")

    let player = "org.mpris.MediaPlayer2.Player"
    let signal = PropertiesChangedSignal(body, readingPropertiesOf: player)
    let isSignal = values.count == 3 && (try? values[0].string()) != nil
    expect((signal != nil) == isSignal, "PropertiesChanged read in place: \(signal != nil), read whole: \(isSignal)")
    guard let signal else { return }
    // Only the Player interface's properties are read; another interface's change nothing.
    let again = PlayerProperties((try? values[0].string()) == player ? (try? values[1].vardict()) ?? [:] : [:])
    expect(signal.interface == (try? values[0].string()), "interface")
    expect(signal.invalidated == ((try? values[2].strings()) ?? []), "invalidated names")
    expect(signal.changed.metadata == again.metadata, "metadata read in place differs once written again: \(values)")
    expect(signal.changed.playbackStatus == again.playbackStatus && signal.changed.rate == again.rate, "status or rate differs")
    if let metadata = signal.changed.metadata { expectBounded(metadata) }
}

/// Values built from the fuzz format: those that pass the check are written by the one writer into
/// a real message, which libdbus must take; read back, they keep their types and write again to the
/// same bytes (so nothing but what `WireText` replaces changes on the way).
func fuzzMarshalling(_ input: inout FuzzInput) {
    let values = (0..<Int(input.byte() % 4 + 1)).map { _ in input.value() }
    guard (try? Marshalling.check(values)) != nil else { return }
    let header = WireMessage.Header(kind: .signal, path: "/fuzz", interface: "org.fuzz", member: "Value")
    guard let message = WireMessage.make(header, arguments: ValueArguments(values)) else {
        // Only a message over D-Bus's size limit may be refused.
        let size = (try? MessageBody(values))?.bytes.count ?? 0
        return expect(size > Int(cdbus_maximum_message_length) - 256, "libdbus refused checked values: \(values)")
    }
    defer { dbus_message_unref(message) }
    let back = readValues(of: message)
    expect(back?.map(\.signature) == values.map(\.signature), "signatures changed on the way through a message")
    let again = back.flatMap { try? MessageBody($0).bytes }
    expect(again != nil && again == (try? MessageBody(values).bytes), "values changed on the way through a message: \(values)")
    for value in back ?? [] { expectBounded(TrackMetadata.decode(value)) }
}

/// Assets built from the fuzz format, written as a `RecentMedia` page by the writer's vardict shapes
/// (`AssetPage`): libdbus must take every page the broker can build, and its body must be what
/// writing the same assets as values (`MediaAsset.fields`) gives, byte for byte.
func fuzzAssetPage(_ input: inout FuzzInput) {
    func someText(_ longest: UInt8) -> String { input.text(Int(input.byte() % longest)) }
    func maybeText(_ longest: UInt8) -> String? { input.byte() % 3 == 0 ? nil : someText(longest) }
    var assets: [MediaAsset] = []
    for _ in 0..<Int(input.byte() % 4) {
        let artists = (0..<Int(input.byte() % 4)).map { _ in someText(24) }
        let kinds: [MediaAsset.Kind?] = [nil, .music, .podcast, .audiobook, .video]
        assets.append(MediaAsset(
            id: input.byte() % 2 == 0 ? nil : input.integer(Int64.self), title: someText(48), artists: artists,
            album: maybeText(32), appID: someText(24), appName: maybeText(24), appIcon: maybeText(40),
            started: input.integer(), ended: input.integer(), listened: input.integer(),
            length: input.byte() % 2 == 0 ? nil : input.integer(Int64.self), kind: kinds[Int(input.byte()) % kinds.count],
            source: input.byte() % 2 == 0 ? .mpris : .donation))
    }
    guard let message = WireMessage.make(WireMessage.Header(kind: .methodReturn, replySerial: 1), arguments: AssetPage(assets: assets))
    else { return expect(false, "libdbus refused a page the broker built: \(assets)") }
    defer { dbus_message_unref(message) }
    expect(readValues(of: message) != nil, "a page the broker built cannot be read back: \(assets)")
    let written = try? MessageBody(of: message, signature: "aa{sv}").bytes
    let asValues = try? MessageBody([.array(element: .vardict, assets.map(\.fields))]).bytes
    expect(written != nil && written == asValues, "the page's bytes differ from its values' for \(assets)")
}
