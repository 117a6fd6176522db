import Testing
@testable import BrokerCore

/// Issue 32, item 4: an app's words reach a notification's body as text, never as markup.
@Suite struct NotificationMarkupTests {
    @Test("&, < and > are escaped as the specification asks of plain text; everything else stays", arguments: [
        ("<b>Bold</b> & <a href=\"https://evil.example\">link</a>", "&lt;b&gt;Bold&lt;/b&gt; &amp; &lt;a href=\"https://evil.example\"&gt;link&lt;/a&gt;"),
        ("Add music to today’s entry", "Add music to today’s entry"),
        ("&amp;", "&amp;amp;"),
        ("", ""),
        ("Café <3 🎵", "Café &lt;3 🎵"),
    ])
    func escapes(_ text: String, _ escaped: String) {
        #expect(NotificationMarkup.escaped(text) == escaped)
    }
}
