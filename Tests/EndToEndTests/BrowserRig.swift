import Foundation
import MediaDonationClient
import TestSupport

/// Everything a real-browser test needs (issue 17 §5): a private bus with a broker on it, a sound
/// server playing into nothing, and a web server with the pages and media the tests open.
final class BrowserRig: Sendable {
    let bus: PrivateBus
    let broker: RunningBroker
    let client: MediaBrokerClient
    let sound: PulseAudioSink
    let site: TemporaryDirectory
    let server: HTTPRangeServer
    /// Only Firefox needs one; made on first use.
    let display: VirtualDisplay?

    /// The length of the short tracks, and of `long.ogg`. Chromium gives media shorter than 5 s no
    /// media session (and so no MPRIS player): a "short" track is 6 s.
    static let trackSeconds = 6.0
    static let longTrackSeconds = 12.0

    /// `rangeRequests: false` serves media whole, as a server without range support does.
    init(firefox: Bool = false, rangeRequests: Bool = true, brokerArguments: [String] = ["--min-listen", "2"]) throws {
        bus = try PrivateBus.start()
        broker = try RunningBroker(bus: bus, arguments: brokerArguments)
        client = try broker.client()
        sound = try PulseAudioSink()
        site = try TemporaryDirectory(prefix: "browser-site")
        try Self.writeSite(in: site)
        server = try HTTPRangeServer(serving: site.path, rangeRequests: rangeRequests)
        display = firefox ? try VirtualDisplay() : nil
    }

    /// Opens `page` in a new run of `kind` with `profile` (a fresh one unless given); `host`: the
    /// name the page's address gives the web server (`127.0.0.1` unless given: `localhost` is the
    /// same server as another site).
    func open(_ page: String, in kind: WebBrowser.Kind, profile: BrowserProfile? = nil, host: String? = nil) throws -> WebBrowser {
        let profile = try profile ?? BrowserProfile()
        var url = server.url(page)
        if let host { url = url.replacingOccurrences(of: "//127.0.0.1:", with: "//\(host):") }
        switch kind {
        case .chromium:
            return try WebBrowser.chromium(opening: url, profile: profile, bus: bus, sound: sound)
        case .firefox:
            guard let display else { throw TestSupportError("this rig was made without a display for Firefox") }
            return try WebBrowser.firefox(opening: url, profile: profile, bus: bus, sound: sound, display: display)
        }
    }

    /// Every asset in the history, oldest first.
    func assets() async throws -> [GenericMedia] {
        try await broker.assets(client).reversed()
    }

    /// Waits until the history holds `count` assets and returns them, oldest first.
    func waitForAssets(_ count: Int, timeout: Duration = .seconds(30)) async throws -> [GenericMedia] {
        var assets: [GenericMedia] = []
        try await waitUntil("the history holds \(count) assets", timeout: timeout) {
            assets = try await self.assets()
            return assets.count >= count
        }
        return assets
    }

    /// Waits until the broker sees `browser`'s player in `status`.
    func waitUntilBrokerSees(_ browser: WebBrowser, as status: String, timeout: Duration = .seconds(30)) async throws {
        let prefix = browser.busNamePrefix
        try await waitUntil("the broker sees \(browser.kind) \(status)", timeout: timeout) {
            try await self.client.status().players.contains { $0.busName.hasPrefix(prefix) && $0.playbackStatus == status }
        }
    }

    /// Waits until the broker shows `browser`'s listen as playing and heard for `heard`.
    func waitUntilHeard(_ browser: WebBrowser, playingFor heard: Duration, timeout: Duration = .seconds(40)) async throws {
        try await waitUntil("the broker has heard \(browser.kind) play for \(heard)", timeout: timeout) {
            try await self.client.nowPlaying().contains { $0.appID == browser.kind.appID && ($0.listened ?? .zero) >= heard }
        }
    }

    /// Quits `browser` and waits until the broker follows no player: every listen it made has
    /// ended and is queued ahead of any later query.
    func quit(_ browser: WebBrowser) async throws {
        try browser.quit()
        try await broker.waitUntilNoPlayers(client)
    }

    /// The assets with their times, and the broker's log: what a failed expectation about a real
    /// browser needs to be understood.
    func describe(_ assets: [GenericMedia]) -> String {
        let listed = assets.map {
            "\($0.title ?? "-") started \($0.date.timeIntervalSince1970) ended \($0.ended?.timeIntervalSince1970 ?? 0) "
                + "listened \($0.listened.map { "\($0)" } ?? "-") length \($0.length.map { "\($0)" } ?? "-")"
        }
        return listed.joined(separator: "\n") + "\n--- broker log ---\n" + broker.process.standardError
    }

