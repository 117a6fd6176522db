import MediaDonationClient
import SwiftDBus
import TestSupport
import Testing

/// What a running broker answers to `Introspect` is the interface file the package installs
/// (data/org.mediabroker.MediaBroker1.xml): the `<interface name="org.mediabroker.MediaBroker1">`
/// element of each, parsed, so layout does not count and every name, type, direction and
/// annotation does. The version the file carries is the one `Status()` answers.
@Suite struct ServedInterfaceTests {
    @Test("Introspect of a running broker answers the installed interface file's interface")
    func servedIsTheFile() async throws {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus)
        let caller = try BusConnection.connect(to: bus.address)
        defer { caller.close() }
        let reply = try await caller.call(MethodCall(
            destination: "org.mediabroker.MediaBroker1", path: "/org/mediabroker/MediaBroker1",
            interface: .introspectable, member: "Introspect"))
        let served = try XMLNode.parse(try reply.arguments[0].string())
        let file = try XMLNode.parse(try SourceTree.read("data/org.mediabroker.MediaBroker1.xml"))
        let name = "org.mediabroker.MediaBroker1"
        let servedInterface = try #require(served.child("interface", named: name), "Introspect answers no \(name)")
        let fileInterface = try #require(file.child("interface", named: name), "the file holds no \(name)")
        #expect(file.children.count == 1, "the file holds the broker's interface alone")
        #expect(servedInterface == fileInterface, """
            the broker serves another interface than data/org.mediabroker.MediaBroker1.xml holds: \
            run `make interface` and commit the file
            """)
        // One version string: the file's is the one Status() answers and --version prints.
        let release = fileInterface.child("annotation", named: "org.mediabroker.MediaBroker1.BrokerVersion")?["value"]
        #expect(release == (try await broker.client().status().version))
        #expect(release == MediaBrokerClient.version)
        #expect(try broker.stop() == .exited(0))
    }
}
