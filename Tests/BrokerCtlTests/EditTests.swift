import Foundation
import MediaDonationClient
import Testing
@testable import broker_ctl

/// `broker-ctl edit`: correct a kept listen, or undo the correction.
@Suite struct EditTests {
    @Test func parsesCorrectionsAndUndo() throws {
        #expect(try parse(["edit", "42", "--title", "Teardrop"], as: EditCommand.self) == EditCommand(id: 42, title: "Teardrop"))
        #expect(try parse(["edit", "42", "--artist", "A", "--artist", "B", "--album", ""], as: EditCommand.self)
                == EditCommand(id: 42, artists: ["A", "B"], album: .some(nil)))
        #expect(try parse(["edit", "7", "--undo", "--json"], as: EditCommand.self) == EditCommand(id: 7, undoes: true, printsJSON: true))
        #expect(try parse(["edit", "42", "--title", "Teardrop", "--from-now-on"], as: EditCommand.self)
                == EditCommand(id: 42, title: "Teardrop", fromNowOn: true))
    }

    @Test(arguments: [
        (["edit"], "missing ID"),
        (["edit", "x", "--title", "T"], "ID is a listen's id, a positive number, not 'x'"),
        (["edit", "42"], "say what to correct: --title, --artist or --album (or --undo)"),
        (["edit", "42", "--undo", "--title", "T"], "--undo takes no --title, --artist, --album or --from-now-on"),
        (["edit", "42", "--undo", "--from-now-on"], "--undo takes no --title, --artist, --album or --from-now-on"),
        (["edit", "42", "--from-now-on"], "say what to correct: --title, --artist or --album (or --undo)"),
        (["edit", "42", "--title", ""], "--title must not be empty"),
    ] as [([String], String)])
    func mistakesAreUsageErrors(_ words: [String], message: String) {
        #expect(usageError(words) == UsageError(message, subcommand: "edit"))
    }

    @Test func aCorrectionSaysHowTheListenNowReads() async {
        let broker = FakeBroker()
        let run = await runBrokerCtl(["edit", "42", "--title", "Teardrop"], broker: broker)
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "Corrected: listen 42 now reads Teardrop.\n")
        let undo = await runBrokerCtl(["edit", "42", "--undo"], broker: broker)
        #expect(undo.standardOutput == "Undone: listen 42 now reads Told.\n")
        #expect(broker.changes == [.editMedia(42, "Teardrop", nil, nil, fromNowOn: false), .undoEdit(42)])
    }

    @Test func fromNowOnAsksForARuleAndSaysSo() async {
        let broker = FakeBroker()
        let run = await runBrokerCtl(["edit", "42", "--artist", "Massive Attack", "--from-now-on"], broker: broker)
        #expect(run.exitCode == 0)
        #expect(run.standardOutput.hasSuffix("Later listens of the same words from this app are corrected too ('broker-ctl rules').\n"))
        #expect(broker.changes == [.editMedia(42, nil, ["Massive Attack"], nil, fromNowOn: true)])
    }

    @Test func aFailureExits1() async {
        let run = await runBrokerCtl(["edit", "42", "--undo"], broker: FakeBroker(failures: ["undoEdit": .invalidArguments("asset 42 holds no correction to undo")]))
        #expect(run.exitCode == 1)
        #expect(run.standardError.contains("asset 42 holds no correction to undo"))
    }
}
