import Foundation
import MediaDonationClient
import TestSupport
import Testing

/// Issue 32: a sandboxed app (a real bubblewrap + xdg-dbus-proxy sandbox) that wants more than it
/// was given gets nothing by the side doors. Each test is an attack, run as an app would run it.
@Suite(.serialized, .timeLimit(.minutes(3))) struct HostileAppTests {
    @Test("item 4: markup in RequestAccess's reason reaches the notification escaped, never rendered")
    func markupInTheReasonIsEscaped() async throws {
        let rig = try RequestAccessTests.rig("dismiss"), (_, server, sandbox) = rig
        defer { withExtendedLifetime(rig) {} }
        let reason = "<b>Urgent</b> & <a href=\"https://evil.example\">tap here</a>"
        _ = try RequestAccessTests.ask(sandbox, reason: reason)
        let shown = try #require(server?.standardOutput.split(separator: "\n").first { $0.hasPrefix("notify ") })
        #expect(shown.contains("&lt;b&gt;Urgent&lt;/b&gt; &amp; &lt;a href=\"https://evil.example\"&gt;tap here&lt;/a&gt;"), "\(shown)")
        #expect(!shown.contains("<b>") && !shown.contains("<a "), "\(shown)")
    }
}
