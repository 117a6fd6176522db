import Foundation
import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// Issue 6 §6: every method and property with wrong types, missing or unknown keys, huge limits,
/// negative times and oversized strings gets the documented D-Bus error — never a crash, never a
/// hang — and a full page of the largest assets still fits a bus message. A call of a megabyte is
/// larger than any method but `Donate` accepts, and one of several megabytes than `Donate` does:
/// InvalidArgs before it is read (issue 32, item 8).
@Suite struct ReliabilityClientInputTests {
    static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    static let megabyte = String(repeating: "m", count: 1 << 20)
    /// Longer than any text the broker keeps, within what any method accepts.
    static let longText = String(repeating: "l", count: 16 << 10)
    static let longAppID = String(repeating: "a", count: 256)
    /// `RecentMedia`'s largest page (docs/dbus-api.md).
    static let maximumLimit = 1000

    /// One hostile call and the error it must get (`nil`: it must succeed).
    struct Case: CustomStringConvertible {
        var member: MemberName
        var arguments: [DBusValue]
        var interface: InterfaceName = "org.mediabroker.MediaBroker1"
        var error: String?
        var description: String { "\(interface).\(member)(\(arguments.map { "\($0.signature)" }.joined(separator: ","))) → \(error ?? "success")" }
    }

    static func filter(_ entries: [String: DBusValue]) -> [DBusValue] { [.vardict(entries)] }
    static func bad(_ member: MemberName, _ arguments: [DBusValue], _ error: String = invalidArgs) -> Case {
        Case(member: member, arguments: arguments, error: error)
    }
    static func property(_ member: MemberName, _ arguments: [DBusValue], _ error: String?) -> Case {
        Case(member: member, arguments: arguments, interface: .properties, error: error)
    }

