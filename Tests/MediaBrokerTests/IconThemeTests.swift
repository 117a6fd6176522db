import Foundation
import Testing
@testable import MediaBroker
@testable import BrokerCore

@Suite("Icons: themes, inheritance, sizes and fallbacks")
struct IconThemeTests {
    /// A user theme `Fancy` (inherits `Base`) with fixed, scalable and threshold directories, and
    /// a `hicolor`, all under `/usr/share/icons` of the fixture.
    private func themed() throws -> (AppFixture, icons: String) {
        let fixture = try AppFixture()
        let icons = fixture.usrShare + "/icons"
        try fixture.hicolor(in: icons)
        try fixture.theme("Fancy", in: icons, inherits: "Base", directories: [
            ("apps/32", "Size=32\nType=Fixed"), ("apps/48", "Size=48\nType=Threshold\nThreshold=4"),
            ("apps/64", "Size=64\nType=Fixed"), ("apps/256", "Size=256\nType=Fixed"),
            ("apps/scalable", "Size=64\nType=Scalable\nMinSize=16\nMaxSize=256"),
        ], scaled: [("apps/64@2", "Size=64\nScale=2\nType=Fixed")])
        try fixture.theme("Base", in: icons, inherits: "hicolor", directories: [("48x48/apps", "Size=48")])
        try fixture.setIconTheme("Fancy")
        return (fixture, icons)
    }

    @Test func theUsersThemeAndItsParentsAreSearchedThenHicolor() throws {
        let (fixture, icons) = try themed()
        let resolver = fixture.resolver()
        #expect(resolver.iconThemeChain == ["Fancy", "Base", "hicolor"])
        let inParent = try fixture.icon(icons + "/Base/48x48/apps/parent-only.png")
        try fixture.icon(icons + "/hicolor/scalable/apps/parent-only.svg")
        let inHicolor = try fixture.icon(icons + "/hicolor/scalable/apps/hicolor-only.svg")
        #expect(resolver.iconPath(forIcon: "parent-only") == inParent)
        #expect(resolver.iconPath(forIcon: "hicolor-only") == inHicolor)
    }

    @Test func anSVGIsPreferredOverAnyPNG() throws {
        let (fixture, icons) = try themed()
        for size in ["32", "64", "256", "64@2"] { try fixture.icon(icons + "/Fancy/apps/\(size)/player.png") }
        let svg = try fixture.icon(icons + "/Fancy/apps/scalable/player.svg")
        #expect(fixture.resolver().iconPath(forIcon: "player") == svg)
    }

    @Test func anSVGInAScalableDirectoryBeatsOneInAFixedDirectory() throws {
        let (fixture, icons) = try themed()
        try fixture.icon(icons + "/Fancy/apps/32/player.svg")
        let scalable = try fixture.icon(icons + "/Fancy/apps/scalable/player.svg")
        #expect(fixture.resolver().iconPath(forIcon: "player") == scalable)
    }

    @Test func withoutSVGTheLargestPNGOfAtLeast128Pixels() throws {
        let (fixture, icons) = try themed()
        for size in ["32", "64", "64@2"] { try fixture.icon(icons + "/Fancy/apps/\(size)/player.png") }
        let scaled = icons + "/Fancy/apps/64@2/player.png"
        #expect(fixture.resolver().iconPath(forIcon: "player") == scaled)
        let large = try fixture.icon(icons + "/Fancy/apps/256/player.png")
        #expect(fixture.resolver().iconPath(forIcon: "player") == large)
    }

    @Test func withOnlySmallPNGsTheNearestSize() throws {
        let (fixture, icons) = try themed()
        try fixture.icon(icons + "/Fancy/apps/32/player.png")
        let threshold = try fixture.icon(icons + "/Fancy/apps/48/player.png")
        // 48 ± 4 reaches 52: distance 76, against 96 for the fixed 32.
        #expect(fixture.resolver().iconPath(forIcon: "player") == threshold)
        let fixed = try fixture.icon(icons + "/Fancy/apps/64/player.png")
        #expect(fixture.resolver().iconPath(forIcon: "player") == fixed)
    }

    @Test func aChildThemeWinsEvenWithOnlyAPNG() throws {
        let (fixture, icons) = try themed()
        let png = try fixture.icon(icons + "/Fancy/apps/32/player.png")
        try fixture.icon(icons + "/hicolor/scalable/apps/player.svg")
        #expect(fixture.resolver().iconPath(forIcon: "player") == png)
    }

    @Test func hicolorIsTheDefaultTheme() throws {
        let fixture = try AppFixture()
        try fixture.hicolor(in: fixture.usrShare + "/icons")
        try fixture.icon(fixture.usrShare + "/icons/hicolor/48x48/apps/player.png")
        let large = try fixture.icon(fixture.usrShare + "/icons/hicolor/128x128/apps/player.png")
        let resolver = fixture.resolver()
        #expect(resolver.iconThemeChain == ["hicolor"])
        #expect(resolver.iconPath(forIcon: "player") == large)
    }

