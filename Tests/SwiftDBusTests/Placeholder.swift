import Testing

@Test func placeholder_SwiftDBusTests() { #expect(Bool(true)) }
