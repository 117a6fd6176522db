import Foundation
import SwiftDBus
import TestSupport
import Testing

/// Issue 32, item 8: a method call is read within the limits of the method it calls. A body
/// larger than the method's bytes is refused with `InvalidArgs` before it is copied or decoded, an
/// array of more elements or values nested deeper than its limits before they are built; the
/// handler never runs. A call at the limits is served. Methods that declare none, and the standard
/// interfaces, take ``ArgumentLimits/standard``.
@Suite struct ArgumentLimitsTests {
    static let path: ObjectPath = "/org/mediabroker/Test/Limited"
    static let interface: InterfaceName = "org.mediabroker.Test.Limited"

    /// An object whose `Take(s)` and `Nest(v)` declare `limits`, and whose `Plain(s)` declares none;
    /// each answers how many calls its handlers have run.
    final class Limited: Sendable {
        let handled = Locked(0)

        func object(_ limits: ArgumentLimits) -> ExportedObject {
            ExportedObject(path: ArgumentLimitsTests.path, interfaces: [interface(limits)])
        }

        func interface(_ limits: ArgumentLimits) -> ExportedInterface {
            let count: @Sendable (MethodInvocation) -> Void = { [handled] call in
                call.reply([.uint32(UInt32(handled.withLock { value in value += 1; return value }))])
            }
            let answer = [Argument("handled", .uint32)]
            return ExportedInterface(name: ArgumentLimitsTests.interface, methods: [
                ExportedMethod("Take", inputs: [Argument("text", .string)], outputs: answer, limits: limits, handler: count),
                ExportedMethod("Nest", inputs: [Argument("value", .variant)], outputs: answer, limits: limits, handler: count),
                ExportedMethod("Plain", inputs: [Argument("text", .string)], outputs: answer, handler: count),
            ])
        }
    }

    /// A call of `member` with `arguments` to the limited object.
    static func call(_ pair: BusPair, _ member: MemberName, _ arguments: [DBusValue]) -> MethodCall {
        pair.call(path, interface, member, arguments)
    }

    /// `count` bytes in an `ay`, inside the argument's variant.
    static func bytes(_ count: Int) -> [DBusValue] {
        [.variant(.array(element: .byte, Array(repeating: .byte(7), count: count)))]
    }

    /// An `s` whose body — its 4-byte length, the text, its NUL — takes `bytes` bytes.
    static func text(ofBytes bytes: Int) -> [DBusValue] {
        [.string(String(repeating: "t", count: bytes - 5))]
    }

    /// A byte inside `containers` variants, the argument's own the outermost.
    static func nested(_ containers: Int) -> [DBusValue] {
        [(0..<containers).reduce(DBusValue.byte(1)) { inner, _ in .variant(inner) }]
    }

    @Test("a call whose arguments take more bytes than its method accepts is refused, however many, and its handler never runs; one at the bound is served")
    func bytesBeyondTheMethodsLimitAreRefused() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let limited = Limited()
        pair.service.export(limited.object(ArgumentLimits(bytes: 1000)))

        for bytes in [1001, 8 << 20] {
            let refused = await callError(pair.client, Self.call(pair, "Take", Self.text(ofBytes: bytes)))
            #expect(refused?.name == .invalidArgs, "\(bytes): \(String(describing: refused))")
            #expect(refused?.message.contains("more than 1000 bytes") == true, "\(bytes): \(String(describing: refused))")
        }
        let atTheBound = try await pair.client.call(Self.call(pair, "Take", Self.text(ofBytes: 1000)))
        #expect(atTheBound.arguments == [.uint32(1)], "only the call at the bound reached the handler")
    }

    @Test("a method that declares no limits accepts 64 KiB of arguments, and not one byte more")
    func theStandardLimitIs64KiB() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(Limited().object(ArgumentLimits(bytes: 1000)))
        #expect(ArgumentLimits.standard.bytes == 64 << 10)
        let refused = await callError(pair.client, Self.call(pair, "Plain", Self.text(ofBytes: (64 << 10) + 1)))
        #expect(refused?.name == .invalidArgs, "\(String(describing: refused))")
        #expect(try await pair.client.call(Self.call(pair, "Plain", Self.text(ofBytes: 64 << 10))).arguments == [.uint32(1)])
    }

    @Test("an array of more elements than the method accepts is refused, though its bytes are within the limit")
    func elementsBeyondTheLimitAreRefused() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(Limited().object(ArgumentLimits(bytes: 1 << 20, elements: 100)))
        let refused = await callError(pair.client, Self.call(pair, "Nest", Self.bytes(101)))
        #expect(refused?.name == .invalidArgs && refused?.message.contains("more than 100 elements") == true, "\(String(describing: refused))")
        let entries = (0..<101).map { DBusValue.DictionaryEntry(key: .string("k\($0)"), value: .variant(.byte(1))) }
        let dictionary = await callError(pair.client, Self.call(pair, "Nest", [.variant(.dictionary(key: .string, value: .variant, entries))]))
        #expect(dictionary?.name == .invalidArgs && dictionary?.message.contains("more than 100 elements") == true,
                "\(String(describing: dictionary))")
        #expect(try await pair.client.call(Self.call(pair, "Nest", Self.bytes(100))).arguments == [.uint32(1)])
    }

    @Test("values nested deeper than the method accepts are refused; at the limit they are served")
    func depthBeyondTheLimitIsRefused() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(Limited().object(ArgumentLimits(bytes: 1000, depth: 5)))
        let refused = await callError(pair.client, Self.call(pair, "Nest", Self.nested(6)))
        #expect(refused?.name == .invalidArgs && refused?.message.contains("nested more than 5 deep") == true, "\(String(describing: refused))")
        #expect(try await pair.client.call(Self.call(pair, "Nest", Self.nested(5))).arguments == [.uint32(1)])
    }

    @Test("the standard interfaces' calls are bounded too: a Properties.Get of megabytes is refused unread")
    func standardInterfacesAreBounded() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        pair.service.export(TestObject().object)
        let name = String(repeating: "n", count: 1 << 20)
        let refused = await callError(pair.client, pair.call(TestObject.path, .properties, "Get", [.string(name), .string(name)]))
        #expect(refused?.name == .invalidArgs && refused?.message.contains("bytes") == true, "\(String(describing: refused))")
        #expect(try await pair.getProperty("Title") == .string("Blue Train"))
    }

    @Test("calls held for a promised object are read within the limits of the methods it will serve")
    func heldCallsAreReadWithinTheirMethodsLimits() async throws {
        let pair = try BusPair.start()
        defer { pair.close() }
        let limited = Limited()
        let limits = ArgumentLimits(bytes: 256 << 10)
        pair.service.holdCalls(for: Self.path, interfaces: [limited.interface(limits)])
        let results = Mailbox<Result<BusMessage, BusError>>()
        for bytes in [100 << 10, (256 << 10) + 1] {
            // As long as a mailbox waits: the test that exports the object may run long after (HeldCallTests).
            pair.client.call(Self.call(pair, "Take", Self.text(ofBytes: bytes)), timeout: .seconds(120)) { results.put($0) }
        }
        // The refusal comes at once, before the object exists; the call within the limits waits for it.
        let refusal = try await results.take()
        #expect(throws: BusError.self) { try refusal.get() }
        pair.service.export(limited.object(limits))
        #expect(try await results.take().get().arguments == [.uint32(1)])
    }
}
