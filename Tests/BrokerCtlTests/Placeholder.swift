import Testing

@Test func placeholder_BrokerCtlTests() { #expect(Bool(true)) }
