import Foundation
import SwiftDBus
import TestSupport
import Testing

/// Subscribing to signals: each handler gets exactly what its rule matches, a cancelled or
/// released token stops delivery and removes the rule from the bus, and a flood arrives whole
/// and in order.
@Suite struct SignalTests {
    static let a: InterfaceName = "org.mediabroker.Test.A"
    static let b: InterfaceName = "org.mediabroker.Test.B"
    static let end: InterfaceName = "org.mediabroker.Test.End"

    /// What a test's handlers receive, as `"/path Interface.Member"` lines.
    final class Log: Sendable {
        private let lines = Locked<[String]>([])
        func put(_ message: BusMessage) {
            let line = "\(message.path?.rawValue ?? "-") \(message.interface?.rawValue ?? "-").\(message.member?.rawValue ?? "-")"
            lines.withLock { $0.append(line) }
        }
        var all: [String] { lines.withLock { $0 } }
    }

    static let emitted: [SignalEmission] = [
        SignalEmission(path: "/a/b", interface: a, member: "One", arguments: [.string("x")]),
        SignalEmission(path: "/a/b/c", interface: a, member: "Two", arguments: [.string("y")]),
        SignalEmission(path: "/ab", interface: b, member: "One", arguments: [.string("x")]),
        SignalEmission(path: "/z", interface: b, member: "Two", arguments: [.int32(1)]),
        SignalEmission(path: "/z", interface: b, member: "Three", arguments: [.objectPath("/x")]),
    ]

