import Foundation
import Synchronization
import Testing
@testable import MediaBroker
@testable import BrokerCore

@Suite("AppResolver: from player clues to app id, name and icon")
struct AppResolverTests {
    private static let mpris = "org.mpris.MediaPlayer2."

    @Test func desktopEntryNamingAnInstalledFileWins() throws {
        let fixture = try AppFixture()
        try fixture.hicolor(in: fixture.usrShare + "/icons")
        let icon = try fixture.icon(fixture.usrShare + "/icons/hicolor/scalable/apps/org.gnome.Lollypop.svg")
        try fixture.desktopFile(in: fixture.usrShare, "org.gnome.Lollypop.desktop", "Name=Lollypop", "Icon=org.gnome.Lollypop")
        let found = fixture.resolver().resolve(PlayerClues(
            busName: Self.mpris + "Lollypop", desktopEntry: "org.gnome.Lollypop", identity: "Lollypop Music"))
        #expect(found == AppIdentity(appID: "org.gnome.Lollypop", appName: "Lollypop", appIcon: icon, source: .desktopEntry))
    }

    @Test func flatpakSpotifySaysSpotifyButInstallsComSpotifyClient() throws {
        let fixture = try AppFixture()
        try fixture.hicolor(in: fixture.flatpakSystem + "/icons")
        let icon = try fixture.icon(fixture.flatpakSystem + "/icons/hicolor/256x256/apps/com.spotify.Client.png")
        try fixture.desktopFile(
            in: fixture.flatpakSystem, "com.spotify.Client.desktop", "Name=Spotify", "Icon=com.spotify.Client",
            "StartupWMClass=Spotify")
        let found = fixture.resolver().resolve(PlayerClues(busName: Self.mpris + "spotify", desktopEntry: "spotify", identity: "Spotify"))
        #expect(found == AppIdentity(appID: "com.spotify.Client", appName: "Spotify", appIcon: icon, source: .desktopFileMatch))
    }

