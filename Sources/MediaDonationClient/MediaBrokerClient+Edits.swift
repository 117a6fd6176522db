import FoundationEssentials
import SwiftDBus

/// Correcting a kept listen (interface version 7): "that's not what it was"; from now on, as a
/// rule (version 8).
extension MediaBrokerClient {
    /// Corrects asset `id`'s words: a value left `nil` keeps its own; `album: .some(nil)` clears
    /// the album. Returns the asset as it now reads. The words first recorded are kept for
    /// ``undoEdit(_:)``. `fromNowOn` also keeps the correction as a rule for the same app's later
    /// listens told with the same words (``rules()``).
    public func editMedia(_ id: Int64, title: String? = nil, artists: [String]? = nil, album: String?? = nil,
                          fromNowOn: Bool = false) async throws(MediaBrokerError) -> GenericMedia {
        var changes: [String: DBusValue] = [:]
        if let title { changes["title"] = .string(title) }
        if let artists { changes["artists"] = .strings(artists) }
        if let album { changes["album"] = .string(album ?? "") }
        if fromNowOn { changes["from_now_on"] = .boolean(true) }
        return try Self.asset(in: try await callReadingInPlace("EditMedia", [.int64(id), .vardict(changes)]), "EditMedia")
    }

    /// The correction rules, oldest first. Host processes only.
    public func rules() async throws(MediaBrokerError) -> [CorrectionRuleInfo] {
        let reply = try await call("Rules", [])
        guard let items = try? reply.first?.array() else { throw Self.unexpected("Rules") }
        return items.compactMap { item -> CorrectionRuleInfo? in
            guard let fields = try? item.vardict(), let id = try? fields["id"]?.integer(as: Int64.self),
                  let appID = try? fields["app_id"]?.string(), let title = try? fields["title"]?.string(),
                  let correction = try? fields["correction"]?.vardict(),
                  let created = try? fields["created"]?.integer(as: Int64.self) else { return nil }
            return CorrectionRuleInfo(
                id: id, appID: appID, title: title, artists: (try? fields["artists"]?.strings()) ?? [],
                correctedTitle: try? correction["title"]?.string(), correctedArtists: try? correction["artists"]?.strings(),
                correctedAlbum: (try? correction["album"]?.string()).map { $0.isEmpty ? nil : $0 },
                created: Date(microsecondsSinceEpoch: created))
        }
    }

    /// Removes correction rule `id`: later listens are recorded as told; those it corrected stay
    /// corrected. Throws ``MediaBrokerError/invalidArguments(_:)`` for an unknown id.
    public func removeRule(_ id: Int64) async throws(MediaBrokerError) {
        _ = try await call("RemoveRule", [.int64(id)])
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
