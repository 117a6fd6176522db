import Foundation
import MediaDonationClient
import TestSupport

/// A real `media-broker` process on a private bus, with its own data folder.
final class RunningBroker: Sendable {
    let bus: PrivateBus
    let data: TemporaryDirectory
    let process: ChildProcess
    let arguments: [String]

    var databasePath: String { data.appending("history.sqlite3") }

    /// Starts the broker and waits until it has started: it owns its name, its history is open and
    /// it follows players. (The name alone comes first: calls wait for the rest, but a test that
    /// reads the file or the log right away must not.)
    /// `environment` is merged over the bus's (an `XDG_DATA_HOME` with desktop files, say).
    init(bus: PrivateBus, data: TemporaryDirectory? = nil, arguments: [String] = ["--min-listen", "2"],
         environment: [String: String] = [:]) throws {
        self.bus = bus
        self.data = try data ?? TemporaryDirectory(prefix: "broker-data")
        self.arguments = arguments
        process = try Self.launch(bus: bus, databasePath: self.data.appending("history.sqlite3"), arguments: arguments,
                                  environment: environment)
        try bus.waitForName(MediaBrokerClient.busName)
        try process.waitForOutput(containing: "owns \(MediaBrokerClient.busName); history in", in: .standardError, timeout: .seconds(30))
    }

    static func launch(bus: PrivateBus, databasePath: String, arguments: [String],
                       environment: [String: String] = [:]) throws -> ChildProcess {
        try ChildProcess.launch(
            try BuiltProducts.path(of: "media-broker"),
            arguments: ["--database", databasePath, "--verbose"] + arguments,
            environment: bus.environment.merging(environment) { $1 })
    }

    /// A client connected to the broker's bus.
    func client() throws -> MediaBrokerClient {
        try MediaBrokerClient(address: bus.address, timeout: .seconds(5))
    }

    /// Stops the broker with SIGTERM and returns how it exited.
    @discardableResult
    func stop() throws -> ChildProcess.ExitStatus {
        process.signal(SIGTERM)
        return try process.waitForExit(timeout: .seconds(10))
    }

    /// `broker-ctl` with `arguments`, on the broker's bus.
    func brokerCtl(_ arguments: [String]) throws -> (status: ChildProcess.ExitStatus, standardOutput: String, standardError: String) {
        try ChildProcess.run(try BuiltProducts.path(of: "broker-ctl"), arguments: arguments, environment: bus.environment)
    }

    /// Waits until the broker follows no player any more — after which every listen the players
    /// made has been ended and queued for the store ahead of any later query.
    func waitUntilNoPlayers(_ client: MediaBrokerClient) async throws {
        try await waitUntil("the broker follows no player", timeout: .seconds(15)) {
            try await client.status().players.isEmpty
        }
    }
}
