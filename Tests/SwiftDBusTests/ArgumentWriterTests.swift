import Foundation
import SwiftDBus
import TestSupport
import Testing

/// Replies and signals whose arguments write themselves (`MessageArguments`): they arrive exactly
/// as the same values sent as `DBusValue`s would, a NUL cannot cut a string short, and a body that
/// does not match what it declares is answered with `Failed`, never left without an answer.
@Suite struct ArgumentWriterTests {
    static let path: ObjectPath = "/org/mediabroker/Test/Writer"
    static let interface: InterfaceName = "org.mediabroker.Test.Writer"

    struct Record: Sendable {
        var title: String
        var count: Int64
        var tags: [String]

        func write(to fields: inout VardictWriter) {
            fields.add("count", count)
            fields.add("tags", tags)
            fields.add("title", title)
        }

        /// The same record as a value, the way `DBusValue.vardict` would send it.
        var value: DBusValue {
            .vardict(["title": .string(title.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")), "count": .int64(count),
                      "tags": .strings(tags.map { $0.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") })])
        }
    }

    struct Page: MessageArguments {
        var records: [Record]
        var signature: Signature { "aa{sv}" }
        func write(to writer: inout ArgumentWriter) {
            writer.appendVardicts(records) { record, fields in record.write(to: &fields) }
        }
    }

    struct One: MessageArguments {
        var record: Record
        var signature: Signature { .vardict }
        func write(to writer: inout ArgumentWriter) {
            writer.appendVardict { record.write(to: &$0) }
        }
    }

    /// Says `aa{sv}` but writes one `a{sv}`: a bug in the sender.
    struct Lying: MessageArguments {
        var signature: Signature { "aa{sv}" }
        func write(to writer: inout ArgumentWriter) {
            writer.appendVardict { $0.add("title", "not a page") }
        }
    }

    static let records = [
        Record(title: "Blue Train", count: 3, tags: ["jazz", "1957"]),
        Record(title: "", count: -1, tags: []),
        Record(title: "a\u{0}b", count: .max, tags: ["\u{0}", "ünïcödé"]),
    ]

    static var object: ExportedObject {
        let page = Argument("page", "aa{sv}")
        return ExportedObject(path: path, interfaces: [
            ExportedInterface(name: interface, methods: [
                ExportedMethod("Page", outputs: [page]) { call in call.reply(Page(records: records)) },
                ExportedMethod("Empty", outputs: [page]) { call in call.reply(Page(records: [])) },
                ExportedMethod("Lie", outputs: [page]) { call in call.reply(Lying()) },
                ExportedMethod("WrongDeclaration", outputs: [page]) { call in call.reply(One(record: records[0])) },
            ], signals: [ExportedSignal("Added", arguments: [Argument("record", .vardict)])]),
        ])
    }

    func call(_ pair: BusPair, _ member: MemberName) -> MethodCall {
        pair.call(Self.path, Self.interface, member)
    }

    @Test func aWrittenPageArrivesAsTheSameValuesWouldWithNULsReplaced() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(Self.object)
        let reply = try await pair.client.call(call(pair, "Page"))
        #expect(reply.signature == "aa{sv}")
        #expect(reply.arguments == [.array(element: .vardict, Self.records.map(\.value))])
        #expect(try await pair.client.call(call(pair, "Empty")).arguments == [.array(element: .vardict, [])])
    }

    @Test func aBodyThatIsNotWhatItSaysIsAnsweredWithFailed() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(Self.object)
        for member: MemberName in ["Lie", "WrongDeclaration"] {
            let error = await callError(pair.client, call(pair, member), timeout: .seconds(5))
            #expect(error?.name == .failed, "\(member): \(String(describing: error))")
        }
        // The connection is unharmed.
        #expect(try await pair.client.call(call(pair, "Page")).arguments.count == 1)
    }

    @Test func aWrittenSignalArrivesAsTheSameValueWould() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let received = Mailbox<BusMessage>()
        let token = try await pair.client.addMatch(MatchRule(interface: Self.interface, member: "Added")) { received.put($0) }
        defer { token.cancel() }
        try pair.service.emit(SignalEmission(path: Self.path, interface: Self.interface, member: "Added", body: One(record: Self.records[2])))
        let signal = try await received.take()
        #expect(signal.arguments == [Self.records[2].value])
    }
}
