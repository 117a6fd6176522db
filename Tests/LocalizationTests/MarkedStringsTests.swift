import Foundation
import Testing
import TestSupport

/// Every word a person reads in the windows and the notifications goes through gettext, and each
/// marked string is one xgettext's C parser reads as Swift means it.
///
/// The rule, per line of code (a `//` comment left out): a string literal **for people** — one
/// holding a letter and a space, or a capitalised word ("Cancel"), or ending in "…" or "?" — is
/// flagged where it stands **as a text a person reads**:
/// - the first argument of a widget that shows or speaks it: `Label(`, `Button(`, `CheckButton(`,
///   `.accessibleLabel(`;
/// - an argument labelled `title:`, `subtitle:`, `description:`, `heading:`, `body:`, `summary:`,
///   `label:`, `placeholder:` or `message:` (windows, rows, dialogs, notifications);
/// - a dialog's answer, `addAnswer(ID, "…")`, and a notification's action, `actions: [(ID, "…")`;
/// - `.text = "…"`;
/// - after `??`, `?` or `:` on a line that has one of the above: the other branch of the same text;
/// unless it is the English argument of `localized(`, `localizedPlural(` or `localizedInContext(`.
/// A marked literal, one-line or multi-line, fails when it interpolates (`\(`): a translation
/// cannot hold it (`make pot` reads multi-line ones through scripts/lib/swift-for-xgettext.py).
/// Icon names, style classes, ids and D-Bus names are not for people, and log lines
/// and D-Bus errors are not in text positions.
@Suite struct MarkedStringsTests {
    /// The code whose words people read: the picker and settings windows, the notifications, and
    /// the command lines' messages (broker-ctl's, and the broker's and the picker's `--help`).
    static let scanned = ["Sources/MediaPicker", "Sources/MediaBroker/Notifications", "Sources/MediaBroker/Suggestions/JournalSuggestions.swift",
                          "Sources/broker-ctl", "Sources/broker-ctl/Parsing", "Sources/broker-ctl/Running", "Sources/broker-ctl/Subcommands",
                          "Sources/broker-ctl/Output", "Sources/broker-ctl/Time", "Sources/media-broker", "Sources/media-broker-picker"]
    static let markers = ["localized(", "localizedPlural(", "localizedInContext("]
    /// Widgets, and the command lines' errors and what they write for a person.
    static let textCalls = ["Label(", "Button(", "CheckButton(", ".accessibleLabel(", "UsageError(", "CommandFailure(", "InvalidTimeError(",
                            "standardOutput.write(", "standardError.write("]
    static let textLabels = ["title:", "subtitle:", "description:", "heading:", "body:", "summary:", "label:", "placeholder:", "message:",
                             "help:", "reason:"]

