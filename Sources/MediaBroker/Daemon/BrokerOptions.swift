import MediaBrokerVersion
import BrokerCore
import Localization

/// What `media-broker` was asked to do, parsed from its arguments without side effects.
struct BrokerOptions: Sendable, Equatable {
    /// Where the history lives; `nil` means the XDG default.
    var databasePath: String?
    /// `--min-listen SECONDS`: a flat threshold replacing the Last.fm rule.
    var minimumListenSeconds: Double?
    var logLevel: LogLevel = .info
    /// `--reread-interval SECONDS`, for tests only and left out of `--help`: how often a playing
    /// player is re-read in case it never signals (default 30 s; 0.1…3600).
    var rereadIntervalSeconds: Double?
    /// `--ask-timeout SECONDS`, for tests only and left out of `--help`: how long a question waits
    /// for the person's answer (default 120 s for `RequestAccess`, an hour for a new app; 0.5…600).
    var askTimeoutSeconds: Double?
    /// `--picker PATH`: the picker `PickMedia` starts (default: `media-broker-picker` beside this
    /// executable).
    var pickerPath: String?

    enum Action: Sendable, Equatable {
        case run(BrokerOptions)
        case showHelp
        case showVersion
        /// `--print-interface`: write the interface file (``BrokerObject/interfaceDocument``).
        case printInterface
    }

    struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
        var description: String
    }

    /// The command's syntax, the same in every language.
    static let synopsis = "media-broker [--database PATH] [--min-listen SECONDS] [--picker PATH] [--verbose | --quiet]"

    static var usage: String { localized("Usage: {usage}", ["usage": synopsis]) }

    /// What `--help` prints, in the person's language (the options and their values as typed).
    static var help: String {
        // TRANSLATORS: media-broker --help. {usage} is the "Usage: …" line. Keep the options, their
        // values (PATH, SECONDS), paths and names as they are, the descriptions in one column, and
        // the lines about as wide as the English.
        localized("""
        media-broker — records what you listen to from MPRIS media players and answers
        journaling apps over D-Bus (org.mediabroker.MediaBroker1 on the session bus).

        {usage}

        Options:
          --database PATH        the history database (default:
                                 $XDG_DATA_HOME/media-broker/history.sqlite3, or
                                 ~/.local/share/media-broker/history.sqlite3)
          --min-listen SECONDS   record a listen once it was heard this long, instead of the
                                 Last.fm rule (longer than 30 s and heard for half its length
                                 or 4 minutes; 30 s when the length is unknown)
          --picker PATH          the window PickMedia shows (default: media-broker-picker
                                 in the same folder as media-broker)
          --verbose              also log debug lines (titles are logged only at this level)
          --quiet                log warnings and errors only
          --print-interface      print the D-Bus interface's introspection XML (the file
                                 org.mediabroker.MediaBroker1.xml, for binding generators)
                                 and exit
          --version              print the version and exit
          -h, --help             print this help and exit

        Exit status: 0 after SIGTERM or SIGINT; 1 when the bus cannot be reached, the name is
        taken, the database cannot be used, or the bus goes away; 64 on a usage error.
        """, ["usage": usage])
    }

    static func parse(_ arguments: [String]) throws(UsageError) -> Action {
        var options = BrokerOptions()
        var index = 0
        func value(for option: String, inline: String?) throws(UsageError) -> String {
            if let inline { return inline }
            index += 1
            guard index < arguments.count else { throw UsageError(description: localized("{option} needs a value", ["option": option])) }
            return arguments[index]
        }
        while index < arguments.count {
            let word = arguments[index]
            let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            let inline = word.contains("=") && name.hasPrefix("--") ? (parts.count > 1 ? parts[1] : "") : nil
            switch name {
            case "-h", "--help": return .showHelp
            case "--version": return .showVersion
            case "--print-interface": return .printInterface
            case "--verbose": options.logLevel = .debug
            case "--quiet": options.logLevel = .warning
            case "--database":
                let path = try value(for: name, inline: inline)
                guard !path.isEmpty else { throw UsageError(description: localized("{option} needs a path", ["option": name])) }
                options.databasePath = path
            case "--min-listen":
                let text = try value(for: name, inline: inline)
                guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
                    throw UsageError(description: secondsOutOfRange(name, "0", "86400", text))
                }
                options.minimumListenSeconds = seconds
            case "--reread-interval":
                let text = try value(for: name, inline: inline)
                guard let seconds = Double(text), seconds.isFinite, seconds >= 0.1, seconds <= 3600 else {
                    throw UsageError(description: secondsOutOfRange(name, "0.1", "3600", text))
                }
                options.rereadIntervalSeconds = seconds
            case "--ask-timeout":
                let text = try value(for: name, inline: inline)
                guard let seconds = Double(text), seconds.isFinite, seconds >= 0.5, seconds <= 600 else {
                    throw UsageError(description: secondsOutOfRange(name, "0.5", "600", text))
                }
                options.askTimeoutSeconds = seconds
            case "--picker":
                let path = try value(for: name, inline: inline)
                guard path.hasPrefix("/") else { throw UsageError(description: localized("{option} needs an absolute path, not '{value}'", ["option": name, "value": path])) }
                options.pickerPath = path
            default:
                throw UsageError(description: localized("unknown argument '{argument}'", ["argument": word]))
            }
            index += 1
        }
        return .run(options)
    }

    /// `--min-listen takes seconds from 0 to 86400, not 'soon'`: one sentence for each option in seconds.
    private static func secondsOutOfRange(_ option: String, _ lowest: String, _ highest: String, _ value: String) -> String {
        localized("{option} takes seconds from {lowest} to {highest}, not '{value}'", [
            "option": option, "lowest": lowest, "highest": highest, "value": value,
        ])
    }

    /// The history's default location per the XDG base-directory spec.
    static func defaultDatabasePath(environment: [String: String]) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return data + "/media-broker/history.sqlite3"
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return home + "/.local/share/media-broker/history.sqlite3"
    }

    static var versionLine: String { "media-broker \(MediaBrokerVersion.current)" }
}
