import Foundation
import Testing
@testable import MediaBroker

@Suite("Desktop files: discovery, ids and precedence")
struct DesktopEntryDiscoveryTests {
    private func index(_ fixture: AppFixture, locale: String? = nil) -> DesktopFileIndex {
        DesktopFileIndex(directories: fixture.paths().applicationDirectories, locale: locale.flatMap(DesktopLocale.init))
    }

    @Test func filesInSubfoldersGetDashedIds() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "kde4/foo.desktop", "Name=Foo")
        try fixture.desktopFile(in: fixture.usrShare, "a/b/c.desktop", "Name=C")
        let index = index(fixture)
        #expect(index.item(forID: "kde4-foo")?.entry.name == "Foo")
        #expect(index.item(forID: "a-b-c")?.entry.name == "C")
        #expect(index.item(forID: "foo") == nil)
    }

    @Test func earlierDirectoriesWinForTheSameId() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "player.desktop", "Name=System")
        try fixture.desktopFile(in: fixture.usrLocalShare, "player.desktop", "Name=Local")
        try fixture.desktopFile(in: fixture.flatpakSystem, "player.desktop", "Name=Flatpak")
        #expect(index(fixture).item(forID: "player")?.entry.name == "Local")
        try fixture.desktopFile(in: fixture.dataHome, "player.desktop", "Name=User")
        #expect(index(fixture).item(forID: "player")?.entry.name == "User")
    }

    @Test func hiddenTrueHidesTheIdFromLaterDirectories() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "player.desktop", "Name=System")
        try fixture.desktopFile(in: fixture.dataHome, "player.desktop", "Name=Deleted", "Hidden=true")
        #expect(index(fixture).item(forID: "player") == nil)
    }

    @Test func unreadableOrNonApplicationFilesHideNothing() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "player.desktop", "Name=System")
        try fixture.write(fixture.dataHome + "/applications/player.desktop", "[Desktop Action x]\nName=No entry group\n")
        try fixture.write(fixture.usrLocalShare + "/applications/link.desktop", "[Desktop Entry]\nType=Link\nName=Link\n")
        let index = index(fixture)
        #expect(index.item(forID: "player")?.entry.name == "System")
        #expect(index.item(forID: "link") == nil)
    }

    @Test func flatpakExportsAndSnapAreSearched() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.flatpakUser, "org.user.App.desktop", "Name=User Flatpak")
        try fixture.desktopFile(in: fixture.flatpakSystem, "com.spotify.Client.desktop", "Name=Spotify")
        try fixture.write(fixture.snap + "/applications/vlc_vlc.desktop", "[Desktop Entry]\nType=Application\nName=VLC (snap)\n")
        let index = index(fixture)
        #expect(index.item(forID: "org.user.App") != nil)
        #expect(index.item(forID: "com.spotify.Client")?.entry.name == "Spotify")
        #expect(index.item(forID: "vlc_vlc")?.entry.name == "VLC (snap)")
    }

    @Test func oversizedFilesAndOtherNamesAreIgnored() throws {
        let fixture = try AppFixture()
        let big = "[Desktop Entry]\nType=Application\nName=Big\n" + String(repeating: "# padding\n", count: 110_000)
        try fixture.write(fixture.usrShare + "/applications/big.desktop", big)
        try fixture.write(fixture.usrShare + "/applications/notes.txt", "[Desktop Entry]\nName=Text\n")
        try fixture.write(fixture.usrShare + "/applications/.hidden.desktop", "[Desktop Entry]\nName=Dot\n")
        try fixture.write(fixture.usrShare + "/applications/.desktop", "[Desktop Entry]\nName=Empty id\n")
        #expect(index(fixture).items.isEmpty)
    }

    @Test func aSymbolicLinkLoopEnds() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "loop/app.desktop", "Name=App")
        try FileManager.default.createSymbolicLink(
            atPath: fixture.usrShare + "/applications/loop/again", withDestinationPath: fixture.usrShare + "/applications/loop")
        let index = index(fixture)
        #expect(index.item(forID: "loop-app") != nil)
        #expect(index.items.count == DesktopFileIndex.maximumDepth)
    }

    @Test func namesAreLocalizedForTheIndexLocale() throws {
        let fixture = try AppFixture()
        try fixture.desktopFile(in: fixture.usrShare, "player.desktop", "Name=Player", "Name[de]=Abspieler")
        #expect(index(fixture, locale: "de_DE.UTF-8").item(forID: "player")?.entry.localizedName == "Abspieler")
        #expect(index(fixture).item(forID: "player")?.entry.localizedName == "Player")
    }
}