    /// Whether the code before a literal puts it where a person reads it.
    static func isTextPosition(_ before: String, line: String) -> Bool {
        let code = before.trimmingCharacters(in: .whitespaces)
        if textCalls.contains(where: code.hasSuffix) || textLabels.contains(where: code.hasSuffix) || code.hasSuffix(".text =") { return true }
        if code.wholeMatch(of: /.*addAnswer\([^,()]*,/) != nil || code.wholeMatch(of: /.*\(\s*[\w.]+\s*,/) != nil && line.contains("actions:") { return true }
        let branch = code.hasSuffix("??") || code.hasSuffix("?") || code.hasSuffix(":")
        return branch && (textLabels.contains(where: line.contains) || textCalls.contains(where: line.contains))
    }

    struct Finding: Equatable, CustomStringConvertible {
        var file: String
        var line: Int
        var literal: String
        var why: String
        var description: String { "\(file):\(line): \"\(literal)\" \(why)" }
    }

    /// The string literals of one line of Swift, each with the code before it on the line; none
    /// for a comment line, and a `//` comment after code is left out.
    static func literals(in line: String) -> [(text: String, before: String)] {
        var found: [(String, String)] = []
        var code = ""
        var literal: String?
        var escaping = false
        var previous: Character = " "
        for character in line {
            if var text = literal {
                if escaping { escaping = false; text.append(character); literal = text; continue }
                if character == "\\" { escaping = true; text.append(character); literal = text; continue }
                if character == "\"" { found.append((text, code)); literal = nil; code += "\"…\""; continue }
                text.append(character)
                literal = text
            } else {
                if character == "/" && previous == "/" { break }
                if character == "\"" { literal = "" } else { code.append(character) }
            }
            previous = character
        }
        return found
    }

    /// Whether people read `text`.
    static func isForPeople(_ text: String) -> Bool {
        guard text.contains(where: \.isLetter) else { return false }
        if text.contains(" ") || text.hasSuffix("…") || text.hasSuffix("?") { return true }
        let first = text.unicodeScalars.first, second = text.unicodeScalars.dropFirst().first
        return first.map(CharacterSet.uppercaseLetters.contains) == true && second.map(CharacterSet.lowercaseLetters.contains) == true
    }

    /// What the rule finds in `source`, a file's text.
    static func findings(in source: String, file: String) -> [Finding] {
        var findings: [Finding] = []
        var multiLineIsMarked: Bool?  // inside a multi-line literal: whether it is marked
        for (index, wholeLine) in source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).enumerated() {
            var line = wholeLine
            if let marked = multiLineIsMarked {
                guard let closing = line.range(of: "\"\"\"") else {
                    if marked, line.contains("\\(") {
                        findings.append(Finding(file: file, line: index + 1, literal: line.trimmingCharacters(in: .whitespaces),
                                                why: "is in a marked multi-line literal but interpolates: a translation cannot hold it"))
                    }
                    continue
                }
                multiLineIsMarked = nil
                line = String(line[closing.upperBound...])
            }
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
            if let opening = line.range(of: "\"\"\""), line.components(separatedBy: "\"\"\"").count == 2 {
                let before = String(line[..<opening.lowerBound])
                multiLineIsMarked = markers.contains { before.hasSuffix($0) }
                line = before
            }
            for (text, before) in literals(in: line) {
                let marked = markers.contains { before.hasSuffix($0) } || (markers.contains(where: before.contains) && before.hasSuffix("\"…\", "))
                if marked {
                    if text.contains("\\(") { findings.append(Finding(file: file, line: index + 1, literal: text, why: "is marked but interpolates: a translation cannot hold it")) }
                } else if isForPeople(text), isTextPosition(before, line: line) {
                    findings.append(Finding(file: file, line: index + 1, literal: text, why: "is for people but not marked with localized("))
                }
            }
        }
        return findings
    }

    static func files() throws -> [String] {
        try scanned.flatMap { path -> [String] in
            guard path.hasSuffix("/") || !path.hasSuffix(".swift") else { return [path] }
            return try FileManager.default.contentsOfDirectory(atPath: SourceTree.path(path))
                .filter { $0.hasSuffix(".swift") }.sorted().map { path + "/" + $0 }
        }
    }

    @Test("every string people read in the windows, the notifications and the command lines is marked for translation")
    func everyStringMarked() throws {
        let files = try Self.files()
        #expect(files.count > 15)
        let findings = try files.flatMap { Self.findings(in: try SourceTree.read($0), file: $0) }
        #expect(findings.isEmpty, "\(findings.map(\.description).joined(separator: "\n"))")
    }

    @Test("the rule finds an unmarked label, button, title, notification and interpolation, and passes marked ones")
    func ruleFails() {
        let sample = """
            let a = Button("Cancel") { }
            let b = Label("\\(asker) asks for music you listened to.")
            window = Window(application: application, title: "Share Listening", width: 480, height: 320)
            summary: "Reflect on this moment", body: body,
            dialog.addAnswer("cancel", "Cancel")
            let c = localized("Share Listening with \\(name)")
            // A comment "Is Not Code" is no finding.
            let d = Button(localized("_Share")).styleClass("suggested-action")
            let e = localizedPlural("{count} track", "{count} tracks", count: n)
            log.info("suggesting the moment \\(id)")
            let f = Image.picture(icon, size: 32, placeholder: "application-x-executable")
            subtitle: name ?? "No journal app chosen",
            actions: [(Self.writeAction, "Write about it"), (Self.notTodayAction, localized("Not today"))],
            call(MethodCall(member: "Notify", arguments: arguments))
            static let discussion = localized(\"""
                Words for "people", over two lines,
                with no value in them.
                \""")
            static let usage = localized(\"""
                Delete \\(count) listens.
                \""")
            let g = Label(\"""
                Not for people: an unmarked multi-line literal is no text position here.
                \""")
            """
        let findings = Self.findings(in: sample, file: "Sample.swift")
        #expect(findings.map(\.line) == [1, 2, 3, 4, 5, 6, 12, 13, 20], "\(findings)")
    }
}
