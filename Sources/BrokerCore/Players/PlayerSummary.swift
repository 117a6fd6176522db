/// One followed player, for `Status`.
package struct PlayerSummary: Sendable, Hashable {
    package var busName: String
    package var uniqueName: String
    package var appID: String
    package var playbackStatus: String?

    package init(busName: String, uniqueName: String, appID: String, playbackStatus: String?) {
        self.busName = busName
        self.uniqueName = uniqueName
        self.appID = appID
        self.playbackStatus = playbackStatus
    }
}
