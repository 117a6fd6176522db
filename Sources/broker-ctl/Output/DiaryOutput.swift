/// Where a ``Diary`` goes: standard output in the format asked for. An empty one prints nothing
/// there, so `>> note.md` adds nothing to the note, and says so on standard error for the person
/// at the terminal; the command still succeeds, as a quiet day is no failure.
enum DiaryOutput {
    static func write(_ diary: Diary, as format: OutputStyle.Format, ifEmpty emptyMessage: String, in environment: RunEnvironment) {
        guard !diary.isEmpty else {
            environment.standardError.write(emptyMessage)
            return
        }
        environment.standardOutput.write(format == .markdown ? MarkdownOutput.document(diary) : PlainTextOutput.document(diary))
    }
}
