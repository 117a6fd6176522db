import Foundation
import Testing
import TestSupport
@testable import MediaBroker
@testable import BrokerCore

/// The resolver on a desktop-sized installation: the right app among hundreds, and the same
/// answer again from its cache. (What a lookup costs is not a test's business.)
@Suite("AppResolver: a desktop-sized installation")
struct AppResolverScaleTests {
    /// 400 desktop files in 3 directories, the real hicolor `index.theme` (hundreds of
    /// directories) with 400 icons, and a user theme inheriting from it.
    private func desktopSized() throws -> AppFixture {
        let fixture = try AppFixture()
        let icons = fixture.usrShare + "/icons"
        let hicolorIndex = try String(contentsOfFile: "/usr/share/icons/hicolor/index.theme", encoding: .utf8)
        try fixture.write(icons + "/hicolor/index.theme", hicolorIndex)
        try fixture.theme("Fancy", in: icons, inherits: "hicolor", directories: [("apps/48", "Size=48"), ("apps/scalable", "Size=64\nType=Scalable")])
        try fixture.setIconTheme("Fancy")
        let sizes = ["16x16", "32x32", "48x48", "128x128", "256x256", "scalable"]
        for number in 0..<400 {
            let dataDir = [fixture.usrShare, fixture.dataHome, fixture.flatpakSystem][number % 3]
            try fixture.desktopFile(in: dataDir, "org.example.App\(number).desktop", "Name=App \(number)", "Icon=org.example.App\(number)")
            let size = sizes[number % sizes.count]
            try fixture.icon(icons + "/hicolor/\(size)/apps/org.example.App\(number)." + (size == "scalable" ? "svg" : "png"))
        }
        return fixture
    }

    @Test func findsTheAppByItsNameAmongHundredsWithItsIcon() throws {
        let fixture = try desktopSized()
        let resolver = fixture.resolver()
        let clues = PlayerClues(busName: "org.mpris.MediaPlayer2.app7", identity: "App 7", process: ConnectedProcess(processID: UInt32(getpid()), startedBy: BootClock.now()))
        let found = resolver.resolve(clues)
        #expect(found.appID == "org.example.App7")
        #expect(found.appName == "App 7")
        #expect(found.appIcon == fixture.usrShare + "/icons/hicolor/32x32/apps/org.example.App7.png")
        #expect(resolver.resolve(clues) == found, "the cached answer is the answer")
        var withoutPID = clues
        withoutPID.process = nil
        #expect(resolver.resolve(withoutPID) == found)
        #expect(resolver.identity(forAppID: "org.example.App398").appName == "App 398")
    }
}
