import Localization
import MediaDonationClient
import MediaBrokerVersion
import PickerChannel
import SwiftGtk
#if canImport(Glibc)
import Glibc
#endif

/// `media-broker-picker`: started by the broker for one `PickMedia` request (its channel in
/// `MEDIA_BROKER_PICKER_FD`), or by the person with `--settings`.
@MainActor
public enum PickerProgram {
    /// What `--help` prints, in the person's language; the two synopsis lines stay as typed.
    public static var usage: String {
        // TRANSLATORS: media-broker-picker --help. {usage} is the "Usage: …" line with the command's
        // two forms. Keep the options and names as they are and the descriptions in one column.
        localized("""
        {usage}

        Listening History: the windows of MediaBroker.

          --settings   open the settings: recording on or off, which apps are recorded, which
                       apps may read, how long listens are kept, and deleting the history
          --help       show this help
          --version    show the version

        Without --settings it is the picker that media-broker starts when a journaling app calls
        PickMedia, or to copy a suggested moment as text when no journal app is chosen; it reads
        the request from the channel media-broker hands it and cannot be started by hand.
        """, ["usage": localized("Usage: {usage}", ["usage": synopsis])])
    }

    /// The command's two forms, the same in every language; the second lines up under the first,
    /// after "Usage: " as long as the person's language words it.
    static var synopsis: String {
        let indent = String(repeating: " ", count: localized("Usage: {usage}", ["usage": ""]).count)
        return "media-broker-picker --settings\n" + indent + "media-broker-picker --help | --version"
    }

    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        switch arguments.dropFirst().first {
        case "--help"?, "-h"?:
            print(usage)
            return 0
        case "--version"?:
            print("media-broker-picker \(MediaBrokerVersion.current)")
            return 0
        case "--settings"?:
            return SettingsProgram.run(environment: environment)
        case nil:
            return pick(environment: environment)
        case let other?:
            fail(localized("unknown option '{option}'", ["option": other]) + "\n\n" + usage)
            return 2
        }
    }

    private static func pick(environment: [String: String]) -> Int32 {
        guard let number = environment[ChannelSocket.environmentKey].flatMap({ Int32($0) }), number >= 0 else {
            // For the person who started it by hand, unlike the lines below, which go to the broker's log.
            fail(localized("no request: media-broker starts the picker for an app's PickMedia call. To change settings, run {command}",
                           ["command": "media-broker-picker --settings"]))
            return 2
        }
        let channel = ChannelSocket(descriptor: number)
        let request: PickerRequest
        do throws(ChannelError) {
            guard let text = try channel.receive() else {
                fail("media-broker sent no request")
                return 1
            }
            request = try PickerRequest(text)
        } catch {
            fail(error.description)
            return 1
        }
        let loaded = Blocking.wait { () async throws(MediaBrokerError) -> PickerContent in
            let client = try MediaBrokerClient(address: request.busAddress, timeout: .seconds(10))
            return try await PickerContent.load(for: request, from: client)
        }
        guard Toolkit.initialize() else {
            fail("no display to show the picker on: DISPLAY or WAYLAND_DISPLAY must name the person's display")
            return 1
        }
        let application = Application(id: "org.mediabroker.Picker", unique: false)
        var window: PickerWindow?
        var failure: ErrorWindow?
        let status = application.run { application in
            switch loaded {
            case .success(let content):
                let seconds = ClipboardHandOff.seconds(environment: environment)
                let picker = PickerWindow(application: application, request: request, content: content,
                                          introduce: !Introduction.wasShown(environment: environment), copy: { text in
                    if !ClipboardHandOff.copy(text, application: application, seconds: seconds, log: say) {
                        fail("there is no clipboard to copy to")
                    }
                }) { answer in
                    do throws(ChannelError) { try channel.send(answer.text) } catch { fail(error.description) }
                }
                picker.introduced = { Introduction.markShown(environment: environment) }
                picker.window.present()
                window = picker
            case .failure(let error):
                failure = ErrorWindow(application: application, message: localized("The listening history could not be read: {error}", ["error": error.description]))
            }
        }
        _ = (window, failure)
        return status
    }

    static func fail(_ message: String) { say(message) }

    /// A line on standard error, which the broker's log takes in.
    static func say(_ message: String) {
        var line = "media-broker-picker: " + message + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}

/// A window that says why there is nothing to pick; closing it ends the request unanswered.
@MainActor
final class ErrorWindow {
    let window: Window

    init(application: Application, message: String) {
        window = Window(application: application, title: localized("Share Listening"), width: 480, height: 320)
        let close = Button(localized("_Close")) { [window] in window.destroy() }.align(.center)
        window.setContent(Box(.vertical, spacing: 0, [
            HeaderBar(title: Label(localized("Share Listening")).styleClass("title")),
            StatusPage(icon: "dialog-error-symbolic", title: localized("Cannot Show Your Listening"), description: message, child: close)
                .expand(vertically: true),
        ]))
        window.present()
    }
}
