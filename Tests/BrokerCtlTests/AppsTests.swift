import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

@Suite struct AppsTests {
    private let apps = [
        AppInfo(appID: "spotify", appName: "Spotify", appIcon: "/usr/share/icons/spotify.png", isOptedOut: true,
                optedOutBy: .user, listens: 12, lastSeen: instant("2026-11-28T20:15:00Z")),
        AppInfo(appID: "mpv", appName: "mpv Media Player", listens: 1234, lastSeen: instant("2026-11-29T13:00:00Z")),
        AppInfo(appID: "org.example.Secret", isOptedOut: true, optedOutBy: .app),
        AppInfo(appID: "vlc", isAllowed: true, listens: 3),
    ]

    private func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }

    @Test func parsesEachFormat() throws {
        #expect(try parse(["apps"], as: AppsCommand.self) == AppsCommand())
        #expect(try parse(["apps", "--json"], as: AppsCommand.self) == AppsCommand(format: .json))
        #expect(try parse(["apps", "--ids"], as: AppsCommand.self) == AppsCommand(format: .ids))
    }

    @Test func jsonAndIDsExcludeEachOther() {
        #expect(usageError(["apps", "--json", "--ids"]) == UsageError("--json and --ids cannot be used together", subcommand: "apps"))
        #expect(usageError(["apps", "mpv"])?.message == "unexpected argument 'mpv'")
    }

    @Test func theTableIsSortedByIDInLocalTime() {
        #expect(
            lines(AppsOutput.table(apps, newApps: .record, timeZone: plusTwo, width: 200)) == [
                "ID                  NAME              LISTENS  LAST SEEN         RECORDED              ICON",
                "mpv                 mpv Media Player  1234     2026-11-29 15:00  yes                   -",
                "org.example.Secret  -                 0        -                 opted out by the app  -",
                "spotify             Spotify           12       2026-11-28 22:15  opted out by you      /usr/share/icons/spotify.png",
                "vlc                 -                 3        -                 allowed               -",
            ])
    }

    @Test("RECORDED says what becomes of an app the person has not decided about, by the mode")
    func recordedFollowsTheMode() {
        let new = AppInfo(appID: "mpv")
        #expect(AppsOutput.recordedText(new, newApps: .record) == "yes")
        #expect(AppsOutput.recordedText(new, newApps: .ask) == "asks first")
        #expect(AppsOutput.recordedText(new, newApps: .ignore) == "no")
        #expect(AppsOutput.recordedText(AppInfo(appID: "vlc", isAllowed: true), newApps: .ignore) == "allowed")
        #expect(AppsOutput.recordedText(AppInfo(appID: "x", isOptedOut: true, optedOutBy: .user, isAllowed: false), newApps: .record)
                == "opted out by you")
    }

    @Test func aNarrowTerminalCutsTheTextNotTheNumbersOrTimes() {
        let rows = lines(AppsOutput.table(apps, newApps: .record, timeZone: utc, width: 70))
        #expect(rows.allSatisfy { $0.terminalColumns <= 70 }, "\(rows)")
        #expect(rows[3].contains("  12       2026-11-28 20:15  opted out by you  "))
    }

    @Test func noAppsSaysSo() {
        #expect(AppsOutput.table([], newApps: .ask, timeZone: utc, width: 100) == "No apps seen yet.\n")
    }

    @Test func idsAreOneALineForCompletion() async {
        let run = await runBrokerCtl(["apps", "--ids"], broker: FakeBroker(apps: apps))
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "mpv\norg.example.Secret\nspotify\nvlc\n")
    }

    @Test func jsonUsesTheContractsKeys() async throws {
        let run = await runBrokerCtl(["apps", "--json"], broker: FakeBroker(apps: apps))
        let objects = try lines(run.standardOutput).map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["app_id"] as? String } == ["mpv", "org.example.Secret", "spotify", "vlc"])
        #expect(objects[0]["listens"] as? Int == 1234)
        #expect(objects[0]["opted_out"] as? Bool == false)
        #expect(objects[0]["opted_out_by"] == nil)
        #expect(objects[0]["last_seen"] as? Int64 == 1_795_957_200_000_000)
        #expect(objects[0]["last_seen_iso"] as? String == "2026-11-29T13:00:00Z")
        #expect(objects[1].keys.sorted() == ["allowed", "app_id", "listens", "opted_out", "opted_out_by"])
        #expect(objects[3]["allowed"] as? Bool == true && objects[0]["allowed"] as? Bool == false)
        #expect(objects[1]["opted_out_by"] as? String == "app")
        #expect(objects[2]["opted_out_by"] as? String == "user")
        #expect(objects[2]["app_icon"] as? String == "/usr/share/icons/spotify.png")
    }

    @Test func theHumanTableIsPrintedAtTheOutputWidthUnderTheNewAppsMode() async {
        let run = await runBrokerCtl(["apps"], broker: FakeBroker(apps: apps), timeZone: plusTwo)
        #expect(run.standardOutput == "New apps are recorded at once.\n" + AppsOutput.table(apps, newApps: .record, timeZone: plusTwo, width: 100))
    }

    @Test func aFailureExits1() async {
        let run = await runBrokerCtl(["apps", "--ids"], broker: FakeBroker(failures: ["apps": .brokerNotRunning]))
        #expect(run.exitCode == 1)
        #expect(run.standardOutput == "")
    }
}
