import SwiftDBus
import Testing

/// Reading values from other processes: lenient where the contract says so (any integer type
/// whose value fits), and a ``DBusValue/TypeMismatch`` naming what was wanted and what was found
/// otherwise — never a crash.
@Suite struct ValueReadingTests {
    /// Integer values of every D-Bus integer type at and around the edges, with their numbers.
    static let integers: [(DBusValue, Int128)] = [
        (.byte(0), 0), (.byte(255), 255),
        (.int16(.min), Int128(Int16.min)), (.int16(-1), -1), (.int16(.max), Int128(Int16.max)),
        (.uint16(.max), Int128(UInt16.max)),
        (.int32(.min), Int128(Int32.min)), (.int32(-1), -1), (.int32(0), 0), (.int32(.max), Int128(Int32.max)),
        (.uint32(.max), Int128(UInt32.max)),
        (.int64(.min), Int128(Int64.min)), (.int64(-1), -1), (.int64(.max), Int128(Int64.max)),
        (.uint64(0), 0), (.uint64(.max), Int128(UInt64.max)),
    ]

    /// Checks `value.integer(as: T.self)`: the number when it lies in T's range, else a mismatch
    /// naming that range and the value's own type.
    static func check<T: FixedWidthInteger>(_ value: DBusValue, _ number: Int128, as type: T.Type) {
        let fits = Int128(T.min) <= number && number <= Int128(T.max)
        do {
            let read = try value.integer(as: T.self)
            #expect(fits, "\(value) read as \(T.self) gave \(read) although it does not fit")
            #expect(Int128(read) == number)
        } catch {
            #expect(!fits, "\(value) fits \(T.self) but was refused: \(error)")
            #expect(error.expected == "an integer in \(T.min)…\(T.max)")
            #expect(error.found == value.unwrapped.signature)
        }
    }

    @Test("every integer type reads as every other when its value fits, and is refused naming the range when not",
          arguments: integers.indices)
    func lenientIntegers(_ index: Int) {
        let (value, number) = Self.integers[index]
        for candidate in [value, .variant(value), .variant(.variant(value))] {
            Self.check(candidate, number, as: UInt8.self)
            Self.check(candidate, number, as: Int8.self)
            Self.check(candidate, number, as: Int16.self)
            Self.check(candidate, number, as: UInt16.self)
            Self.check(candidate, number, as: Int32.self)
            Self.check(candidate, number, as: UInt32.self)
            Self.check(candidate, number, as: Int64.self)
            Self.check(candidate, number, as: UInt64.self)
            Self.check(candidate, number, as: Int.self)
            Self.check(candidate, number, as: UInt.self)
        }
    }

    @Test func minusOneIsNotAnUnsignedNumber() {
        expectMismatch("an integer in 0…4294967295", .int32) {
            try DBusValue.int32(-1).integer(as: UInt32.self)
        }
    }

    @Test("non-integers are not integers", arguments: [
        DBusValue.double(1), .boolean(true), .string("1"), .strings(["1"]), .variant(.double(2.5)),
    ])
    func nonIntegers(_ value: DBusValue) {
        expectMismatch("an integer", value.unwrapped.signature) {
            try value.integer(as: Int64.self)
        }
    }

    @Test func stringsPathsAndSignaturesAllReadAsText() throws {
        #expect(try DBusValue.string("naïve").string() == "naïve")
        #expect(try DBusValue.objectPath("/org/x").string() == "/org/x")
        #expect(try DBusValue.signature("a{sv}").string() == "a{sv}")
        #expect(try DBusValue.variant(.variant(.string("deep"))).string() == "deep")
        expectMismatch("a string", .uint32) { try DBusValue.uint32(1).string() }
    }

    @Test func otherScalarsReadOnlyAsThemselves() throws {
        #expect(try DBusValue.boolean(true).boolean())
        #expect(try DBusValue.variant(.double(-0.5)).double() == -0.5)
        expectMismatch("a boolean", .int32) { try DBusValue.int32(1).boolean() }
        expectMismatch("a double", .int64) { try DBusValue.int64(1).double() }
    }

    @Test func stringArraysReadFromAsAndFromAvOfStrings() throws {
        #expect(try DBusValue.strings(["a", "", "ß"]).strings() == ["a", "", "ß"])
        #expect(try DBusValue.array(element: .variant, [.variant(.string("x")), .variant(.objectPath("/y"))]).strings() == ["x", "/y"])
        #expect(try DBusValue.variant(.strings([])).strings() == [])
        expectMismatch("a string", .int32) {
            try DBusValue.array(element: .int32, [.int32(1)]).strings()
        }
        expectMismatch("an array", .string) { try DBusValue.string("a").strings() }
    }

    @Test func aVardictKeepsTheLastValueOfADuplicatedKey() throws {
        let sent = DBusValue.dictionary(key: .string, value: .variant, [
            .init(key: .string("title"), value: .variant(.string("first"))),
            .init(key: .string("length"), value: .variant(.int64(5))),
            .init(key: .string("title"), value: .variant(.string("second"))),
        ])
        #expect(try sent.vardict() == ["title": .string("second"), "length": .int64(5)])
    }

    @Test func aVardictTakesValuesThatAreNotVariantsAsTheyAre() throws {
        let strings = DBusValue.dictionary(key: .string, value: .string, [.init(key: .string("k"), value: .string("v"))])
        #expect(try strings.vardict() == ["k": .string("v")])
        let paths = DBusValue.dictionary(key: .objectPath, value: .variant, [.init(key: .objectPath("/p"), value: .variant(.boolean(true)))])
        #expect(try DBusValue.variant(paths).vardict() == ["/p": .boolean(true)])
    }

    @Test func aDictionaryWithoutStringKeysIsNotAVardict() {
        let numbered = DBusValue.dictionary(key: .int32, value: .variant, [.init(key: .int32(1), value: .variant(.string("x")))])
        expectMismatch("a dictionary with string keys (a{sv})", "a{iv}") {
            try numbered.vardict()
        }
        #expect(throws: DBusValue.TypeMismatch.self) { try DBusValue.strings(["a"]).vardict() }
    }

    @Test func containersReadOnlyAsTheirKind() throws {
        #expect(try DBusValue.structure([.int32(1), .string("x")]).structure() == [.int32(1), .string("x")])
        #expect(try DBusValue.vardict(["a": .byte(1)]).dictionaryEntries().count == 1)
        expectMismatch("a struct", "as") { try DBusValue.strings([]).structure() }
        expectMismatch("a dictionary", "(i)") {
            try DBusValue.structure([.int32(1)]).dictionaryEntries()
        }
        expectMismatch("an array", .vardict) { try DBusValue.vardict([:]).array() }
    }

    @Test func aMismatchDescribesBothSides() {
        do {
            _ = try DBusValue.vardict([:]).string()
            Issue.record("a dictionary read as a string")
        } catch {
            #expect(error.description == "expected a string, found a value of type 'a{sv}'")
        }
    }
}

/// Expects `body` to throw a ``DBusValue/TypeMismatch`` with these two sides.
func expectMismatch<T>(
    _ expected: String, _ found: Signature, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> T
) {
    do {
        let value = try body()
        Issue.record("expected a mismatch, read \(value)", sourceLocation: sourceLocation)
    } catch let error as DBusValue.TypeMismatch {
        #expect(error.expected == expected, sourceLocation: sourceLocation)
        #expect(error.found == found, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected a TypeMismatch, caught \(error)", sourceLocation: sourceLocation)
    }
}
