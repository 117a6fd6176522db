import Localization
import MediaDonationClient
import SwiftGtk

/// "That's not what it was": the dialog that corrects a kept listen's words (issue 34). Its
/// fields are filled with the words kept; Save is unavailable while the title is empty, since a
/// listen keeps a title. "Correct later plays too" keeps the correction as a rule for the app's
/// later listens told with the same words. The client cannot tell whether a listen was corrected, so Restore
/// Original is always offered, and the broker says when there is nothing to restore.
@MainActor
enum CorrectionDialog {
    enum Answer: Sendable {
        case save(ListenWords.Changes, fromNowOn: Bool)
        case restoreOriginal
    }

    /// The accessible names of the dialog's fields, for the person and for tests that drive it.
    static var titleField: String { localized("Title") }
    static var artistsField: String { localized("Artists") }
    static var albumField: String { localized("Album") }
    /// The heading, which names the dialog's window: it leaves the listen's words to the fields,
    /// so tools that find windows by name need no more than plain text.
    static var heading: String { localized("Correct a Listen") }
    static var body: String {
        localized("Your journal and the apps that read your history see the words you save. Restore Original puts back the words first recorded.")
    }

    /// Asks how `listen` should read; `answered` runs only for Save with something changed, or for
    /// Restore Original.
    static func present(over parent: Window, listen: GenericMedia, answered: @escaping @MainActor (Answer) -> Void) {
        let kept = ListenWords(of: listen)
        let dialog = MessageDialog(over: parent, heading: heading, body: body)
        let title = Entry(text: kept.title, placeholder: titleField, activatesDefault: true) { text in
            dialog.setAnswer("save", enabled: text.contains { !$0.isWhitespace })
        }.accessibleLabel(titleField)
        let artists = Entry(text: kept.artists, placeholder: localized("Separate artists with commas"), activatesDefault: true)
            .accessibleLabel(artistsField)
        let laterPlays = CheckButton(localized("Correct later plays too"), isActive: false)
        let album = Entry(text: kept.album, placeholder: localized("No album"), activatesDefault: true).accessibleLabel(albumField)
        dialog.showBeneathText(Box(.vertical, spacing: 6, [
            Label(titleField).styleClass("heading"), title,
            Label(localized("Artists, separated by commas")).styleClass("heading"), artists,
            Label(albumField).styleClass("heading"), album,
            laterPlays,
        ]))
        // Without mnemonics: GTK 4.8 would read a response's underscore into its accessible name.
        dialog.addAnswer("cancel", localized("Cancel"))
        dialog.addAnswer("restore", localized("Restore Original"))
        dialog.addAnswer("save", localized("Save"), style: .suggested)
        dialog.setAnswer("save", enabled: !kept.title.isEmpty)
        dialog.present(cancel: "cancel", byDefault: "save") { answer in
            switch answer {
            case "restore": answered(.restoreOriginal)
            case "save":
                let edited = ListenWords(title: title.text, artists: artists.text, album: album.text)
                // An empty title never leaves the window: Save is unavailable without one.
                guard let changes = try? kept.changes(to: edited, fromNowOn: laterPlays.isActive), !changes.isEmpty else { return }
                answered(.save(changes, fromNowOn: laterPlays.isActive))
            default: break
            }
        }
    }
}

extension CorrectionDialog.Answer {
    var isRestore: Bool {
        if case .restoreOriginal = self { true } else { false }
    }
}
