import Foundation
import TestSupport

/// The stand-in journal app (`Tests/Fixtures/journal-recorder.py`), installed as a desktop file
/// that declares a suggestion URL (issue 35): started by the broker, it writes how it was started
/// to the file named by `JOURNAL_RECORD` in the broker's environment.
enum JournalAppFixture {
    static let id = "org.example.Journal"
    static let template = "examplejournal://suggestion/{id}"

    /// Installs its desktop file under `dataHome` (an `XDG_DATA_HOME`).
    static func install(into dataHome: String) throws {
        let applications = dataHome + "/applications"
        try FileManager.default.createDirectory(atPath: applications, withIntermediateDirectories: true)
        try """
            [Desktop Entry]
            Type=Application
            Name=Example Journal
            Exec=/usr/bin/python3 \(FlatpakSandbox.fixture("journal-recorder.py")) %u
            X-MediaBroker-Suggestion-URL=\(template)

            """.write(toFile: applications + "/\(id).desktop", atomically: true, encoding: .utf8)
    }

    /// How the journal was started: its arguments and the activation variables it was given.
    struct Start {
        var arguments: [String]
        var activationToken: String?
        var startupID: String?
        /// The suggestion's id, the URL's last part.
        var suggestion: String? { arguments.first.flatMap { $0.split(separator: "/").last.map(String.init) } }
    }

    /// Waits until the journal was started, and reads how.
    static func started(record: String) throws -> Start {
        try waitUntil("the journal app was started", timeout: .seconds(20)) { FileManager.default.fileExists(atPath: record) }
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: record))) as? [String: Any]
        return Start(arguments: object?["arguments"] as? [String] ?? [], activationToken: object?["XDG_ACTIVATION_TOKEN"] as? String,
                     startupID: object?["DESKTOP_STARTUP_ID"] as? String)
    }
}