    static let cases: [Case] = {
        let ours = DBusValue.string("org.mediabroker.MediaBroker1")
        var cases: [Case] = []
        // RecentMedia
        cases += [
            bad("RecentMedia", []), bad("RecentMedia", [.string("limit=5")]), bad("RecentMedia", filter([:]) + [.string("extra")]),
            bad("RecentMedia", filter(["limit": .string("5")])), bad("RecentMedia", filter(["limit": .uint32(0)])),
            bad("RecentMedia", filter(["limit": .uint32(1001)])), bad("RecentMedia", filter(["limit": .uint64(.max)])),
            bad("RecentMedia", filter(["limit": .int32(-1)])), bad("RecentMedia", filter(["limit": .double(10)])),
            bad("RecentMedia", filter(["since": .int64(-1)])), bad("RecentMedia", filter(["until": .int64(.min)])),
            bad("RecentMedia", filter(["since": .int64(10), "until": .int64(5)])), bad("RecentMedia", filter(["since": .string("yesterday")])),
            bad("RecentMedia", filter(["app_id": .string("")])), bad("RecentMedia", filter(["app_id": .string(longAppID)])),
            bad("RecentMedia", filter(["app_id": .string(megabyte)])), bad("RecentMedia", filter(["app_id": .int32(3)])),
            bad("RecentMedia", filter(["before_id": .int64(0)])), bad("RecentMedia", filter(["before_id": .int64(-5)])),
            bad("RecentMedia", filter(["before_id": .int64(987_654_321)])), bad("RecentMedia", filter(["bogus": .boolean(true)])),
            bad("RecentMedia", filter([megabyte: .boolean(true)])),
            Case(member: "RecentMedia", arguments: filter(["limit": .byte(3), "since": .uint64(0), "until": .int32(.max)])),
            Case(member: "RecentMedia", arguments: filter(["limit": .uint32(1000)])),
        ]
        // Methods without arguments, called with some.
        for member: MemberName in ["NowPlaying", "Apps", "OptOut", "OptIn", "Status"] {
            cases.append(bad(member, [.string("unexpected")]))
        }
        cases += [
            bad("OptOut", [], "org.mediabroker.MediaBroker1.Error.NotAPlayer"),
            bad("OptIn", [], "org.mediabroker.MediaBroker1.Error.NotAPlayer"),
            Case(member: "NowPlaying", arguments: []), Case(member: "Apps", arguments: []), Case(member: "Status", arguments: []),
        ]
        // SetAppOptedOut
        cases += [
            bad("SetAppOptedOut", []), bad("SetAppOptedOut", [.string("app")]), bad("SetAppOptedOut", [.boolean(true), .string("app")]),
            bad("SetAppOptedOut", [.string(""), .boolean(true)]), bad("SetAppOptedOut", [.string(longAppID), .boolean(true)]),
            bad("SetAppOptedOut", [.string(megabyte), .boolean(true)]), bad("SetAppOptedOut", [.string("app"), .int32(1)]),
        ]
        // Purge
        cases += [
            bad("Purge", []), bad("Purge", [.string("all")]), bad("Purge", filter([:])), bad("Purge", filter(["all": .boolean(false)])),
            bad("Purge", filter(["all": .string("true")])), bad("Purge", filter(["since": .int64(-1)])),
            bad("Purge", filter(["since": .int64(10), "until": .int64(5)])), bad("Purge", filter(["app_id": .string("")])),
            bad("Purge", filter(["app_id": .string("x"), "all": .boolean(true)])), bad("Purge", filter(["bogus": .int32(1)])),
            bad("Purge", filter(["until": .string("now")])),
        ]
        // Donate
        let good: [String: DBusValue] = ["app_id": .string("journal"), "title": .string("Fine")]
        func donate(_ changes: [String: DBusValue?]) -> [DBusValue] {
            var fields = good
            for (key, value) in changes { fields[key] = value }
            return filter(fields)
        }
        cases += [
            bad("Donate", []), bad("Donate", [.string("title")]), bad("Donate", filter([:])),
            bad("Donate", donate(["app_id": nil])), bad("Donate", donate(["title": nil])), bad("Donate", donate(["title": .string("  ")])),
            bad("Donate", donate(["title": .int32(5)])), bad("Donate", donate(["app_id": .string(longAppID)])),
            bad("Donate", donate(["app_id": .string(megabyte)])), bad("Donate", donate(["app_id": .string("../etc")])),
            bad("Donate", donate(["started": .int64(-1)])), bad("Donate", donate(["started": .int64(.max)])),
            bad("Donate", donate(["started": .int64(1_000_000), "ended": .int64(5)])), bad("Donate", donate(["length": .int64(0)])),
            bad("Donate", donate(["listened": .int64(-5)])), bad("Donate", donate(["kind": .string("hologram")])),
            bad("Donate", donate(["artists": .string("One")])), bad("Donate", donate(["bogus": .boolean(true)])),
            bad("Donate", donate(["started": .double(1.5)])),
            bad("Donate", donate(["title": .string(megabyte), "artists": .strings(Array(repeating: megabyte, count: 8)),
                                  "album": .string(megabyte), "app_name": .string(megabyte)])),
            Case(member: "Donate", arguments: donate(["title": .string(longText), "artists": .strings(Array(repeating: longText, count: 8)),
                                                      "album": .string(longText), "app_name": .string(longText)])),
        ]
        // Properties
        cases += [
            property("Get", [ours, .string("NoSuchProperty")], "org.freedesktop.DBus.Error.UnknownProperty"),
            property("Get", [.string("org.example.Nothing"), .string("MediaEnabled")], "org.freedesktop.DBus.Error.UnknownInterface"),
            property("Get", [ours], invalidArgs), property("GetAll", [.string("org.example.Nothing")], "org.freedesktop.DBus.Error.UnknownInterface"),
            property("Set", [ours, .string("MediaEnabled"), .variant(.string("yes"))], invalidArgs),
            property("Set", [ours, .string("MediaEnabled"), .string("no variant")], invalidArgs),
            property("Set", [ours, .string("RetentionDays"), .variant(.uint32(10_001))], invalidArgs),
            property("Set", [ours, .string("RetentionDays"), .variant(.int32(-1))], invalidArgs),
            property("Set", [ours, .string("RetentionDays"), .variant(.uint32(.max))], invalidArgs),
            property("Set", [ours, .string("OptedOutApps"), .variant(.strings(["x"]))], "org.freedesktop.DBus.Error.PropertyReadOnly"),
            property("Set", [ours, .string(megabyte), .variant(.boolean(true))], invalidArgs),
            property("GetAll", [.string(megabyte)], invalidArgs),
            property("Get", [.string(megabyte), .string(megabyte)], invalidArgs),
            property("Set", [ours, .string(longText), .variant(.boolean(true))], "org.freedesktop.DBus.Error.UnknownProperty"),
            property("GetAll", [.string(longText)], "org.freedesktop.DBus.Error.UnknownInterface"),
            property("Get", [.string(longText), .string(longText)], "org.freedesktop.DBus.Error.UnknownInterface"),
            property("Get", [ours, .string("MediaEnabled")], nil), property("GetAll", [ours], nil),
            property("Set", [ours, .string("RetentionDays"), .variant(.uint32(10_000))], nil),
        ]
        cases.append(bad("NoSuchMethod", [], "org.freedesktop.DBus.Error.UnknownMethod"))
        return cases
    }()

