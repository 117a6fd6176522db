import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// Issue 3 §5 end to end: `Donate(a{sv})` as raw D-Bus callers send it — validated key by key,
/// idempotent, and subject to the same rules as listens from players.
@Suite struct DonationValidationTests {
    static let interface: InterfaceName = "org.mediabroker.MediaBroker1"

    /// Calls `Donate` with `fields` on a fresh connection: the id, or the D-Bus error.
    func donate(_ bus: PrivateBus, _ fields: [String: DBusValue]) async -> Result<Int64, BusError> {
        do {
            let connection = try BusConnection.connect(to: bus.address)
            defer { connection.close() }
            let reply = try await connection.call(MethodCall(
                destination: "org.mediabroker.MediaBroker1", path: "/org/mediabroker/MediaBroker1",
                interface: Self.interface, member: "Donate", arguments: [.vardict(fields)]))
            guard let id = try? reply.arguments.first?.integer(as: Int64.self) else {
                return .failure(BusError(.failed, "no id in the reply"))
            }
            return .success(id)
        } catch {
            return .failure(error)
        }
    }

    func start(_ bus: PrivateBus, minListen: String = "0") throws -> RunningBroker {
        try RunningBroker(bus: bus, arguments: ["--min-listen", minListen])
    }

    static let valid: [String: DBusValue] = ["app_id": .string("notes"), "title": .string("A Donated Song")]

