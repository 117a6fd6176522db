import SwiftDBus

/// Correcting a kept listen (interface version 7): "that's not what it was".
extension MediaBrokerClient {
    /// Corrects asset `id`'s words: a value left `nil` keeps its own; `album: .some(nil)` clears
    /// the album. Returns the asset as it now reads. The words first recorded are kept for
    /// ``undoEdit(_:)``.
    public func editMedia(_ id: Int64, title: String? = nil, artists: [String]? = nil, album: String?? = nil)
        async throws(MediaBrokerError) -> GenericMedia {
        var changes: [String: DBusValue] = [:]
        if let title { changes["title"] = .string(title) }
        if let artists { changes["artists"] = .strings(artists) }
        if let album { changes["album"] = .string(album ?? "") }
        return try Self.asset(in: try await callReadingInPlace("EditMedia", [.int64(id), .vardict(changes)]), "EditMedia")
    }

    /// Puts back the words asset `id` was first recorded with; returns the asset as it now reads.
    public func undoEdit(_ id: Int64) async throws(MediaBrokerError) -> GenericMedia {
        try Self.asset(in: try await callReadingInPlace("UndoEdit", [.int64(id)]), "UndoEdit")
    }

    /// The one asset (`a{sv}`) a reply carries.
    static func asset(in reply: BusMessage, _ member: String) throws(MediaBrokerError) -> GenericMedia {
        var media: GenericMedia?
        try? reply.body.read { reader throws(MarshallingError) in
            try reader.argument { asset throws(MarshallingError) in media = try GenericMedia(reading: &asset) }
        }
        guard let media else { throw unexpected(member) }
        return media
    }
}
