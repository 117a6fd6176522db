import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 20: a sandboxed app asks the person once, through a real notification server on the
/// bus, and the answer is kept — allowed, denied (and not asked again for a day), or nothing when
/// the question is dismissed or left alone; one question at a time; no server, no question.
@Suite(.serialized, .timeLimit(.minutes(3))) struct RequestAccessTests {
    static let appID = "org.example.Journal"

    /// A broker asking for at most `patience` seconds, a notification server answering as
    /// `behaviour` says (`nil`: none on the bus), and the app's sandbox.
    static func rig(_ behaviour: String?, patience: String = "3") throws
        -> (broker: RunningBroker, server: ChildProcess?, sandbox: FlatpakSandbox) {
        let bus = try PrivateBus.start()
        let broker = try RunningBroker(bus: bus, arguments: ["--min-listen", "2", "--ask-timeout", patience])
        let server = try behaviour.map { behaviour in
            let server = try ChildProcess.launch("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("notification-server.py"), behaviour],
                                                 environment: bus.environment)
            try server.waitForOutput(containing: "ready", in: .standardOutput, timeout: .seconds(10))
            return server
        }
        return (broker, server, try FlatpakSandbox(appID: appID, bus: bus))
    }

    static func ask(_ sandbox: FlatpakSandbox, reason: String = "Add music to today's entry") throws -> String {
        let result = try sandbox.run("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("app.py"), "ask", reason], timeout: .seconds(60))
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) + result.standardError
    }

    @Test("Allow: the answer is kept and the app reads")
    func allow() async throws {
        let rig = try Self.rig("allow"), (broker, server, sandbox) = rig
        defer { withExtendedLifetime(rig) {} }
        #expect(try Self.ask(sandbox) == "answer allowed")
        let shown = try #require(server?.standardOutput.split(separator: "\n").first { $0.hasPrefix("notify ") })
        #expect(shown.contains("Let \(Self.appID) see your listening?") && shown.contains("Add music to today's entry"), "\(shown)")
        #expect(shown.hasSuffix("allow,Allow,deny,Don’t allow"), "\(shown)")
        #expect(try await broker.client().readers().map(\.access) == [.allowed])
        let recent = try sandbox.run(try BuiltProducts.path(of: "broker-ctl"), arguments: ["recent"])
        #expect(recent.status == .exited(0), "\(recent)")
        #expect(try Self.ask(sandbox) == "answer allowed", "asking again after a grant answers at once")
        #expect(server?.standardOutput.components(separatedBy: "notify ").count == 2, "one question only")
    }

    @Test("Don't allow: the refusal is kept, and the app may not ask again for a day")
    func deny() async throws {
        let rig = try Self.rig("deny"), (broker, _, sandbox) = rig
        defer { withExtendedLifetime(rig) {} }
        #expect(try Self.ask(sandbox) == "answer denied")
        #expect(try await broker.client().readers().map(\.access) == [.denied])
        let again = try Self.ask(sandbox)
        #expect(again.hasPrefix("refused org.mediabroker.MediaBroker1.Error.AccessDenied") && again.contains("24 hours"), "\(again)")
    }

    @Test("dismissed or unanswered: nothing is stored, but it counts as asked — no second notification that day (issue 32, item 7)",
          arguments: ["dismiss", "silent"])
    func unansweredStoresNothing(_ behaviour: String) async throws {
        let rig = try Self.rig(behaviour), (broker, server, sandbox) = rig
        defer { withExtendedLifetime(rig) {} }
        #expect(try Self.ask(sandbox) == "answer unanswered")
        #expect(try await broker.client().readers().isEmpty)
        for _ in 0..<5 {
            let again = try Self.ask(sandbox)
            #expect(again.hasPrefix("refused org.mediabroker.MediaBroker1.Error.AccessDenied") && again.contains("24 hours"), "\(again)")
        }
        #expect(server?.standardOutput.components(separatedBy: "notify ").count == 2, "one notification only")
    }

    @Test("one question at a time")
    func oneQuestionAtATime() async throws {
        let rig = try Self.rig("silent", patience: "20"), (_, server, sandbox) = rig
        defer { withExtendedLifetime(rig) {} }
        let first = try sandbox.launch("/usr/bin/python3", arguments: [FlatpakSandbox.fixture("app.py"), "ask", "first"])
        try server?.waitForOutput(containing: "notify ", in: .standardOutput, timeout: .seconds(10))
        let second = try Self.ask(sandbox, reason: "second")
        #expect(second.hasPrefix("refused org.mediabroker.MediaBroker1.Error.AccessDenied") && second.contains("already has a question open"), "\(second)")
        first.signal(SIGTERM)
    }

    @Test("no notification service: refused at once, saying what the person can do")
    func noServer() async throws {
        let rig = try Self.rig(nil), sandbox = rig.sandbox
        defer { withExtendedLifetime(rig) {} }
        let answer = try Self.ask(sandbox)
        #expect(answer.hasPrefix("refused org.mediabroker.MediaBroker1.Error.AccessDenied"), "\(answer)")
        #expect(answer.contains("broker-ctl allow \(Self.appID)"), "\(answer)")
    }
}
