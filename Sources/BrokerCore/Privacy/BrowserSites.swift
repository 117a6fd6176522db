import AssetContract

/// Sites in web browsers (issue 34, §4): in a browser the app is the browser, so the page's site is
/// the unit a person keeps in or out ("record Bandcamp, not YouTube"). A site is the host of the
/// page a browser tells (`xesam:url`), lowercased, without a leading `www.`; never its path, query,
/// port or user. Pure.
package enum BrowserSites {
    /// The app ids of web browsers — Firefox and Chromium, their forks and packagings (desktop file,
    /// Flatpak, snap), and the KDE proxy that speaks for browser tabs. Only these have sites.
    package static let browsers: Set<String> = [
        "firefox", "firefox-esr", "org.mozilla.firefox", "firefox_firefox", "librewolf", "io.gitlab.librewolf-community",
        "waterfox", "net.waterfox.waterfox", "floorp", "one.ablaze.floorp", "org.mozilla.Firefox",
        "chromium", "chromium-browser", "org.chromium.Chromium", "chromium_chromium", "google-chrome", "com.google.Chrome",
        "brave-browser", "com.brave.Browser", "microsoft-edge", "com.microsoft.Edge", "vivaldi-stable", "com.vivaldi.Vivaldi",
        "opera", "com.opera.Opera", "io.github.ungoogled_software.ungoogled_chromium", "epiphany", "org.gnome.Epiphany",
        "falkon", "org.kde.falkon", "plasma-browser-integration",
    ]

    package static func isBrowser(_ appID: String) -> Bool { browsers.contains(appID) }

    /// The site of the page at `url`: the host of an `http` or `https` URL; `nil` for any other
    /// URL (a `file:` path says nothing about a site and may say too much about the person).
    package static func site(ofPage url: String?) -> String? {
        guard let url else { return nil }
        let lowered = url.lowercased()
        let rest: Substring
        if lowered.hasPrefix("https://") {
            rest = lowered.dropFirst("https://".count)
        } else if lowered.hasPrefix("http://") {
            rest = lowered.dropFirst("http://".count)
        } else {
            return nil
        }
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        // An IPv6 literal keeps its colons; any other host ends at the port.
        let host = authority.hasPrefix("[") ? authority.prefix { $0 != "]" } + "]" : authority.prefix { $0 != ":" }
        return AssetContract.site(normalizing: host)
    }

    /// Whether the site `site` falls under the opted-out site `optedOut`: the same host, or one of
    /// its subdomains (`youtube.com` covers `m.youtube.com` and `music.youtube.com`).
    package static func site(_ site: String, fallsUnder optedOut: String) -> Bool {
        site == optedOut || site.hasSuffix("." + optedOut)
    }
}
