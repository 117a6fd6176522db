import Foundation
import SwiftDBus
import TestSupport
import Testing

/// A connection whose last reference goes from inside one of its own handlers, on its own
/// thread (an app that drops what it holds when a signal or a reply says it is done): the
/// connection closes and its thread ends, with no read of what the release freed.
@Suite struct ConnectionReleaseTests {
    static let drop: InterfaceName = "org.mediabroker.Test.Drop"

    /// The only references to a connection (and to its match, which holds it too), for a handler
    /// to let go of.
    final class Holder: Sendable {
        private let references = Locked<[any AnyObject & Sendable]>([])
        func keep(_ reference: any AnyObject & Sendable) { references.withLock { $0.append(reference) } }
        func release() { references.withLock { $0.removeAll() } }
    }

    /// Connects, subscribes to `Drop` with a handler that releases the connection and its token,
    /// and hands both to `holder`; answers the connection's loop, to watch its end.
    static func connectionReleasedBySignal(on bus: PrivateBus, holder: Holder) async throws -> EventLoop {
        let connection = try BusConnection.connect(to: bus.address)
        let token = try await connection.addMatch(MatchRule(interface: drop)) { _ in holder.release() }
        holder.keep(connection)
        holder.keep(token)
        return connection.loop
    }

    /// Connects and calls the bus with a completion that releases the connection.
    static func connectionReleasedByReply(on bus: PrivateBus, holder: Holder) throws -> EventLoop {
        let connection = try BusConnection.connect(to: bus.address)
        holder.keep(connection)
        connection.callBus("GetId") { _ in holder.release() }
        return connection.loop
    }

    @Test("a connection released from its own match handler closes and its thread ends", arguments: 0..<25)
    func releasedFromAMatchHandler(_ round: Int) async throws {
        let bus = try PrivateBus.start()
        let emitter = try BusConnection.connect(to: bus.address)
        defer { emitter.close() }
        let holder = Holder()
        let loop = try await Self.connectionReleasedBySignal(on: bus, holder: holder)
        #expect(!loop.hasFinished)
        try emitter.emit(SignalEmission(path: "/drop", interface: Self.drop, member: "Now"))
        try waitUntil("the released connection's thread ends", timeout: .seconds(10)) { loop.hasFinished }
    }

    @Test("a connection released from a reply's completion closes and its thread ends", arguments: 0..<25)
    func releasedFromAReplyCompletion(_ round: Int) async throws {
        let bus = try PrivateBus.start()
        let holder = Holder()
        let loop = try Self.connectionReleasedByReply(on: bus, holder: holder)
        try waitUntil("the released connection's thread ends", timeout: .seconds(10)) { loop.hasFinished }
    }

    @Test("closing a connection ends each of its matches")
    func closingEndsMatches() async throws {
        let bus = try PrivateBus.start()
        let connection = try BusConnection.connect(to: bus.address)
        let ended = Mailbox<String>()
        let first = try await connection.addMatch(MatchRule(interface: Self.drop)) { _ in } ended: { ended.put("first") }
        let second = try await connection.addMatch(MatchRule(member: "Now")) { _ in } ended: { ended.put("second") }
        defer { withExtendedLifetime((first, second)) {} }
        #expect(ended.count == 0, "nothing ends while the connection is open")
        connection.close()
        let names = [try await ended.take(timeout: .seconds(10)), try await ended.take(timeout: .seconds(10))]
        #expect(Set(names) == ["first", "second"])
    }

    @Test("losing the bus ends each match of a connection")
    func losingTheBusEndsMatches() async throws {
        let bus = try PrivateBus.start()
        let connection = try BusConnection.connect(to: bus.address)
        defer { connection.close() }
        let ended = Mailbox<String>()
        let token = try await connection.addMatch(MatchRule(interface: Self.drop)) { _ in } ended: { ended.put("ended") }
        defer { withExtendedLifetime(token) {} }
        bus.stop()
        #expect(try await ended.take(timeout: .seconds(10)) == "ended")
    }
}
