import Testing

@Test func placeholder_MediaBrokerTests() { #expect(Bool(true)) }