    /// A broker on a bus of its own, and a plain connection to call it with raw arguments.
    func brokerAndCaller() throws -> (RunningBroker, BusConnection) {
        let bus = try PrivateBus.start()
        return (try RunningBroker(bus: bus), try BusConnection.connect(to: bus.address))
    }

    @Test("every method and property with hostile arguments gets the documented error, and the broker keeps serving")
    func hostileCalls() async throws {
        let (broker, caller) = try brokerAndCaller()
        defer { caller.close() }
        for item in Self.cases {
            do {
                _ = try await Reliability.call(caller, item.member, item.arguments, interface: item.interface)
                #expect(item.error == nil, "\(item) succeeded")
            } catch {
                #expect(error.name.rawValue == item.error, "\(item) got \(error.name): \(error.message.prefix(200))")
                #expect(error.message.utf8.count < 4096, "\(item): the error message echoes the input")
            }
        }
        #expect(broker.process.isRunning)
        #expect(try broker.rows() == 1, "only the one valid donation was stored")
        #expect(try broker.integrity() == "ok")
        #expect(try broker.stop() == .exited(0))
    }

    @Test("a full page of the largest assets clients can donate is answered: 1000 assets fit one reply")
    func largestPage() async throws {
        let (broker, caller) = try brokerAndCaller()
        defer { caller.close() }
        let emoji = String(repeating: "\u{1F3B5}", count: 300)
        // Within the retention window: assets of 1970 were right to vanish when the broker's start-up
        // retention pass came after the first donations (it did under ASan on a busy machine).
        let twoHoursAgo = Int64(Date().timeIntervalSince1970 * 1_000_000) - 7_200_000_000
        for index in 0..<Self.maximumLimit {
            _ = try await Reliability.call(caller, "Donate", Self.filter([
                "app_id": .string("app.\(index % 7)." + String(repeating: "i", count: 240)), "title": .string("\(index) " + emoji),
                "album": .string(emoji), "app_name": .string(emoji), "app_icon": .string("/" + emoji),
                "artists": .strings((0..<64).map { "\($0) " + emoji }), "kind": .string("audiobook"),
                "started": .int64(twoHoursAgo + Int64(index)), "length": .int64(3_600_000_000),
            ]))
        }
        let reply = try await Reliability.call(caller, "RecentMedia", Self.filter(["limit": .uint32(1000)]))
        let assets = try reply.arguments.first?.array() ?? []
        let stored = try broker.rows()
        let answered = Set(assets.compactMap { asset -> String? in
            guard let title = try? asset.vardict()["title"]?.string() else { return nil }
            return title.split(separator: " ").first.map(String.init)
        })
        let missing = (0..<Self.maximumLimit).map(String.init).filter { !answered.contains($0) }
        #expect(assets.count == Self.maximumLimit, "\(stored) stored; not answered: \(missing.prefix(10))")
        #expect(try broker.stop() == .exited(0))
    }
}
