/// Text of an app's or a player's in a notification's body, which servers render as markup
/// (GNOME, KDE, dunst and mako do): escaped as the Desktop Notifications Specification asks of
/// plain text, so an app's `reason` cannot put bold text or a link into a question that comes
/// from the broker. The summary is plain text by the specification and stays as it is.
package enum NotificationMarkup {
    /// `text` with `&`, `<` and `>` escaped (`&amp;`, `&lt;`, `&gt;`).
    package static func escaped(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
