// Real web browsers as MPRIS players: Debian's Chromium and Firefox ESR.

import Foundation

/// A browser's own folder (`--user-data-dir`, `--profile`): one run of the browser starts it
/// cold, a second run with the same profile starts warm.
public final class BrowserProfile: Sendable {
    public let directory: TemporaryDirectory

    /// A fresh profile. Firefox reads `user.js` at start: autoplay allowed (its default blocks
    /// audible autoplay), and no first-run pages, telemetry or default-browser question.
    public init() throws {
        directory = try TemporaryDirectory(prefix: "browser-profile")
        try FileManager.default.createDirectory(atPath: directory.appending("home"), withIntermediateDirectories: true)
        try """
        user_pref("media.autoplay.default", 0);
        user_pref("media.autoplay.blocking_policy", 0);
        user_pref("media.hardwaremediakeys.enabled", true);
        user_pref("browser.shell.checkDefaultBrowser", false);
        user_pref("browser.aboutwelcome.enabled", false);
        user_pref("browser.startup.homepage_override.mstone", "ignore");
        user_pref("datareporting.policy.dataSubmissionEnabled", false);
        user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);
        user_pref("app.update.enabled", false);

        """.write(toFile: directory.appending("user.js"), atomically: true, encoding: .utf8)
    }
}

/// One run of a real browser opening one page, on a private bus, playing into a ``PulseAudioSink``.
/// When the last reference goes away, the browser is killed if it still runs.
///
/// Found out by hand (Chromium 156, Firefox ESR 153 on Debian 12):
/// - Chromium runs with `--headless=new` and needs no display; as root only with `--no-sandbox`.
///   `--autoplay-policy=no-user-gesture-required` lets a page play without a click.
/// - Firefox needs a display (``VirtualDisplay``) and a profile whose `user.js` allows autoplay.
/// - Both own their MPRIS name only while a page plays media, and give it up when they exit.
public final class WebBrowser: Sendable {
    public enum Kind: String, Sendable {
        case chromium, firefox

        /// The app id the broker records it as, from Debian's desktop files.
        public var appID: String { self == .chromium ? "chromium" : "firefox-esr" }
    }

    public let kind: Kind
    public let process: ChildProcess
    private let bus: PrivateBus
    /// Kept while the browser runs: its folder goes with the last reference.
    private let profile: BrowserProfile

    private init(kind: Kind, process: ChildProcess, bus: PrivateBus, profile: BrowserProfile) {
        self.kind = kind
        self.process = process
        self.bus = bus
        self.profile = profile
    }

    /// Chromium, headless, opening `url`.
    public static func chromium(opening url: String, profile: BrowserProfile, bus: PrivateBus, sound: PulseAudioSink) throws -> WebBrowser {
        let process = try ChildProcess.launch(
            "chromium",
            arguments: [
                "--headless=new", "--no-sandbox", "--autoplay-policy=no-user-gesture-required",
                "--user-data-dir=\(profile.directory.appending("chromium"))", "--no-first-run", "--no-default-browser-check",
                "--disable-background-networking", "--disable-component-update", url,
            ],
            environment: environment(profile, bus, sound))
        return WebBrowser(kind: .chromium, process: process, bus: bus, profile: profile)
    }

    /// Firefox ESR on `display`, opening `url` in `profile`.
    public static func firefox(
        opening url: String, profile: BrowserProfile, bus: PrivateBus, sound: PulseAudioSink, display: VirtualDisplay
    ) throws -> WebBrowser {
        let process = try ChildProcess.launch(
            "firefox-esr", arguments: ["--no-remote", "--new-instance", "--profile", profile.directory.path, url],
            environment: environment(profile, bus, sound).merging(display.environment) { $1 }
                .merging(["MOZ_CRASHREPORTER_DISABLE": "1"]) { $1 })
        return WebBrowser(kind: .firefox, process: process, bus: bus, profile: profile)
    }

    /// The session bus, the sound server, and a home of the profile's own so that nothing is
    /// read from or written to the real user's folders.
    private static func environment(_ profile: BrowserProfile, _ bus: PrivateBus, _ sound: PulseAudioSink) -> [String: String] {
        let home = profile.directory.appending("home")
        return bus.environment.merging(sound.environment) { $1 }.merging([
            "HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_CACHE_HOME": home + "/.cache",
            "XDG_DATA_HOME": home + "/.local/share",
        ]) { $1 }
    }

    /// The MPRIS name prefix this browser owns names under.
    public var busNamePrefix: String { "org.mpris.MediaPlayer2.\(kind.rawValue)." }

    /// The MPRIS names on the bus from a browser of this kind.
    public func busNames() throws -> [String] {
        try bus.listNames().filter { $0.hasPrefix(busNamePrefix) }
    }

    /// Waits until the browser owns an MPRIS name (a page plays) and returns it.
    @discardableResult
    public func waitForBusName(timeout: Duration = .seconds(30)) throws -> String {
        var name: String?
        try waitUntil("\(kind) owns an MPRIS name", timeout: timeout) {
            guard process.isRunning else { throw TestSupportError("\(kind) ended\n\(process.transcript)") }
            name = try busNames().first
            return name != nil
        }
        return name!
    }

    /// Waits until the browser owns no MPRIS name.
    public func waitUntilNoBusName(timeout: Duration = .seconds(30)) throws {
        try waitUntil("\(kind) owns no MPRIS name", timeout: timeout) { try busNames().isEmpty }
    }

    /// Quits the browser as a window manager would (SIGTERM), and waits until it has gone.
    public func quit(timeout: Duration = .seconds(20)) throws {
        process.signal(SIGTERM)
        _ = try process.waitForExit(timeout: timeout)
    }
}
