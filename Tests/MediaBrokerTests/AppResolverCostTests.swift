import Foundation
import Testing
import TestSupport
@testable import MediaBroker

/// How long lookups take — printed, not asserted (timings on a shared 2-core machine vary).
@Suite("AppResolver: lookup cost", .serialized)
struct AppResolverCostTests {
    private static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    private static func report(_ label: String, _ resolver: AppResolver, _ clues: PlayerClues) {
        let clock = ContinuousClock()
        let first = clock.measure { _ = resolver.resolve(clues) }
        let rounds = 2_000
        let cached = clock.measure { for _ in 0..<rounds { _ = resolver.resolve(clues) } }
        var withoutPID = clues
        withoutPID.processID = nil
        let cachedWithoutPID = clock.measure { for _ in 0..<rounds { _ = resolver.resolve(withoutPID) } }
        let byID = clock.measure { for _ in 0..<rounds { _ = resolver.identity(forAppID: "mpv") } }
        print("""
            \(label): first lookup \(Int(microseconds(first))) µs; cached lookup \
            \(String(format: "%.1f", microseconds(cached) / Double(rounds))) µs with a pid, \
            \(String(format: "%.1f", microseconds(cachedWithoutPID) / Double(rounds))) µs without; \
            cached identity(forAppID:) \(String(format: "%.1f", microseconds(byID) / Double(rounds))) µs
            """)
    }

    @Test func onThisMachine() {
        let resolver = AppResolver(environment: ProcessInfo.processInfo.environment)
        Self.report(
            "this machine", resolver,
            PlayerClues(busName: "org.mpris.MediaPlayer2.mpv", desktopEntry: "mpv", identity: "mpv", processID: UInt32(getpid())))
    }

    /// A desktop-sized fixture: 400 desktop files in 3 directories, the real hicolor `index.theme`
    /// (hundreds of directories) with 400 icons, and a user theme inheriting from it.
    @Test func onADesktopSizedFixture() throws {
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
        try fixture.desktopFile(in: fixture.usrShare, "mpv.desktop", "Name=mpv", "Icon=mpv")
        try fixture.icon(icons + "/hicolor/128x128/apps/mpv.png")
        Self.report("desktop-sized fixture", fixture.resolver(), PlayerClues(busName: "org.mpris.MediaPlayer2.app7", identity: "App 7", processID: UInt32(getpid())))
    }
}
