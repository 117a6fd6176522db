import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

@Suite struct StatusOutputTests {
    private let twoPlayers = BrokerStatus(
        version: BrokerCtlVersion.current, assetCount: 123,
        players: [
            .init(busName: "org.mpris.MediaPlayer2.mpv", appID: "mpv", playbackStatus: "Playing"),
            .init(busName: "org.mpris.MediaPlayer2.vlc.instance7389", appID: "vlc", playbackStatus: "Paused"),
            .init(busName: "org.mpris.MediaPlayer2.mystery"),
        ])

    @Test func humanLinesListEveryPlayer() {
        #expect(
            StatusOutput.text(twoPlayers, timeZone: UTC()) == """
                Broker: running (version 0.1.0)
                Assets: 123
                Players: org.mpris.MediaPlayer2.mpv (mpv, Playing)
                         org.mpris.MediaPlayer2.vlc.instance7389 (vlc, Paused)
                         org.mpris.MediaPlayer2.mystery

                """)
    }

    @Test func noPlayersSaysNone() {
        let status = BrokerStatus(version: BrokerCtlVersion.current, assetCount: 0, players: [])
        #expect(StatusOutput.text(status, timeZone: UTC()).hasSuffix("Players: none\n"))
    }

    @Test func aBrokerOfAnotherVersionIsPointedOut() {
        let status = BrokerStatus(version: "9.9.9", assetCount: 0, players: [])
        #expect(StatusOutput.text(status, timeZone: UTC()).hasPrefix("Broker: running (version 9.9.9; broker-ctl is 0.1.0)\n"))
    }

    @Test func jsonIsOneValidObject() throws {
        let text = StatusOutput.json(twoPlayers)
        #expect(text.hasSuffix("}\n") && text.split(separator: "\n").count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["running"] as? Bool == true)
        #expect(object["version"] as? String == "0.1.0")
        #expect(object["broker_ctl_version"] as? String == "0.1.0")
        #expect(object["assets"] as? Int == 123)
        let players = try #require(object["players"] as? [[String: String]])
        #expect(players.first == ["bus_name": "org.mpris.MediaPlayer2.mpv", "app_id": "mpv", "playback_status": "Playing"])
        #expect(players.last == ["bus_name": "org.mpris.MediaPlayer2.mystery"])
    }
}
