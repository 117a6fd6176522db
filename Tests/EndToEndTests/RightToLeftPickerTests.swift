import Foundation
import TestSupport
import Testing

/// The picker in a right-to-left language (issue 36): with `LANGUAGE=he LC_ALL=he_IL.UTF-8`, GTK
/// takes the direction from its own Hebrew catalog (gtk40.mo, Debian's libgtk-4-common) and the
/// layout mirrors — Share, at the header bar's end, stands left of Cancel, at its start. MediaBroker
/// has no Hebrew catalog, so its words stay English; the layout is GTK's.
@Suite(.serialized, .timeLimit(.minutes(3))) struct RightToLeftPickerTests {
    static let gtkHebrew = "/usr/share/locale/he/LC_MESSAGES/gtk40.mo"

    /// X, Y, width and height of the control named `name`, per the driver's `extents` step.
    static func extents(_ rig: PickerRig, _ window: String, _ name: String) throws -> [Int] {
        let printed = try rig.drive(window, ["extents:\(name)"])
        let values = printed.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard values.count == 4 else { throw TestSupportError("extents of \(name): '\(printed)'") }
        return values
    }

    /// Where Share and Cancel stand in the picker of a broker with `environment`, a moment open;
    /// Cancel then answers the app.
    static func headerButtons(environment: [String: String]) async throws -> (share: [Int], cancel: [Int]) {
        let rig = try await PickerRig(brokerEnvironment: environment)
        let app = try rig.pickingApp(reason: "Which way")
        let window = PickerRig.window(reason: "Which way")
        _ = try rig.drive(window, ["press:Continue", "press:\(rig.momentButton)"])
        let buttons = (share: try extents(rig, window, "Share"), cancel: try extents(rig, window, "Cancel"))
        _ = try rig.drive(window, ["press:Cancel", "gone"])
        #expect(try PickerRig.response(of: app).code == 1)
        return buttons
    }

    @Test("in Hebrew the header bar mirrors: Share left of Cancel, in English the other way round",
          .enabled(if: FileManager.default.fileExists(atPath: gtkHebrew), "GTK's Hebrew catalog (\(gtkHebrew)) is not installed"))
    func mirrors() async throws {
        let hebrew = try TranslatedLocale(language: nil, locale: "he_IL", messages: "he")
        let rightToLeft = try await Self.headerButtons(environment: hebrew.environment)
        #expect(rightToLeft.share[0] + rightToLeft.share[2] <= rightToLeft.cancel[0], "Share \(rightToLeft.share) is not left of Cancel \(rightToLeft.cancel)")
        let leftToRight = try await Self.headerButtons(environment: [:])
        #expect(leftToRight.cancel[0] + leftToRight.cancel[2] <= leftToRight.share[0], "left to right, Cancel \(leftToRight.cancel) comes first, Share \(leftToRight.share) last")
    }
}
