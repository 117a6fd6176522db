@testable import MediaBroker
import SwiftDBus
import Testing
@testable import BrokerCore

/// `PickMedia`'s arguments (issue 21): defaults, limits, and the request path portals would make.
@Suite struct PickOptionsTests {
    static let now: Microseconds = 1_800_000_000_000_000

    static func options(_ values: [String: DBusValue], parent: String = "") throws(BusError) -> PickOptions {
        try PickOptions(parentWindow: parent, options: values, now: now)
    }

    @Test("with no options the last seven days are offered, more than one listen may be picked")
    func defaults() throws {
        let options = try Self.options([:])
        #expect(options.until == Self.now)
        #expect(options.since == Self.now - 7 * 24 * 3600 * 1_000_000)
        #expect(options.multiple)
        #expect(options.reason == nil && options.token == nil && options.parentWindow.isEmpty)
    }

    @Test("since, until, reason, multiple and handle_token are taken as given")
    func given() throws {
        let options = try Self.options([
            "since": .int64(100), "until": .int64(200), "reason": .string("Add music to today's entry"),
            "multiple": .boolean(false), "handle_token": .string("journal_42"),
        ], parent: "x11:1e00004")
        #expect(options.since == 100 && options.until == 200)
        #expect(options.reason == "Add music to today's entry")
        #expect(!options.multiple)
        #expect(options.token == "journal_42")
        #expect(options.parentWindow == "x11:1e00004")
    }

    @Test("an option of the wrong type, a span backwards, a long reason, a bad token or parent is refused",
          arguments: [
            ["since": DBusValue.string("yesterday")], ["until": .int64(5), "since": .int64(5)], ["multiple": .string("yes")],
            ["reason": .string(String(repeating: "x", count: 257))], ["handle_token": .string("a/b")],
            ["handle_token": .string("")], ["handle_token": .string(String(repeating: "t", count: 65))],
            ["suggestion": .string("../../etc/passwd")], ["suggestion": .string(String(repeating: "A", count: 32))],
            ["suggestion": .int64(42)],
          ])
    func refused(_ values: [String: DBusValue]) {
        #expect(throws: BusError.self) { try Self.options(values) }
    }

    @Test("a suggestion's id is taken; the span counts as given only when the caller gave since or until")
    func suggestion() throws {
        let suggested = try Self.options(["suggestion": .string("0123456789abcdef0123456789abcdef")])
        #expect(suggested.suggestion == "0123456789abcdef0123456789abcdef" && !suggested.spanGiven)
        #expect(try Self.options(["since": .int64(100)]).spanGiven && Self.options(["until": .int64(200)]).spanGiven)
    }

    @Test("a parent window must be spelled as portals spell it", arguments: ["window 5", "x12:5", "x11:" + String(repeating: "f", count: 300)])
    func refusedParent(_ parent: String) {
        #expect(throws: BusError.self) { try Self.options([:], parent: parent) }
    }

    @Test("the request path is the portal's: the caller's unique name without colon, dots as underscores, then the token")
    func requestPath() {
        #expect(PickOptions.requestPath(sender: ":1.42", token: "pick7")?.rawValue == "/org/mediabroker/MediaBroker1/request/1_42/pick7")
    }
}
