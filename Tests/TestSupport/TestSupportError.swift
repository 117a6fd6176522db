// The error the helpers throw when something they need is missing or misbehaves.

/// A failure in a test helper, with a message that says what went wrong and, where it helps, how to fix it.
public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
