import Clocks
import MediaDonationClient
import SwiftGtk

/// The settings window's dialogs for the daily journaling suggestion (issue 35): when it comes,
/// and which journal app *Write about it* opens.
@MainActor
enum SuggestionDialogs {
    /// The accessible name of the time field.
    static let timeField = "Time"
    static let timeHeading = "Daily Suggestion"
    static let journalHeading = "Open Suggestions With"
    /// The time suggestions come at when turned on without one.
    static let defaultTime = "21:00"

    /// Asks for the time of day, `HH:MM` (Save is unavailable until the field holds one), or to
    /// turn suggestions off (`nil`).
    static func askForTime(over parent: Window, current: String?, answered: @escaping @MainActor (String?) -> Void) {
        let dialog = MessageDialog(over: parent, heading: timeHeading,
                                   body: "Once a day at this time, 24-hour, a notification offers a moment of your listening to write about.")
        let field = Entry(text: current ?? defaultTime, placeholder: "HH:MM", activatesDefault: true) { text in
            dialog.setAnswer("save", enabled: TimeOfDayText.isValid(text))
        }.accessibleLabel(timeField)
        dialog.showBeneathText(field)
        dialog.addAnswer("cancel", "Cancel")
        if current != nil { dialog.addAnswer("off", "Turn Off") }
        dialog.addAnswer("save", "Save", style: .suggested)
        dialog.present(cancel: "cancel", byDefault: "save") { answer in
            if answer == "off" { return answered(nil) }
            guard answer == "save", TimeOfDayText.isValid(field.text) else { return }
            answered(field.text)
        }
    }

    /// Asks which of `apps` suggestions open; `answered` gets its id, or `nil` for none.
    static func chooseJournalApp(over parent: Window, apps: [JournalAppInfo], answered: @escaping @MainActor (String?) -> Void) {
        let usable = apps.filter(\.takesSuggestions)
        let dialog = MessageDialog(over: parent, heading: journalHeading, body: usable.isEmpty
            ? "No journal app is installed. A journal app that takes suggestions says so in its desktop file."
            : "Write about it opens this app at the suggested moment.")
        dialog.addAnswer("cancel", "Cancel")
        dialog.addAnswer("none", "No Journal App")
        for app in usable { dialog.addAnswer("app:" + app.id, app.name) }
        dialog.present(cancel: "cancel") { answer in
            if answer == "none" { return answered(nil) }
            if answer.hasPrefix("app:") { answered(String(answer.dropFirst(4))) }
        }
    }
}

/// A time of day as the person types it and the broker takes it: `HH:MM`, 24-hour. Pure.
enum TimeOfDayText {
    static func isValid(_ text: String) -> Bool {
        text.count(where: { $0 == ":" }) == 1 && TimeOfDay(parsing: text) != nil
    }
}
