import Localization

/// The "are you sure?" before broker-ctl deletes anything.
enum Confirmation {
    /// Returns when deleting may go ahead: `--yes` was given, or a person at the terminal answered
    /// yes to `question` (asked on standard error, so standard output keeps only results).
    ///
    /// - Throws: a ``UsageError`` of `subcommand` when standard input is not a terminal and there
    ///   is no `--yes` (a script must say so explicitly; exit 64, before anything is touched);
    ///   ``CommandFailure`` when the person answers anything else or input ends (exit 1).
    static func obtain(
        _ question: String, assumeYes: Bool, subcommand: String, in environment: RunEnvironment
    ) throws {
        if assumeYes { return }
        guard environment.standardInputIsTerminal else {
            throw UsageError(
                localized("standard input is not a terminal, so nobody can confirm; pass --yes to delete without asking"),
                subcommand: subcommand)
        }
        // TRANSLATORS: the answers the question offers: your word for yes by its first letter, then N for no, in capitals as the default. Translate the answers "y" and "yes" to match.
        environment.standardError.write(question + " " + localizedInContext("confirmation", "[y/N]") + " ")
        let answer = environment.readLine()
        guard let answer, isYes(answer) else {
            // After end of input the cursor is still on the prompt line.
            if answer == nil { environment.standardError.write("\n") }
            throw CommandFailure(localized("not confirmed; nothing was deleted"))
        }
    }

    /// `y` or `yes`, in any case, or the person's language's own (`j`/`ja`, `o`/`oui`): English
    /// works everywhere, as people type it out of habit.
    static func isYes(_ answer: String) -> Bool {
        let word = answer.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
        let yes = ["y", "yes", localizedInContext("confirmation answer", "y").lowercased(),
                   localizedInContext("confirmation answer", "yes").lowercased()]
        return yes.contains(word)
    }
}
