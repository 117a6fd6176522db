import SwiftDBus
import TestSupport
import Testing

/// Every emission is a message of its own — its own serial, its own arguments, its own destination —
/// however often a signal is sent and however many kinds a connection emits.
@Suite struct SignalEmissionTests {
    static let interface: InterfaceName = "org.mediabroker.Test.Templates"

    /// What the client received, as `"path member arguments"` lines, and every serial.
    final class Received: Sendable {
        private let state = Locked<(lines: [String], serials: [UInt32])>(([], []))
        func put(_ message: BusMessage) {
            let line = "\(message.path?.rawValue ?? "-") \(message.member?.rawValue ?? "-") \(message.arguments)"
            state.withLock { $0.lines.append(line); $0.serials.append(message.serial) }
        }
        var lines: [String] { state.withLock { $0.lines } }
        var serials: [UInt32] { state.withLock { $0.serials } }
    }

    @Test func everyEmissionIsAMessageOfItsOwnWithItsOwnArguments() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let received = Received()
        let token = try await pair.client.addMatch(MatchRule(sender: pair.serviceName, interface: Self.interface)) { received.put($0) }
        defer { token.cancel() }
        // The same signal again and again, then many kinds, each twice.
        var expected: [String] = []
        for round in 0..<3 {
            try pair.service.emit(SignalEmission(path: "/same", interface: Self.interface, member: "Again", arguments: [.int64(Int64(round))]))
            expected.append("/same Again \([DBusValue.int64(Int64(round))])")
        }
        for round in 0..<2 {
            for kind in 0..<20 {
                let member = try MemberName("Kind\(kind)")
                let path = try ObjectPath("/kinds/k\(kind)")
                try pair.service.emit(SignalEmission(path: path, interface: Self.interface, member: member, arguments: [.string("r\(round)")]))
                expected.append("/kinds/k\(kind) Kind\(kind) \([DBusValue.string("r\(round)")])")
            }
        }
        try waitUntil("every signal arrives") { received.lines.count == expected.count }
        #expect(received.lines == expected)
        #expect(Set(received.serials).count == expected.count)
    }

    @Test func aRepeatedSignalCanStillBeSentToOneConnectionOnly() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let third = try BusConnection.connect(to: pair.bus.address)
        defer { third.close() }
        let toClient = Received(), toThird = Received()
        let rule = MatchRule(sender: pair.serviceName, interface: Self.interface)
        let clientToken = try await pair.client.addMatch(rule) { toClient.put($0) }
        let thirdToken = try await third.addMatch(rule) { toThird.put($0) }
        defer { clientToken.cancel(); thirdToken.cancel() }
        try pair.service.emit(SignalEmission(path: "/same", interface: Self.interface, member: "Again", arguments: [.string("everyone")]))
        try pair.service.emit(SignalEmission(path: "/same", interface: Self.interface, member: "Again", arguments: [.string("third only")],
                                             destination: BusName(uncheckedUnique: third.uniqueName)))
        try pair.service.emit(SignalEmission(path: "/same", interface: Self.interface, member: "Again", arguments: [.string("everyone again")]))
        try waitUntil("the last broadcast reaches both") { toClient.lines.count == 2 && toThird.lines.count == 3 }
        #expect(toClient.lines.map { $0.contains("third only") } == [false, false])
        #expect(toThird.lines.map { $0.contains("third only") } == [false, true, false])
    }
}
