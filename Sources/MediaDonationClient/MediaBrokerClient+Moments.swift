import Clocks
public import FoundationEssentials
import SwiftDBus

extension MediaBrokerClient {
    /// The person's listening grouped into moments, newest first (broker version 2 or later).
    ///
    /// - Parameters:
    ///   - since, until: only moments that began in this range.
    ///   - limit: at most this many, 1…200.
    ///   - gap: the silence that ends a moment, 1 minute…6 hours (the broker's default is 30 minutes).
    ///   - appID: moments of this app's listens only.
    ///   - before: the ``Moment/id`` of the last moment of the previous page, to continue after it.
    ///   - onThisDay: "On this day" (broker version 9): the moments of the same date's listening
    ///     day as the one holding this instant, in each earlier year, nearest year first; not with
    ///     `since`, `until` or `before`.
    /// - Throws: ``MediaBrokerError/invalidArguments(_:)`` for a value out of range, or from a
    ///   broker that has no `Moments`.
    public func moments(
        since: Date? = nil, until: Date? = nil, limit: Int = 20, gap: Duration? = nil, appID: String? = nil, before: String? = nil,
        onThisDay: Date? = nil
    ) async throws(MediaBrokerError) -> [Moment] {
        guard (1...200).contains(limit) else { throw .invalidArguments("limit must be 1…200, not \(limit)") }
        var filter: [String: DBusValue] = ["limit": .uint32(UInt32(limit))]
        if let since { filter["since"] = .int64(since.microsecondsSinceEpoch) }
        if let until { filter["until"] = .int64(until.microsecondsSinceEpoch) }
        if let gap { filter["gap"] = .int64(gap.wholeMicroseconds) }
        if let appID { filter["app_id"] = .string(appID) }
        if let before { filter["before"] = .string(before) }
        if let onThisDay { filter["on_this_day"] = .int64(onThisDay.microsecondsSinceEpoch) }
        let reply = try await call("Moments", [.vardict(filter)])
        guard let items = try? reply.first?.array() else { throw Self.unexpected("Moments") }
        return items.compactMap { try? Moment(fields: $0.vardict()) }
    }

    /// The assets with these ids (a moment's ``Moment/assetIDs``), in the order asked; ids the
    /// history no longer holds are skipped. At most 1000 ids (broker version 2 or later).
    public func media(ids: [Int64]) async throws(MediaBrokerError) -> [GenericMedia] {
        guard ids.count <= 1000 else { throw .invalidArguments("at most 1000 ids, not \(ids.count)") }
        return try Self.assets(in: try await callReadingInPlace("MediaByID", [.array(element: .int64, ids.map(DBusValue.int64))]))
    }
}

extension Moment {
    /// A moment from its `a{sv}`; `nil` without an id, a title and its times.
    init?(fields: [String: DBusValue]) {
        func text(_ key: String) -> String? { (try? fields[key]?.string()).flatMap { $0.isEmpty ? nil : $0 } }
        func micros(_ key: String) -> Int64? { try? fields[key]?.integer(as: Int64.self) }
        guard let id = text("id"), let title = text("title"), let started = micros("started"), let ended = micros("ended") else {
            return nil
        }
        self.init(
            id: id, title: title, summary: text("summary"), started: Date(microsecondsSinceEpoch: started),
            ended: Date(microsecondsSinceEpoch: ended), listened: .microseconds(micros("listened") ?? 0),
            count: (try? fields["count"]?.integer(as: Int.self)) ?? 0,
            assetIDs: ((try? fields["asset_ids"]?.array()) ?? []).compactMap { try? $0.integer(as: Int64.self) },
            artists: (try? fields["artists"]?.strings()) ?? [], album: text("album"),
            appIDs: (try? fields["app_ids"]?.strings()) ?? [], appIcon: text("app_icon"),
            kind: text("kind").map(GenericMedia.Kind.init(rawValue:)),
            titleRule: TitleRule(rawValue: text("title_rule") ?? "mixed"), artist: text("artist"), show: text("show"),
            episode: text("episode"), episodeCount: try? fields["episode_count"]?.integer(as: Int.self), artistCount: (try? fields["artist_count"]?.integer(as: Int.self)) ?? 0,
            partOfDay: text("part_of_day"))
    }
}
