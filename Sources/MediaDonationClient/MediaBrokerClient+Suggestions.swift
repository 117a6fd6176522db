import SwiftDBus

/// Journaling suggestions (interface version 9): once a day, at the person's time, a notification
/// offers a moment to write about; *Write about it* opens the journal app the person chose.
/// Host processes only.
extension MediaBrokerClient {
    /// When the day's suggestion comes, `HH:MM` (or `HH:MM:SS`) local time; `nil` while
    /// suggestions are off.
    public func suggestionTime() async throws(MediaBrokerError) -> String? {
        guard let value = try? await property("SuggestAt").string() else { throw Self.unexpected("SuggestAt") }
        return value.isEmpty ? nil : value
    }

    /// Turns suggestions on at `time` (`HH:MM` or `HH:MM:SS`, local), or off with `nil`.
    public func setSuggestionTime(_ time: String?) async throws(MediaBrokerError) {
        try await setProperty("SuggestAt", .string(time ?? ""))
    }

    /// The desktop-file id of the journal app suggestions open; `nil` for none.
    public func journalApp() async throws(MediaBrokerError) -> String? {
        guard let value = try? await property("JournalApp").string() else { throw Self.unexpected("JournalApp") }
        return value.isEmpty ? nil : value
    }

    /// Chooses the journal app suggestions open, by its desktop-file id (one of
    /// ``journalApps()``), or none with `nil`.
    public func setJournalApp(_ id: String?) async throws(MediaBrokerError) {
        try await setProperty("JournalApp", .string(id ?? ""))
    }

    /// The installed journal apps: those whose desktop file declares `X-MediaBroker-Suggestion-URL`.
    public func journalApps() async throws(MediaBrokerError) -> [JournalAppInfo] {
        let reply = try await call("JournalApps", [])
        guard let items = try? reply.first?.array() else { throw Self.unexpected("JournalApps") }
        return items.compactMap { item -> JournalAppInfo? in
            guard let fields = try? item.vardict(), let id = try? fields["id"]?.string() else { return nil }
            return JournalAppInfo(id: id, name: (try? fields["name"]?.string()) ?? id, icon: try? fields["icon"]?.string(),
                                  url: try? fields["url"]?.string(), problem: try? fields["problem"]?.string())
        }
    }
}

/// An installed journal app, as the broker found it.
public struct JournalAppInfo: Sendable, Equatable {
    /// Its desktop-file id, without `.desktop`.
    public var id: String
    public var name: String
    public var icon: String?
    /// Its suggestion URL template, when usable.
    public var url: String?
    /// Why its suggestion URL cannot be used, when it cannot.
    public var problem: String?

    /// Whether suggestions can open it.
    public var takesSuggestions: Bool { url != nil }

    public init(id: String, name: String, icon: String? = nil, url: String? = nil, problem: String? = nil) {
        self.id = id
        self.name = name
        self.icon = icon
        self.url = url
        self.problem = problem
    }
}