    @Test func aDesktopFileWithTheExactIdBeatsAReverseDNSMatch() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.flatpakSystem, "com.spotify.Client.desktop", "Name=Spotify (Flatpak)")
        try fixture.desktopFile(in: fixture.usrShare, "spotify.desktop", "Name=Spotify (deb)")
        let found = fixture.resolver().resolve(PlayerClues(busName: Self.mpris + "spotify", desktopEntry: "spotify"))
        #expect(found.appID == "spotify" && found.source == .desktopEntry)
    }

    @Test func emptyDesktopEntryFallsBackToTheBusName() throws {
        let fixture = try AppFixture()
        let resolver = fixture.resolver()
        let bare = resolver.resolve(PlayerClues(busName: Self.mpris + "ytmdesktop", desktopEntry: "", identity: "YouTube Music"))
        #expect(bare == AppIdentity(appID: "ytmdesktop", appName: "YouTube Music", appIcon: nil, source: .busName))
        try fixture.desktopFile(in: fixture.usrShare, "youtube-music-desktop-app.desktop", "Name=YouTube Music", "Icon=ytm")
        let named = resolver.resolve(PlayerClues(busName: Self.mpris + "ytmdesktop", desktopEntry: "  ", identity: "YouTube Music"))
        #expect(named.appID == "youtube-music-desktop-app" && named.source == .desktopFileMatch)
    }

    @Test(arguments: [
        ("firefox.instance_1_66", "firefox"), ("chromium.instance6013", "chromium"), ("brave.instance121648", "brave"),
        ("ncspot.instance4242", "ncspot"), ("vlc.instance7389", "vlc"), ("vlc", "vlc"), ("kdeconnect.mpris_0a1b", "kdeconnect.mpris_0a1b"),
        ("foo.instances", "foo.instances"), ("foo.instance", "foo.instance"), ("instance12", "instance12"),
    ])
    func instanceSuffixesAreStripped(name: String, stem: String) {
        #expect(PlayerClues.stem(ofBusName: Self.mpris + name) == stem)
    }

    @Test func browserInstancesResolveToTheirDesktopFiles() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "firefox.desktop", "Name=Firefox", "Icon=firefox")
        try fixture.hicolor(in: fixture.usrShare + "/icons")
        let icon = try fixture.icon(fixture.usrShare + "/icons/hicolor/128x128/apps/firefox.png")
        let resolver = fixture.resolver()
        let firefox = resolver.resolve(PlayerClues(busName: Self.mpris + "firefox.instance_1_66", desktopEntry: "", identity: "Mozilla Firefox"))
        #expect(firefox == AppIdentity(appID: "firefox", appName: "Firefox", appIcon: icon, source: .desktopFileMatch))
        let chromium = resolver.resolve(PlayerClues(busName: Self.mpris + "chromium.instance6013", identity: "Chromium"))
        #expect(chromium == AppIdentity(appID: "chromium", appName: "Chromium", appIcon: nil, source: .busName))
        // Another instance of the same browser is the same app.
        #expect(resolver.resolve(PlayerClues(busName: Self.mpris + "firefox.instance_2_99", desktopEntry: "")) .appID == "firefox")
    }

    @Test func startupWMClassAndNameMatchWhenIdsDoNot() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "firefox-esr.desktop", "Name=Firefox ESR", "StartupWMClass=Firefox")
        try fixture.desktopFile(in: fixture.usrShare, "org.videolan.VLC.desktop", "Name=VLC media player")
        try fixture.desktopFile(in: fixture.usrShare, "io.github.example.Tuner.desktop", "Name=Tuner Radio")
        let resolver = fixture.resolver()
        #expect(resolver.resolve(PlayerClues(busName: Self.mpris + "firefox.instance_1_2")).appID == "firefox-esr")
        #expect(resolver.resolve(PlayerClues(busName: Self.mpris + "vlc.instance7389")).appID == "org.videolan.VLC")
        let tuner = resolver.resolve(PlayerClues(busName: Self.mpris + "tuner", identity: "tuner radio"))
        #expect(tuner.appID == "io.github.example.Tuner" && tuner.appName == "Tuner Radio")
    }

    @Test func anAmbiguousOwnerComponentMatchesNothing() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "org.kde.elisa.desktop", "Name=Elisa")
        try fixture.desktopFile(in: fixture.usrShare, "org.kde.dragonplayer.desktop", "Name=Dragon Player")
        #expect(fixture.resolver().resolve(PlayerClues(busName: Self.mpris + "kde")).source == .busName)
    }

    @Test func desktopEntryWithADotDesktopSuffixAndOtherCase() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "vlc.desktop", "Name=VLC")
        let resolver = fixture.resolver()
        #expect(resolver.resolve(PlayerClues(busName: Self.mpris + "x", desktopEntry: "vlc.desktop")).source == .desktopEntry)
        let upper = resolver.resolve(PlayerClues(busName: Self.mpris + "x", desktopEntry: "VLC"))
        #expect(upper.appID == "vlc" && upper.source == .desktopFileMatch)
    }

    @Test func theNameIsLocalized() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "rhythmbox.desktop", "Name=Rhythmbox", "Name[fr]=Rhythmbox (fr)")
        let clues = PlayerClues(busName: Self.mpris + "rhythmbox", desktopEntry: "rhythmbox")
        #expect(fixture.resolver(locale: "fr_CA.UTF-8").resolve(clues).appName == "Rhythmbox (fr)")
        #expect(AppResolver(environment: fixture.environment.merging(["LANG": "fr_FR"]) { $1 }).resolve(clues).appName == "Rhythmbox (fr)")
    }

    @Test func aMissingIconIsNil() throws {
        let fixture = try AppFixture()
        try fixture.hicolor(in: fixture.usrShare + "/icons")
        try fixture.desktopFile(in: fixture.usrShare, "player.desktop", "Name=Player", "Icon=no-such-icon")
        #expect(fixture.resolver().resolve(PlayerClues(busName: Self.mpris + "player", desktopEntry: "player")).appIcon == nil)
    }

    @Test func withoutADesktopFileTheAppIdIsTriedAsIconName() throws {
        let fixture = try AppFixture()
        try fixture.hicolor(in: fixture.usrShare + "/icons")
        let icon = try fixture.icon(fixture.usrShare + "/icons/hicolor/scalable/apps/spotifyd.svg")
        #expect(fixture.resolver().resolve(PlayerClues(busName: Self.mpris + "spotifyd")).appIcon == icon)
    }

    // MARK: Sandboxes

    @Test func flatpakInfoInTheProcessRootGivesTheFlatpakId() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.flatpakSystem, "io.mpv.Mpv.desktop", "Name=mpv (Flatpak)")
        try fixture.write(fixture.proc + "/4242/root/.flatpak-info", "[Application]\nname=io.mpv.Mpv\nruntime=runtime/org.freedesktop.Platform\n")
        let found = fixture.resolver().resolve(PlayerClues(busName: Self.mpris + "mpv", desktopEntry: "mpv", process: FakeProcess.connected(4242)))
        #expect(found == AppIdentity(appID: "io.mpv.Mpv", appName: "mpv (Flatpak)", appIcon: nil, source: .flatpak))
    }

    @Test func aFlatpakCgroupGivesTheFlatpakIdWhenTheRootIsUnreadable() throws {
        let fixture = try AppFixture()
        try fixture.write(fixture.proc + "/77/cgroup", "0::/user.slice/user-1000.slice/user@1000.service/app.slice/app-flatpak-com.spotify.Client-123456.scope\n")
        let found = fixture.resolver().resolve(PlayerClues(busName: Self.mpris + "spotify", desktopEntry: "spotify", identity: "Spotify", process: FakeProcess.connected(77)))
        #expect(found == AppIdentity(appID: "com.spotify.Client", appName: "Spotify", appIcon: nil, source: .flatpak))
    }

    @Test func aSnapCgroupGivesTheSnapsDesktopFile() throws {
        let fixture = try AppFixture()
        try fixture.write(fixture.snap + "/applications/spotify_spotify.desktop", "[Desktop Entry]\nType=Application\nName=Spotify (snap)\n")
        try fixture.write(fixture.proc + "/88/cgroup", "0::/user.slice/user-1000.slice/user@1000.service/app.slice/snap.spotify.spotify-3f2a1b2c-1111-2222-3333-444455556666.scope\n")
        try fixture.write(fixture.proc + "/89/cgroup", "0::/user.slice/snap.ncspot.ncspot.0b1c2d3e-1111-2222-3333-444455556666.scope\n")
        let resolver = fixture.resolver()
        let spotify = resolver.resolve(PlayerClues(busName: Self.mpris + "spotify", process: FakeProcess.connected(88)))
        #expect(spotify == AppIdentity(appID: "spotify_spotify", appName: "Spotify (snap)", appIcon: nil, source: .snap))
        #expect(resolver.resolve(PlayerClues(busName: Self.mpris + "ncspot.instance89", process: FakeProcess.connected(89))).appID == "ncspot")
    }

    @Test("issue 17: a browser that has not told its DesktopEntry is found by its executable's name")
    func theExecutableNameIsALastClue() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "firefox-esr.desktop", "Name=Firefox ESR", "StartupWMClass=firefox-esr")
        try fixture.process(31, executable: "/usr/lib/firefox-esr/firefox-esr")
        try fixture.process(32, executable: "/usr/lib/firefox-esr/firefox-esr (deleted)")
        let resolver = fixture.resolver()
        for pid: UInt32 in [31, 32] {
            let found = resolver.resolve(PlayerClues(busName: Self.mpris + "firefox.instance_1_77", process: FakeProcess.connected(pid)))
            #expect(found == AppIdentity(appID: "firefox-esr", appName: "Firefox ESR", appIcon: nil, source: .desktopFileMatch))
        }
        // The player's own word still comes first; without a process the bus name is all there is.
        #expect(resolver.resolve(PlayerClues(busName: Self.mpris + "firefox.instance_1_77", process: FakeProcess.connected(33))).appID == "firefox")
    }

    @Test func anUnconfinedOrVanishedProcessUsesTheOtherRules() throws {
        let fixture = try AppFixture()
        try fixture.write(fixture.proc + "/5/cgroup", "0::/user.slice/user-1000.slice/session-2.scope\n")
        let resolver = fixture.resolver()
        #expect(resolver.resolve(PlayerClues(busName: Self.mpris + "vlc", process: FakeProcess.connected(5))).source == .busName)
        #expect(resolver.resolve(PlayerClues(busName: Self.mpris + "vlc", process: FakeProcess.connected(6))).source == .busName)
    }

    @Test(arguments: [
        ("1:name=systemd:/user.slice/app-flatpak-org.gnome.Rhythmbox3-99.scope\n0::/x", Sandbox.flatpak(appID: "org.gnome.Rhythmbox3")),
        ("0::/app-flatpak-com.example.My-App-7.scope", .flatpak(appID: "com.example.My-App")),
        ("0::/system.slice/snap.mopidy.mopidy.service", .snap(name: "mopidy", app: "mopidy")),
        ("0::/snap.foo.hook.configure-3f2a1b2c-1111-2222-3333-444455556666.scope", nil),
        ("0::/app-flatpak-../../etc-1.scope", nil),
        ("garbage without colons\n::", nil),
    ] as [(String, Sandbox?)])
    func cgroupLinesAreParsedDefensively(text: String, expected: Sandbox?) {
        #expect(Sandbox.fromCgroup(text) == expected)
    }

    // MARK: Apps() support, cache and thread

    @Test func identityForAnAppIdAlone() throws {
        let fixture = try AppFixture()
        try fixture.hicolor(in: fixture.usrShare + "/icons")
        let icon = try fixture.icon(fixture.usrShare + "/icons/hicolor/48x48/apps/vlc.png")
        try fixture.desktopFile(in: fixture.usrShare, "vlc.desktop", "Name=VLC media player", "Icon=vlc")
        let resolver = fixture.resolver()
        #expect(resolver.identity(forAppID: "vlc") == AppIdentity(appID: "vlc", appName: "VLC media player", appIcon: icon, source: .given))
        #expect(resolver.identity(forAppID: "unknown") == AppIdentity(appID: "unknown", appName: nil, appIcon: nil, source: .given))
    }

    @Test func addingADesktopFileInvalidatesTheCache() throws {
        let fixture = try AppFixture()
        try fixture.hicolor(in: fixture.usrShare + "/icons")
        try fixture.desktopFile(in: fixture.usrShare, "other.desktop", "Name=Other")
        let resolver = fixture.resolver()
        let clues = PlayerClues(busName: Self.mpris + "spotify", desktopEntry: "spotify", identity: "Spotify")
        #expect(resolver.resolve(clues).appID == "spotify")
        #expect(resolver.identity(forAppID: "com.spotify.Client").appName == nil)
        try fixture.desktopFile(in: fixture.flatpakSystem, "com.spotify.Client.desktop", "Name=Spotify", "Icon=com.spotify.Client")
        #expect(resolver.resolve(clues).appID == "com.spotify.Client")
        #expect(resolver.identity(forAppID: "com.spotify.Client").appName == "Spotify")
        // A file added in a subfolder, and an icon installed by a package that updates the theme.
        try fixture.desktopFile(in: fixture.usrShare, "kde4/dragon.desktop", "Name=Dragon")
        #expect(resolver.identity(forAppID: "kde4-dragon").appName == "Dragon")
        let icon = try fixture.icon(fixture.flatpakSystem + "/icons/hicolor/scalable/apps/com.spotify.Client.svg")
        try fixture.write(fixture.flatpakSystem + "/icons/hicolor/icon-theme.cache", "")
        #expect(resolver.resolve(clues).appIcon == icon)
    }

    @Test func theAsynchronousFormCompletesOnTheResolversThread() async throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "vlc.desktop", "Name=VLC")
        let resolver = fixture.resolver()
        let caller = pthread_self()
        let results: [(AppIdentity, Bool)] = await withCheckedContinuation { continuation in
            let collected = Mutex<[(AppIdentity, Bool)]>([])
            for name in ["vlc", "vlc.instance1", "mpv"] {
                resolver.resolve(PlayerClues(busName: Self.mpris + name)) { identity in
                    let onCaller = pthread_equal(pthread_self(), caller) != 0
                    let all = collected.withLock { list -> [(AppIdentity, Bool)]? in
                        list.append((identity, onCaller))
                        return list.count == 3 ? list : nil
                    }
                    if let all { continuation.resume(returning: all) }
                }
            }
        }
        #expect(results.map(\.0.appID) == ["vlc", "vlc", "mpv"])
        #expect(results.allSatisfy { !$0.1 })
    }

    @Test func aResolverDroppedWhileItsThreadWorksEndsCleanly() async throws {
        let fixture = try AppFixture()
        var resolver: AppResolver? = fixture.resolver()
        let appID: String = await withCheckedContinuation { continuation in
            resolver?.resolve(PlayerClues(busName: Self.mpris + "vlc")) { continuation.resume(returning: $0.appID) }
            resolver = nil
        }
        #expect(appID == "vlc")
    }

    @Test func playerTextIsBounded() throws {
        let fixture = try AppFixture()
        let long = String(repeating: "x", count: 10_000)
        let found = fixture.resolver().resolve(PlayerClues(busName: Self.mpris + "p", desktopEntry: long, identity: "Line\nbreak" + long))
        #expect(found.appID == "p")
        #expect((found.appName?.utf8.count ?? 0) <= AppResolver.maximumNameBytes && found.appName?.contains("\n") == false)
    }
}
