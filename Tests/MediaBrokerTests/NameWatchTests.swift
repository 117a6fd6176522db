import SwiftDBus
import TestSupport
import Testing
@testable import MediaBroker

/// Notes what a `NameWatch` tells it.
private final class NotedNames: NameWatch.Observer, Sendable {
    let owners = Mailbox<String>()
    let leaving = Mailbox<String>()

    func ownerChanged(name: String, old: String, new: String) { owners.put("\(name): \(old) → \(new)") }
    func left(_ uniqueName: String) { leaving.put(uniqueName) }
}

@Suite("NameWatch: one watch on the bus's names, told to every part in order")
struct NameWatchTests {
    @Test("a connection that comes is noted when it comes; one that leaves is told to each observer and forgotten")
    func connectionsComeAndGo() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let arrivals = ConnectionArrivals()
        let first = NotedNames(), second = NotedNames()
        let watch = NameWatch(connection: rig.connection, arrivals: arrivals, observers: [first, second])
        let started = Mailbox<String>()
        await rig.onBusThread { watch.start { started.put($0.map { "\($0)" } ?? "watching") } }
        #expect(try await started.take() == "watching")
        let watchBegan = await rig.onBusThread { arrivals.startedBy(":1.999999") }

        let visitor = try BusConnection.connect(to: rig.bus.address)
        let name = visitor.uniqueName
        try await waitUntil("the visitor is noted") { try await first.owners.take() == "\(name):  → \(name)" }
        let noted = await rig.onBusThread { arrivals.startedBy(name) }
        #expect(noted >= watchBegan)
        visitor.close()
        #expect(try await first.leaving.take() == name)
        #expect(try await second.leaving.take() == name)
        #expect(await rig.onBusThread { arrivals.startedBy(name) } == watchBegan, "a connection gone is no longer remembered")
        await rig.onBusThread { watch.stop() }
    }

    @Test("a well-known name's new owner is told to observers, but no one leaves")
    func wellKnownNamesChangeHands() async throws {
        let rig = try BrokerPartsRig()
        defer { rig.close() }
        let observer = NotedNames()
        let watch = NameWatch(connection: rig.connection, arrivals: ConnectionArrivals(), observers: [observer])
        let started = Mailbox<String>()
        await rig.onBusThread { watch.start { started.put($0.map { "\($0)" } ?? "watching") } }
        #expect(try await started.take() == "watching")
        _ = try await rig.client.call(MethodCall(destination: BusConnection.busName, path: BusConnection.busPath, interface: .bus,
                                                 member: "RequestName", arguments: [.string("org.mpris.MediaPlayer2.test"), .uint32(4)]))
        let client = rig.client.uniqueName
        try await waitUntil("the new owner is told") {
            try await observer.owners.take() == "org.mpris.MediaPlayer2.test:  → \(client)"
        }
        #expect(observer.leaving.count == 0)
    }
}