    @Test func themeDirectoriesAreMergedAcrossIconRoots() throws {
        let fixture = try AppFixture()
        try fixture.hicolor(in: fixture.usrShare + "/icons")
        try fixture.icon(fixture.usrShare + "/icons/hicolor/48x48/apps/player.png")
        let user = try fixture.icon(fixture.home + "/.icons/hicolor/256x256/apps/player.png")
        let flatpak = try fixture.icon(fixture.flatpakUser + "/icons/hicolor/128x128/apps/org.example.App.png")
        let resolver = fixture.resolver()
        #expect(resolver.iconPath(forIcon: "player") == user)
        #expect(resolver.iconPath(forIcon: "org.example.App") == flatpak)
    }

    @Test func unthemedIconsAndPixmapsComeLastAndXPMIsNeverUsed() throws {
        let fixture = try AppFixture()
        try fixture.hicolor(in: fixture.usrShare + "/icons")
        let pixmap = try fixture.icon(fixture.pixmaps + "/oldplayer.png")
        try fixture.icon(fixture.pixmaps + "/xpmonly.xpm")
        let unthemed = try fixture.icon(fixture.usrShare + "/icons/loose.svg")
        try fixture.icon(fixture.pixmaps + "/loose.png")
        let resolver = fixture.resolver()
        #expect(resolver.iconPath(forIcon: "oldplayer") == pixmap)
        #expect(resolver.iconPath(forIcon: "oldplayer.png") == pixmap)
        #expect(resolver.iconPath(forIcon: "xpmonly") == nil)
        #expect(resolver.iconPath(forIcon: "loose") == unthemed)
    }

    @Test func anAbsoluteIconPathIsUsedAsItIsIfItIsAPNGOrSVGThatExists() throws {
        let fixture = try AppFixture()
        let absolute = try fixture.icon(fixture.root + "/opt/player/logo.svg")
        let xpm = try fixture.icon(fixture.root + "/opt/player/logo.xpm")
        let resolver = fixture.resolver()
        #expect(resolver.iconPath(forIcon: absolute) == absolute)
        #expect(resolver.iconPath(forIcon: fixture.root + "/opt/player/missing.png") == nil)
        #expect(resolver.iconPath(forIcon: xpm) == nil)
        #expect(resolver.iconPath(forIcon: fixture.root + "/opt/player") == nil)
        try fixture.desktopFile(in: fixture.usrShare, "player.desktop", "Name=Player", "Icon=" + absolute)
        #expect(resolver.resolve(PlayerClues(busName: "org.mpris.MediaPlayer2.player")).appIcon == absolute)
    }

    @Test func invalidOrMissingNamesFindNothing() throws {
        let fixture = try AppFixture()
        try fixture.hicolor(in: fixture.usrShare + "/icons")
        try fixture.icon(fixture.usrShare + "/icons/hicolor/48x48/apps/player.png")
        let resolver = fixture.resolver()
        for name in ["", "nothing", "apps/player", "../hicolor/48x48/apps/player", ".png"] {
            #expect(resolver.iconPath(forIcon: name) == nil, "\(name)")
        }
    }

    @Test func anInheritanceCycleEnds() throws {
        let fixture = try AppFixture()
        let icons = fixture.usrShare + "/icons"
        try fixture.theme("A", in: icons, inherits: "B,A", directories: [("apps", "Size=48")])
        try fixture.theme("B", in: icons, inherits: "A", directories: [("apps", "Size=48")])
        try fixture.hicolor(in: icons)
        try fixture.setIconTheme("A", gtk: "gtk-4.0")
        let resolver = fixture.resolver()
        #expect(resolver.iconThemeChain == ["A", "B", "hicolor"])
        #expect(resolver.iconPath(forIcon: "nothing") == nil)
    }

    @Test func aMissingOrBadThemeNameFallsBackToHicolor() throws {
        let fixture = try AppFixture()
        try fixture.hicolor(in: fixture.usrShare + "/icons")
        try fixture.setIconTheme("../../etc")
        #expect(fixture.resolver().iconThemeChain == ["hicolor"])
        try fixture.setIconTheme("\"NotInstalled\"")
        #expect(fixture.resolver().iconThemeChain == ["hicolor"])
    }

    @Test func changingTheThemeInvalidatesTheCache() throws {
        let (fixture, icons) = try themed()
        try fixture.setIconTheme("hicolor")
        let hicolor = try fixture.icon(icons + "/hicolor/scalable/apps/player.svg")
        let fancy = try fixture.icon(icons + "/Fancy/apps/32/player.png")
        let resolver = fixture.resolver()
        #expect(resolver.iconPath(forIcon: "player") == hicolor)
        try fixture.setIconTheme("Fancy")
        #expect(resolver.iconPath(forIcon: "player") == fancy)
    }

    @Test func indexThemeParsingIsLenient() throws {
        let text = """
            [Icon Theme]
            Inherits=Parent, hicolor
            Directories=ok,nosize,nogroup,/abs,../up,huge
            [ok]
            Size=24
            Type=Bogus
            [nosize]
            Type=Fixed
            [huge]
            Size=99999999999999999999
            """
        let theme = try #require(IconThemeIndex(name: "T", parsing: Array(text.utf8)))
        #expect(theme.inherits == ["Parent", "hicolor"])
        #expect(theme.directories.map(\.path) == ["ok"])
        #expect(theme.directories.first?.type == .threshold && theme.directories.first?.threshold == 2)
        #expect(IconThemeIndex(name: "T", parsing: Array("[Other]\nSize=1\n".utf8)) == nil)
    }
}
