import SwiftGtk

/// Keeps what *Copy* put on the clipboard pasteable after the picker's window closes (issue 35).
///
/// A program's clipboard lives only while the program runs, so the picker first asks the desktop's
/// clipboard manager to keep a copy (X11's `CLIPBOARD_MANAGER`, as GTK offers it) and, where none
/// takes it — no manager, or Wayland, where GTK cannot hand over — goes on serving the text itself
/// with no window open, until another program takes the clipboard or ``defaultSeconds`` pass
/// (`MEDIA_BROKER_COPY_SECONDS` sets another bound). Then it exits.
@MainActor
final class ClipboardHandOff {
    static let defaultSeconds: UInt32 = 600
    static let secondsKey = "MEDIA_BROKER_COPY_SECONDS"

    private let application: Application
    private let log: (String) -> Void
    private var served = true

    private init(application: Application, log: @escaping (String) -> Void) {
        self.application = application
        self.log = log
    }

    /// The bound from the environment, or the default; a value that is not a whole number of
    /// seconds from 1 to a day is the default.
    static func seconds(environment: [String: String]) -> UInt32 {
        guard let value = environment[secondsKey].flatMap({ UInt32($0) }), (1...86_400).contains(value) else { return defaultSeconds }
        return value
    }

    /// Puts `text` on the clipboard and keeps `application` running until it is handed off.
    /// `false` when there is no clipboard (GTK has no display).
    static func copy(_ text: String, application: Application, seconds: UInt32, log: @escaping (String) -> Void) -> Bool {
        guard let clipboard = Clipboard.current else { return false }
        clipboard.set(text)
        application.hold()
        let handOff = ClipboardHandOff(application: application, log: log)
        clipboard.onChange { if !clipboard.isLocal { handOff.stop("another program took the clipboard") } }
        clipboard.store { stored in if stored { handOff.stop("the clipboard manager keeps it") } }
        MainThread.after(seconds: seconds) { handOff.stop("\(seconds) seconds passed") }
        return true
    }

    private func stop(_ why: String) {
        guard served else { return }
        served = false
        log("the copied listening is no longer served by the picker: \(why)")
        application.release()
    }
}
