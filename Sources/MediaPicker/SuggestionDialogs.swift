import Clocks
import Localization
import MediaDonationClient
import SwiftGtk

/// The settings window's dialogs for the daily journaling suggestion (issue 35): when it comes,
/// and which journal app *Write about it* opens.
@MainActor
enum SuggestionDialogs {
    /// The accessible name of the time field.
    static var timeField: String { localized("Time") }
    static var timeHeading: String { localized("Daily Suggestion") }
    static var journalHeading: String { localized("Open Suggestions With") }
    /// The time suggestions come at when turned on without one.
    static let defaultTime = "21:00"

    /// Asks for the time of day, `HH:MM` (Save is unavailable until the field holds one), or to
    /// turn suggestions off (`nil`).
    static func askForTime(over parent: Window, current: String?, answered: @escaping @MainActor (String?) -> Void) {
        let dialog = MessageDialog(over: parent, heading: timeHeading,
                                   body: localized("Once a day at this time, 24-hour, a notification offers a moment of your listening to write about."))
        // TRANSLATORS: the time field's hint: hours and minutes, 24-hour, as the field takes them.
        let field = Entry(text: current ?? defaultTime, placeholder: localized("HH:MM"), activatesDefault: true) { text in
            dialog.setAnswer("save", enabled: TimeOfDayText.isValid(text))
        }.accessibleLabel(timeField)
        dialog.showBeneathText(field)
        dialog.addAnswer("cancel", localized("Cancel"))
        if current != nil { dialog.addAnswer("off", localized("Turn Off")) }
        dialog.addAnswer("save", localized("Save"), style: .suggested)
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
            ? localized("No journal app is installed. A journal app that takes suggestions says so in its desktop file.")
            // TRANSLATORS: "Write about it" is the suggestion notification's button.
            : localized("Write about it opens this app at the suggested moment."))
        dialog.addAnswer("cancel", localized("Cancel"))
        dialog.addAnswer("none", localized("No Journal App"))
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
