/// What `broker-ctl status` shows: the broker's version, how much it holds, whom it follows.
public struct BrokerStatus: Sendable, Hashable {
    /// A media player the broker is following right now.
    public struct Player: Sendable, Hashable {
        /// The well-known name, e.g. `org.mpris.MediaPlayer2.mpv`.
        public var busName: String
        /// The app identity the broker derived for it.
        public var appID: String?
        /// `Playing`, `Paused` or `Stopped`, as the player last reported.
        public var playbackStatus: String?
        public init(busName: String, appID: String? = nil, playbackStatus: String? = nil) {
            self.busName = busName
            self.appID = appID
            self.playbackStatus = playbackStatus
        }
    }

    public var version: String
    public var assetCount: Int
    public var players: [Player]
    /// The pause of recording in force (`nil`: recording is not paused; interface version 6).
    public var pause: RecordingPause?

    public init(version: String, assetCount: Int, players: [Player], pause: RecordingPause? = nil) {
        self.version = version
        self.assetCount = assetCount
        self.players = players
        self.pause = pause
    }
}
