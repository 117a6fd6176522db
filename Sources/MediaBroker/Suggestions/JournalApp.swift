import SwiftDBus
import BrokerCore

/// An installed journal app (issue 35): its desktop file declares, with
/// `X-MediaBroker-Suggestion-URL`, the URL it takes a suggestion in (docs/journal-apps.md).
struct JournalApp: Sendable, Equatable {
    /// Its desktop-file id, without `.desktop`.
    var id: String
    var name: String
    var icon: String?
    var desktopFile: String
    var entry: DesktopEntry

    /// How the app is started with a URL.
    enum Start: Equatable {
        /// Its `Exec` line's arguments, the program first.
        case exec([String])
        /// `org.freedesktop.Application.Open` on its bus name (`DBusActivatable=true`).
        case activation(BusName, ObjectPath)
    }

    /// Its URL template, checked; or why it cannot take a suggestion.
    var template: Result<SuggestionURLTemplate, SuggestionURLTemplate.Problem> {
        Result { () throws(SuggestionURLTemplate.Problem) in try SuggestionURLTemplate(entry.suggestionURL ?? "") }
    }

    /// How to start it with `url`, as GIO starts a URL handler: through the bus when its desktop
    /// file says `DBusActivatable=true` (its id is then its bus name), else with its `Exec` line.
    func start(with url: String) throws(JournalLaunchProblem) -> Start {
        if entry.dbusActivatable {
            guard let name = try? BusName(id), let path = try? ObjectPath("/" + id.map { $0 == "." ? "/" : $0 == "-" ? "_" : $0 }) else {
                throw .notABusName(id)
            }
            return .activation(name, path)
        }
        do throws(DesktopExec.Problem) {
            return .exec(try DesktopExec.arguments(entry.exec ?? "", url: url, name: name, icon: entry.icon, desktopFile: desktopFile))
        } catch {
            throw .exec(error)
        }
    }
}

/// Why a journal app cannot be started with a suggestion.
enum JournalLaunchProblem: Error, Equatable, CustomStringConvertible {
    case notInstalled(String)
    case template(SuggestionURLTemplate.Problem)
    case exec(DesktopExec.Problem)
    case notABusName(String)
    case failed(String)

    var description: String {
        switch self {
        case .notInstalled(let id): "no installed journal app has the id '\(id.prefix(255))'"
        case .template(let problem): "its suggestion URL cannot be used: \(problem)"
        case .exec(let problem): "\(problem)"
        case .notABusName(let id): "it says DBusActivatable=true but its id '\(id.prefix(255))' is no bus name"
        case .failed(let reason): reason
        }
    }
}
