import SwiftDBus

/// New assets as the broker records them, and kept ones as they are corrected.
extension MediaBrokerClient {
    /// An endless sequence of the assets the broker records from now on (its `MediaAdded`
    /// signal), each delivered once, in order. Subscribed before this returns, so nothing
    /// recorded afterwards is missed. A sandboxed app receives them only while the person allows
    /// it to read (``MediaBrokerError/accessDenied(_:)`` before). Ends when the broker leaves the bus (it stopped or crashed),
    /// the bus connection is lost, or this client goes away (its end closes the connection the
    /// stream listens on); stop iterating (or cancel the task) to unsubscribe.
    ///
    /// ```swift
    /// for await media in try await broker.mediaAdded() { print(media.title ?? "?") }
    /// ```
    public func mediaAdded() async throws(MediaBrokerError) -> AsyncStream<GenericMedia> {
        try await assets(announcedBy: "MediaAdded")
    }

    /// An endless sequence of the kept assets whose words are corrected from now on, or whose
    /// correction is undone (the broker's `MediaChanged`, version 7), each as it now reads — to
    /// update what an app shows of an asset it already has. Subscribed, delivered and ended as
    /// ``mediaAdded()``.
    public func mediaChanged() async throws(MediaBrokerError) -> AsyncStream<GenericMedia> {
        try await assets(announcedBy: "MediaChanged")
    }

    /// The assets of the broker's signal `member`, one `a{sv}` each, to a subscriber.
    private func assets(announcedBy member: String) async throws(MediaBrokerError) -> AsyncStream<GenericMedia> {
        let (stream, continuation) = AsyncStream.makeStream(of: GenericMedia.self, bufferingPolicy: .bufferingNewest(1000))
        let rule = MatchRule(
            sender: BusName(stringLiteral: Self.busName), interface: InterfaceName(stringLiteral: Self.interfaceName),
            member: MemberName(stringLiteral: member), path: ObjectPath(stringLiteral: Self.objectPath))
        let token: MatchToken
        do {
            // The match ends with the connection (the client gone, the bus lost), and the stream with it.
            token = try await connection.addMatch(rule) { message in
                var media: GenericMedia?
                try? message.body.read { reader throws(MarshallingError) in
                    try reader.argument { asset throws(MarshallingError) in media = try GenericMedia(reading: &asset) }
                }
                if let media { continuation.yield(media) }
            } ended: {
                continuation.finish()
            }
        } catch {
            throw MediaBrokerError(error)
        }
        // The broker leaving its name ends the stream: nothing more will be recorded to follow.
        let ownerRule = MatchRule(sender: BusConnection.busName, interface: .bus, member: "NameOwnerChanged",
                                  path: BusConnection.busPath, arg0: Self.busName)
        let ownerToken: MatchToken
        do {
            ownerToken = try await connection.addMatch(ownerRule) { message in
                // A signal's arguments are decoded on each read: bind them once.
                let arguments = message.arguments
                guard arguments.count == 3, (try? arguments[2].string()) == "" else { return }
                continuation.finish()
            }
        } catch {
            token.cancel()
            throw MediaBrokerError(error)
        }
        // Since broker version 3 live listens go only to subscribers, and only while they may read.
        do {
            _ = try await call("Subscribe", [])
        } catch .busFailure(name: "org.freedesktop.DBus.Error.UnknownMethod", _) {
            // An older broker broadcasts them.
        } catch {
            token.cancel()
            ownerToken.cancel()
            throw error
        }
        continuation.onTermination = { _ in
            token.cancel()
            ownerToken.cancel()
        }
        return stream
    }
}