    /// Rows in the history file itself, whatever `RecentMedia` would show.
    func storedRows() throws -> Int {
        let result = try ChildProcess.run("/usr/bin/sqlite3", arguments: [broker.databasePath, "SELECT count(*) FROM assets;"])
        guard result.status.isSuccess, let count = Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestSupportError("sqlite3 failed: \(result.standardError)")
        }
        return count
    }

    // MARK: The site

    /// The pages: each plays one thing the way real sites do.
    static let pages: [String: String] = [
        // A page that describes its media with the Media Session API.
        "session.html": page(title: "Session Page", body: #"<audio id="a" src="a.ogg" autoplay></audio>"#, script: """
            navigator.mediaSession.metadata = new MediaMetadata({title: "Browser Song", artist: "Browser Artist", album: "Browser Album"});
            """),
        // No <title>, no Media Session: Chromium announces the address, Firefox a placeholder.
        "notitle.html": #"<!doctype html><html><body><audio src="a.ogg" autoplay></audio></body></html>"#,
        "video.html": page(title: "Video Page", body: #"<video src="v.webm" autoplay></video>"#, script: """
            navigator.mediaSession.metadata = new MediaMetadata({title: "Browser Video", artist: "Video Artist"});
            """),
        // A, B, A: one element, a new source and new metadata when each track ends.
        "playlist.html": page(title: "Playlist", body: #"<audio id="a" autoplay></audio>"#, script: """
            const tracks = [["a.ogg", "Track A"], ["b.ogg", "Track B"], ["a.ogg", "Track A"]];
            const audio = document.getElementById("a");
            let next = 0;
            function playNext() {
              if (next >= tracks.length) return;
              const [source, title] = tracks[next++];
              navigator.mediaSession.metadata = new MediaMetadata({title: title, artist: "Playlist Artist", album: "Playlist Album"});
              audio.src = source;
              audio.play();
            }
            audio.addEventListener("ended", playNext);
            playNext();
            """),
        "long.html": page(title: "Long Page", body: #"<audio src="long.ogg" autoplay></audio>"#, script: """
            navigator.mediaSession.metadata = new MediaMetadata({title: "Long Song", artist: "Browser Artist", album: "Browser Album"});
            """),
        // Pauses one second into the track, for good.
        "pause.html": page(title: "Pause Page", body: #"<audio id="a" src="long.ogg" autoplay></audio>"#, script: """
            navigator.mediaSession.metadata = new MediaMetadata({title: "Paused Early", artist: "Browser Artist"});
            const audio = document.getElementById("a");
            audio.addEventListener("playing", () => setTimeout(() => audio.pause(), 1000), {once: true});
            """),
    ]

    static func page(title: String, body: String, script: String) -> String {
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>\(title)</title></head><body>\(body)<script>\(script)</script></body></html>"
    }

    /// The pages, two short tones, a long one and a short video with sound.
    static func writeSite(in site: TemporaryDirectory) throws {
        for (name, html) in pages { try html.write(toFile: site.appending(name), atomically: true, encoding: .utf8) }
        try tone(site.appending("a.ogg"), seconds: trackSeconds, frequency: 440)
        try tone(site.appending("b.ogg"), seconds: trackSeconds, frequency: 550)
        try tone(site.appending("long.ogg"), seconds: longTrackSeconds, frequency: 660)
        let video = try ChildProcess.run("ffmpeg", arguments: [
            "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-f", "lavfi",
            "-i", "sine=frequency=330", "-t", String(trackSeconds), "-c:v", "libvpx", "-b:v", "100k", "-c:a", "libvorbis",
            site.appending("v.webm"),
        ])
        guard video.status.isSuccess else { throw TestSupportError("ffmpeg could not write the video: \(video.standardError)") }
    }

    private static func tone(_ path: String, seconds: Double, frequency: Int) throws {
        let result = try ChildProcess.run("sox", arguments: [
            "--no-show-progress", "--null", "--rate", "44100", "--channels", "2", path,
            "synth", String(seconds), "sine", String(frequency), "vol", "0.1",
        ])
        guard result.status.isSuccess else { throw TestSupportError("sox could not write \(path): \(result.standardError)") }
    }
}
