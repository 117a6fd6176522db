import Foundation
import Testing
@testable import BrokerCore
@testable import MediaBroker
import CoreFixtures

/// Issue 31: a player or an app run by an interpreter is named after itself, never after the
/// interpreter; the executable is the last clue, and an interpreter is no clue at all.
@Suite("Identity: an interpreter never names a player or an app")
struct InterpreterIdentityTests {
    private static let mpris = "org.mpris.MediaPlayer2."

    /// A session with Debian's `python3.11.desktop` installed and process 40 running
    /// `/usr/bin/python3.11`, as a Python MPRIS bridge is.
    private func pythonSession() throws -> AppFixture {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "python3.11.desktop", "Name=Python (v3.11)", "Icon=/usr/share/pixmaps/python3.11.xpm")
        try fixture.process(40, executable: "/usr/bin/python3.11")
        try fixture.process(41, executable: "/usr/bin/python3.11")
        return fixture
    }

    @Test(arguments: [
        "python3.11", "python3", "python", "pypy3", "perl", "perl5.36.0", "ruby3.1", "node", "nodejs", "gjs-console", "gjs",
        "java", "mono-sgen", "dotnet", "bash", "dash", "sh", "zsh", "fish", "lua5.4", "luajit", "php8.2", "tclsh8.6",
        "wish8.6", "guile-3.0", "qmlscene", "electron", "electron25", "wine64-preloader", "ld-linux-x86-64.so.2", "Python3.12",
    ])
    func interpretersAndRuntimesAreKnownWhateverTheirVersion(name: String) {
        #expect(Interpreter.isInterpreter(name))
    }

    @Test(arguments: ["firefox-esr", "firefox", "chromium", "mpv", "vlc", "spotify", "rhythmbox", "python-spotify", "node-player", "shortwave", "2048"])
    func playersAreNotInterpreters(name: String) {
        #expect(!Interpreter.isInterpreter(name))
    }

    @Test func aPythonPlayerWhoseStemMatchesNothingIsRecordedUnderItsStem() throws {
        let fixture = try pythonSession()
        let found = fixture.resolver().resolve(PlayerClues(
            busName: Self.mpris + "spotify", desktopEntry: "spotify", identity: "Spotify", process: FakeProcess.connected(40)))
        #expect(found == AppIdentity(appID: "spotify", appName: "Spotify", appIcon: nil, source: .busName))
    }

    @Test func aPythonPlayerIsFoundByItsFlatpakExportWithTheLargestIcon() throws {
        let fixture = try pythonSession()
        try fixture.hicolor(in: fixture.flatpakSystem + "/icons")
        try fixture.icon(fixture.flatpakSystem + "/icons/hicolor/48x48/apps/com.spotify.Client.png")
        let largest = try fixture.icon(fixture.flatpakSystem + "/icons/hicolor/256x256/apps/com.spotify.Client.png")
        try fixture.desktopFile(in: fixture.flatpakSystem, "com.spotify.Client.desktop", "Name=Spotify", "Icon=com.spotify.Client")
        let found = fixture.resolver().resolve(PlayerClues(
            busName: Self.mpris + "spotify", desktopEntry: "spotify", identity: "Spotify", process: FakeProcess.connected(40)))
        #expect(found == AppIdentity(appID: "com.spotify.Client", appName: "Spotify", appIcon: largest, source: .desktopFileMatch))
    }

    @Test func twoPythonPlayersAreTwoApps() throws {
        let fixture = try pythonSession()
        let resolver = fixture.resolver()
        let first = resolver.resolve(PlayerClues(busName: Self.mpris + "radiotray", identity: "Radio Tray", process: FakeProcess.connected(40)))
        let second = resolver.resolve(PlayerClues(busName: Self.mpris + "podcastbridge", identity: "Podcasts", process: FakeProcess.connected(41)))
        #expect(first.appID == "radiotray" && second.appID == "podcastbridge")
    }

    @Test func theExecutableIsTriedOnlyAfterThePlayersOwnWordsFailedEveryKindOfMatch() throws {
        let fixture = try AppFixture()
        // The stem matches by its reverse-DNS name; the executable would match by id, a stronger kind.
        try fixture.desktopFile(in: fixture.usrShare, "org.example.Tunes.desktop", "Name=tunes")
        try fixture.desktopFile(in: fixture.usrShare, "tunes-bin.desktop", "Name=Tunes binary")
        try fixture.process(50, executable: "/opt/tunes/tunes-bin")
        let found = fixture.resolver().resolve(PlayerClues(busName: Self.mpris + "tunes", process: FakeProcess.connected(50)))
        #expect(found.appID == "org.example.Tunes")
    }

    @Test func aRealProgramsExecutableStillNamesIt() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "firefox-esr.desktop", "Name=Firefox ESR")
        try fixture.process(31, executable: "/usr/lib/firefox-esr/firefox-esr")
        let found = fixture.resolver().resolve(PlayerClues(busName: Self.mpris + "firefox.instance_1_77", process: FakeProcess.connected(31)))
        #expect(found.appID == "firefox-esr" && found.appName == "Firefox ESR")
    }

    // MARK: Who asks

    @Test func aHostAppThatOwnsItsAppIdIsNamedByItsDesktopFile() throws {
        let fixture = try pythonSession()
        try fixture.desktopFile(in: fixture.usrShare, "org.example.Journal.desktop", "Name=Example Journal")
        let resolver = fixture.resolver()
        #expect(resolver.installedAppIDs(among: ["org.example.Journal", "org.example.Other", "org.a11y.Bus"]) == ["org.example.Journal"])
        let asker = resolver.asker(ownedAppID: "org.example.Journal", process: FakeProcess.connected(40))
        #expect(asker?.appID == "org.example.Journal" && asker?.appName == "Example Journal")
    }

    @Test func aHostScriptIsNamedByNobodyNeverByItsInterpreter() throws {
        let fixture = try pythonSession()
        let resolver = fixture.resolver()
        #expect(resolver.asker(ownedAppID: nil, process: FakeProcess.connected(40)) == nil)
        #expect(resolver.asker(ownedAppID: "org.example.NotInstalled", process: FakeProcess.connected(40)) == nil)
        #expect(resolver.asker(ownedAppID: nil, process: FakeProcess.connected(99)) == nil)
    }

    @Test func aHostProgramIsNamedByItsExecutablesDesktopFileOrItsExecutable() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "gnome-journal.desktop", "Name=Journal")
        try fixture.process(60, executable: "/usr/bin/gnome-journal")
        try fixture.process(61, executable: "/home/me/bin/diary")
        let resolver = fixture.resolver()
        #expect(resolver.asker(ownedAppID: nil, process: FakeProcess.connected(60))?.appName == "Journal")
        #expect(resolver.asker(ownedAppID: nil, process: FakeProcess.connected(61))?.appName == "diary")
    }
}