    @Test("each handler receives only the signals its own rule matches", arguments: [
        (MatchRule(interface: a), ["/a/b A.One", "/a/b/c A.Two"]),
        (MatchRule(member: "One"), ["/a/b A.One", "/ab B.One"]),
        (MatchRule(path: "/a/b"), ["/a/b A.One"]),
        (MatchRule(pathNamespace: "/a/b"), ["/a/b A.One", "/a/b/c A.Two"]),
        (MatchRule(pathNamespace: "/a"), ["/a/b A.One", "/a/b/c A.Two"]),
        (MatchRule(arg0: "x"), ["/a/b A.One", "/ab B.One"]),
        (MatchRule(interface: b, member: "Two"), ["/z B.Two"]),
        (MatchRule(interface: a, arg0: "y"), ["/a/b/c A.Two"]),
        (MatchRule(pathNamespace: "/"), ["/a/b A.One", "/a/b/c A.Two", "/ab B.One", "/z B.Two", "/z B.Three", "/end End.Done"]),
    ])
    func rulesFilter(_ rule: MatchRule, _ expected: [String]) async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let matched = Log(), everything = Log()
        // Two rules on one connection: the bus delivers what either matches, and each handler
        // must still see only its own. (The bus's own NameAcquired, sent to the client before it
        // subscribed, may still be in its queue and fits the widest rules: it is not counted.)
        let service = pair.service.uniqueName
        let token = try await pair.client.addMatch(rule) { if $0.sender == service { matched.put($0) } }
        let all = try await pair.client.addMatch(MatchRule(sender: pair.serviceName)) { everything.put($0) }
        defer { token.cancel(); all.cancel() }
        for signal in Self.emitted { try pair.service.emit(signal) }
        try pair.service.emit(SignalEmission(path: "/end", interface: Self.end, member: "Done"))
        try waitUntil("the last signal arrives") { everything.all.last == "/end \(Self.end).Done" }
        let shortened = matched.all.map { $0.replacingOccurrences(of: "org.mediabroker.Test.", with: "") }
        #expect(shortened == expected, "\(rule)")
    }

    @Test func aUniqueSenderRuleReceivesOnlyThatConnectionsSignals() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let third = try BusConnection.connect(to: pair.bus.address)
        defer { third.close() }
        let fromService = Log(), fromAnyone = Log()
        let token = try await pair.client.addMatch(MatchRule(sender: pair.serviceName, interface: Self.a)) { fromService.put($0) }
        let all = try await pair.client.addMatch(MatchRule(interface: Self.a)) { fromAnyone.put($0) }
        defer { token.cancel(); all.cancel() }
        try third.emit(SignalEmission(path: "/third", interface: Self.a, member: "One"))
        try pair.service.emit(SignalEmission(path: "/service", interface: Self.a, member: "One"))
        try third.emit(SignalEmission(path: "/third", interface: Self.a, member: "Done"))
        try pair.service.emit(SignalEmission(path: "/service", interface: Self.a, member: "Done"))
        try waitUntil("both senders' last signals arrive") { fromAnyone.all.count == 4 }
        #expect(fromService.all == ["/service \(Self.a).One", "/service \(Self.a).Done"])
    }

    /// The number of match rules the bus holds for `connection`, from the bus's statistics
    /// interface (`org.freedesktop.DBus.Debug.Stats`, built into Debian's dbus-daemon).
    static func matchRules(of connection: BusConnection, askedBy asker: BusConnection) async throws -> UInt32 {
        let reply = try await asker.call(MethodCall(
            destination: BusConnection.busName, path: BusConnection.busPath, interface: "org.freedesktop.DBus.Debug.Stats",
            member: "GetConnectionStats", arguments: [.string(connection.uniqueName)]))
        return try #require(try reply.arguments.first?.vardict()["MatchRules"]).integer(as: UInt32.self)
    }

    enum Ending: String, CaseIterable, Sendable {
        /// `cancel()`, twice, while the token is still held.
        case cancelled
        /// The last reference goes away.
        case released
    }

    @Test("a cancelled or released token stops delivery and removes its rule from the bus", arguments: Ending.allCases)
    func tokenEnds(_ ending: Ending) async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let before = try await Self.matchRules(of: pair.client, askedBy: pair.service)
        let ended = Log(), kept = Log()
        var token: MatchToken? = try await pair.client.addMatch(MatchRule(interface: Self.b)) { ended.put($0) }
        let keeper = try await pair.client.addMatch(MatchRule(interface: Self.a)) { kept.put($0) }
        defer { keeper.cancel() }
        #expect(try await Self.matchRules(of: pair.client, askedBy: pair.service) == before + 2)

        switch ending {
        case .cancelled:
            token?.cancel()
            token?.cancel()  // a second cancel does nothing
        case .released:
            token = nil
        }
        try pair.service.emit(SignalEmission(path: "/x", interface: Self.b, member: "Unwanted"))
        try pair.service.emit(SignalEmission(path: "/x", interface: Self.a, member: "Done"))
        // Signals from one sender arrive in order: the kept rule's signal came after the other.
        try waitUntil("the kept rule sees its signal") { kept.all.count == 1 }
        #expect(ended.all.isEmpty)
        try await waitUntil("the bus drops the ended rule") { try await Self.matchRules(of: pair.client, askedBy: pair.service) == before + 1 }
        withExtendedLifetime(token) {}
    }

    @Test func identicalRulesAreCountedSoCancellingOneKeepsTheOther() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let first = Log(), second = Log()
        let rule = MatchRule(interface: Self.a)
        let one = try await pair.client.addMatch(rule) { first.put($0) }
        let two = try await pair.client.addMatch(rule) { second.put($0) }
        defer { two.cancel() }
        one.cancel()
        try pair.service.emit(SignalEmission(path: "/x", interface: Self.a, member: "StillWanted"))
        try waitUntil("the remaining subscription still receives") { second.all.count == 1 }
        #expect(first.all.isEmpty)
    }

    @Test func tenThousandSignalsArriveCompletelyAndInOrder() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let numbers = Locked<[UInt32]>([])
        let token = try await pair.client.addMatch(MatchRule(interface: Self.a, member: "Flood")) { message in
            if case .uint32(let n)? = message.arguments.first { numbers.withLock { $0.append(n) } }
        }
        defer { token.cancel() }
        let metadata = DBusValue.vardict(["xesam:title": .string("Song"), "xesam:artist": .strings(["Artist"]), "mpris:length": .int64(180_000_000)])
        for n in UInt32(0)..<10_000 {
            try pair.service.emit(SignalEmission(path: "/flood", interface: Self.a, member: "Flood", arguments: [.uint32(n), metadata]))
        }
        try waitUntil("all 10,000 signals arrive", timeout: .seconds(120)) { numbers.withLock { $0.count } >= 10_000 }
        #expect(numbers.withLock { $0 } == Array(0..<10_000))
    }
}
