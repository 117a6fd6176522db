/// One followed player, for `Status`.
public struct PlayerSummary: Sendable, Hashable {
    public var busName: String
    public var uniqueName: String
    public var appID: String
    public var playbackStatus: String?

    public init(busName: String, uniqueName: String, appID: String, playbackStatus: String?) {
        self.busName = busName
        self.uniqueName = uniqueName
        self.appID = appID
        self.playbackStatus = playbackStatus
    }
}