    @Test("a donation older than RetentionDays is InvalidArgs naming started (retention would delete it at once); with retention 0 it is stored")
    func olderThanTheRetentionWindow() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let day: Int64 = 86_400_000_000
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000)
        var old = Self.valid
        old["title"] = .string("Ninety-one days ago")
        old["started"] = .int64(now - 91 * day)
        guard case .failure(let error) = await donate(bus, old) else {
            Issue.record("a donation the default 90-day retention would delete was accepted")
            return
        }
        #expect(error.name == .invalidArgs)
        #expect(error.message.contains("'started'") && error.message.contains("90 days"), "\(error.message)")
        var inside = old
        inside["title"] = .string("Eighty-nine days ago")
        inside["started"] = .int64(now - 89 * day)
        #expect(try await donate(bus, inside).get() > 0)

        try await client.setRetentionDays(0)
        #expect(try await donate(bus, old).get() > 0, "retention off keeps any age")
        #expect(try await client.recentMedia().compactMap(\.title).sorted() == ["Eighty-nine days ago", "Ninety-one days ago"])
    }

    @Test("each malformed donation is InvalidArgs naming the key, and nothing is stored",
          arguments: [
            ("title", ["app_id": DBusValue.string("notes")]),
            ("app_id", ["title": DBusValue.string("No App")]),
            ("title", ["app_id": .string("notes"), "title": .int32(5)]),
            ("title", ["app_id": .string("notes"), "title": .string("   ")]),
            ("app_id", ["app_id": .string(String(repeating: "a", count: 300)), "title": .string("Long App")]),
            ("artists", ["app_id": .string("notes"), "title": .string("t"), "artists": .string("not a list")]),
            ("started", ["app_id": .string("notes"), "title": .string("t"), "started": .string("yesterday")]),
            ("started", ["app_id": .string("notes"), "title": .string("t"), "started": .int64(-1)]),
            ("started", ["app_id": .string("notes"), "title": .string("t"), "started": .int64(4_000_000_000_000_000)]),
            ("length", ["app_id": .string("notes"), "title": .string("t"), "length": .int64(0)]),
            ("length", ["app_id": .string("notes"), "title": .string("t"), "length": .uint64(UInt64.max)]),
            ("ended", ["app_id": .string("notes"), "title": .string("t"), "started": .int64(2_000_000), "ended": .int64(1_000_000)]),
            ("kind", ["app_id": .string("notes"), "title": .string("t"), "kind": .string("ringtone")]),
            ("colour", ["app_id": .string("notes"), "title": .string("t"), "colour": .string("blue")]),
          ] as [(String, [String: DBusValue])])
    func invalid(key: String, fields: [String: DBusValue]) async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let result = await donate(bus, fields)
        guard case .failure(let error) = result else {
            Issue.record("accepted: \(fields)")
            return
        }
        #expect(error.name.rawValue == "org.freedesktop.DBus.Error.InvalidArgs", "\(error)")
        #expect(error.message.contains("'\(key)'"), "message: \(error.message)")
        #expect(try await broker.assets(broker.client()).isEmpty)
    }

    @Test("any integer type in range is accepted for times, and the asset has the fields donated")
    func integerTypes() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        // Yesterday, to the microsecond: inside any retention window.
        let started = Int64(Date().timeIntervalSince1970 * 1_000_000) - 86_400_000_000
        let result = await donate(bus, [
            "app_id": .string("notes"), "title": .string("Typed"), "artists": .strings(["A", "B"]), "album": .string("Alb"),
            "started": .uint64(UInt64(started)), "length": .uint32(180_000_000), "listened": .int32(120_000_000),
            "kind": .string("podcast"),
        ])
        let id = try result.get()
        let assets = try await broker.assets(client)
        try #require(assets.count == 1)
        #expect(assets[0].id == id)
        #expect(assets[0].title == "Typed")
        #expect(assets[0].artists == ["A", "B"] && assets[0].artist == "A, B")
        #expect(assets[0].album == "Alb")
        #expect(assets[0].date == Date(microsecondsSinceEpoch: started))
        #expect(assets[0].length == .seconds(180))
        #expect(assets[0].listened == .seconds(120))
        #expect(assets[0].kind == .podcast)
        #expect(assets[0].source == .donation)
        #expect(assets[0].appID == "notes")
    }

    @Test("the same donation twice gets the same id and one MediaAdded")
    func idempotent() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus)
        let client = try broker.client()
        let added = Mailbox<GenericMedia>()
        let stream = try await client.mediaAdded()
        Task { for await media in stream { added.put(media) } }
        var fields = Self.valid
        fields["started"] = .int64(Int64(Date().timeIntervalSince1970 * 1_000_000) - 86_400_000_000)
        let first = try await donate(bus, fields).get()
        let second = try await donate(bus, fields).get()
        #expect(first == second)
        #expect(try await added.take().id == first)
        // A different donation after it: its signal arrives, and nothing came in between.
        fields["title"] = .string("Another")
        let third = try await donate(bus, fields).get()
        #expect(third != first)
        #expect(try await added.take().id == third)
        #expect(try await broker.assets(client).count == 2)
    }

    @Test("donations follow the listen rules: too short, opted out and Media off are refused")
    func sameRulesAsListens() async throws {
        let bus = try PrivateBus.start()
        let broker = try start(bus, minListen: "30")
        let client = try broker.client()
        var short = Self.valid
        short["listened"] = .int64(5_000_000)
        let tooShort = await donate(bus, short)
        if case .failure(let error) = tooShort {
            #expect(error.name.rawValue == "org.freedesktop.DBus.Error.InvalidArgs")
            #expect(error.message.contains("'listened'"))
        } else {
            Issue.record("a 5 s listen was accepted under a 30 s rule")
        }
        try await client.setAppOptedOut("notes", true)
        if case .failure(let error) = await donate(bus, Self.valid) {
            #expect(error.name.rawValue == "org.mediabroker.MediaBroker1.Error.AppOptedOut")
        } else {
            Issue.record("an opted-out app's donation was accepted")
        }
        try await client.setAppOptedOut("notes", false)
        try await client.setMediaEnabled(false)
        if case .failure(let error) = await donate(bus, Self.valid) {
            #expect(error.name.rawValue == "org.mediabroker.MediaBroker1.Error.MediaDisabled")
        } else {
            Issue.record("a donation was accepted with Media off")
        }
        try await client.setMediaEnabled(true)
        #expect(try await broker.assets(client).isEmpty)
        _ = try await donate(bus, Self.valid).get()
        #expect(try await broker.assets(client).map(\.title) == ["A Donated Song"])
    }
}
