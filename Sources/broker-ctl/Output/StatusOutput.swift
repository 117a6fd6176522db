import Localization
import MediaDonationClient

/// What `broker-ctl status` prints.
enum StatusOutput {
    static func text(_ status: BrokerStatus, timeZone: any UTCOffsetRule) -> String {
        var lines = [localized("Broker: running (version {version}{note})", ["version": status.version, "note": versionMismatchNote(status)])]
        if let pause = status.pause { lines.append(localized("Recording: paused {end}", ["end": PauseOutput.end(pause, timeZone: timeZone)])) }
        lines.append(localized("Assets: {count}", ["count": String(status.assetCount)]))
        let players = status.players.map(describe)
        let label = localized("Players:") + " "
        let indent = String(repeating: " ", count: label.count)
        lines.append(label + (players.first ?? localized("none")))
        lines += players.dropFirst().map { indent + $0 }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ status: BrokerStatus) -> String {
        var object = JSONObjectBuilder()
        object.add("running", JSONValue.bool(true))
        object.add("version", status.version)
        object.add("broker_ctl_version", BrokerCtlVersion.current)
        object.add("assets", Int64(status.assetCount))
        PauseOutput.add(status.pause, to: &object)
        object.add("players", JSONValue.array(status.players.map { player in
            var object = JSONObjectBuilder()
            object.add("bus_name", player.busName)
            object.add("app_id", player.appID)
            object.add("playback_status", player.playbackStatus)
            return object.object
        }))
        return object.object.serialized + "\n"
    }

    /// `org.mpris.MediaPlayer2.mpv (mpv, Playing)`.
    private static func describe(_ player: BrokerStatus.Player) -> String {
        let details = [player.appID, player.playbackStatus].compactMap { $0 }
        return details.isEmpty ? player.busName : "\(player.busName) (\(details.joined(separator: ", ")))"
    }

    /// A CLI older or newer than the daemon may misread it; say so where the person looks.
    private static func versionMismatchNote(_ status: BrokerStatus) -> String {
        status.version == BrokerCtlVersion.current ? "" : localized("; broker-ctl is {version}", ["version": BrokerCtlVersion.current])
    }
}
