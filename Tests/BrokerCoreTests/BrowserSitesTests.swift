import Testing
@testable import BrokerCore

/// What a site is (issue 34, §4): the host of a browser's page, and nothing more of its address.
@Suite("Sites: the host of a browser's page, and the opt-outs that cover it")
struct BrowserSitesTests {
    @Test("a site is the page's host, lowercased, without www., port, user, path, query or fragment")
    func hostOnly() {
        #expect(BrowserSites.site(ofPage: "https://www.YouTube.com/watch?v=abc&list=secret#t=1") == "youtube.com")
        #expect(BrowserSites.site(ofPage: "http://user:password@bandcamp.com:8080/album/x") == "bandcamp.com")
        #expect(BrowserSites.site(ofPage: "https://music.youtube.com") == "music.youtube.com")
        #expect(BrowserSites.site(ofPage: "https://[::1]:8000/page") == "[::1]")
        #expect(BrowserSites.site(ofPage: "HTTPS://EXAMPLE.ORG./") == "example.org")
    }

    @Test("no site from a file, data or other URL, a missing one, or a host that is no host name")
    func noSite() {
        for url in ["file:///home/me/Music/a.ogg", "data:audio/ogg;base64,AAAA", "ftp://example.com/a", "", "https://",
                    "https://exa mple.com/", "https://a..b/", "https://bad%2Fhost/"] {
            #expect(BrowserSites.site(ofPage: url) == nil, "\(url)")
        }
        #expect(BrowserSites.site(ofPage: nil) == nil)
    }

    @Test("an opted-out site covers its subdomains, not a lookalike")
    func coverage() {
        let settings = PrivacySettings(optedOutSites: ["youtube.com"])
        #expect(settings.isOptedOut(site: "youtube.com") && settings.isOptedOut(site: "music.youtube.com"))
        #expect(!settings.isOptedOut(site: "notyoutube.com") && !settings.isOptedOut(site: "youtube.com.example"))
        #expect(!settings.isOptedOut(site: nil))
        #expect(!settings.allows("firefox", site: "m.youtube.com") && settings.allows("firefox", site: "bandcamp.com"))
    }

    @Test("only browsers have sites")
    func browsers() {
        for browser in ["firefox", "firefox-esr", "org.mozilla.firefox", "chromium", "org.chromium.Chromium", "google-chrome", "brave-browser"] {
            #expect(BrowserSites.isBrowser(browser), "\(browser)")
        }
        #expect(!BrowserSites.isBrowser("mpv") && !BrowserSites.isBrowser("vlc") && !BrowserSites.isBrowser("spotify"))
    }

    @Test("opted-out sites are stored and read back; a stored line that is no host is refused")
    func stored() throws {
        let settings = PrivacySettings(optedOutSites: ["youtube.com", "example.org"])
        #expect(settings.encoded.contains("opt_out_site=example.org\nopt_out_site=youtube.com\n"))
        #expect(try PrivacySettings(decoding: settings.encoded) == settings)
        #expect(throws: PrivacySettings.DecodingError.self) { try PrivacySettings(decoding: "opt_out_site=a b\n") }
        #expect(SettingsChange(before: PrivacySettings(), after: settings).changedProperties == ["OptedOutSites"])
    }
}
