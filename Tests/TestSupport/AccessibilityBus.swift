// The accessibility bus a GTK window publishes its controls on, for tests that drive a window
// as a person would (through AT-SPI).

import Foundation

/// `at-spi-bus-launcher` on a private session bus: it owns `org.a11y.Bus` there and starts the
/// accessibility bus and its registry, as a desktop session does. A GTK program started on that
/// session bus afterwards exposes its windows to AT-SPI clients on the same bus.
public final class AccessibilityBus: Sendable {
    public let process: ChildProcess

    public init(bus: PrivateBus, environment: [String: String] = [:], timeout: Duration = .seconds(15)) throws {
        process = try ChildProcess.launch(
            "/usr/libexec/at-spi-bus-launcher", arguments: ["--launch-immediately"],
            environment: bus.environment.merging(environment) { $1 })
        try bus.waitForName("org.a11y.Bus", timeout: timeout)
    }

    deinit {
        process.signal(SIGTERM)
        _ = try? process.waitForExit(timeout: .seconds(5))
    }
}
