import Testing
@testable import BrokerCore

/// A journal app's `Exec` line made into arguments (issue 35), as the Desktop Entry Specification
/// and GIO do: quotes group, field codes expand, and a URL is one argument however it is made.
@Suite("Desktop Exec lines: the arguments that start a journal app with a URL")
struct DesktopExecTests {
    static let url = "examplejournal://suggestion/0123"

    static func arguments(_ exec: String) throws -> [String] {
        try DesktopExec.arguments(exec, url: url, name: "Example Journal", icon: "journal", desktopFile: "/usr/share/applications/j.desktop")
    }

    @Test("the URL takes the place of %u or %U, alone or inside an argument")
    func urlCodes() throws {
        #expect(try Self.arguments("example-journal %u") == ["example-journal", Self.url])
        #expect(try Self.arguments("example-journal --open=%U") == ["example-journal", "--open=\(Self.url)"])
        // As Flatpak exports a desktop file: the URL between its @@u and @@ markers.
        #expect(try Self.arguments("/opt/sandbox/run --branch=stable org.example.Journal @@u %u @@")
                == ["/opt/sandbox/run", "--branch=stable", "org.example.Journal", "@@u", Self.url, "@@"])
    }

    @Test("quotes group words and escape; the other field codes expand or go")
    func quotesAndCodes() throws {
        #expect(try Self.arguments(#""/opt/My Journal/journal" --title "say \"hi\" \$HOME \\ \x" %u"#)
                == ["/opt/My Journal/journal", "--title", #"say "hi" $HOME \ \x"#, Self.url])
        #expect(try Self.arguments("journal %i --name=%c %k %f %F %d %m 100%% %u")
                == ["journal", "--icon", "journal", "--name=Example Journal", "/usr/share/applications/j.desktop", "100%", Self.url])
        #expect(try DesktopExec.arguments("journal %i %u", url: "x:1", name: nil, icon: nil, desktopFile: nil) == ["journal", "x:1"])
    }

    @Test("a URL that holds spaces, quotes or shell characters stays one argument")
    func hostileURLsStayOneArgument() throws {
        let hostile = "x://a b'; rm -rf ~; \"$(reboot)\""
        #expect(try DesktopExec.arguments("journal %u", url: hostile, name: nil, icon: nil, desktopFile: nil) == ["journal", hostile])
    }

    @Test(arguments: [
        ("", DesktopExec.Problem.empty),
        ("   ", .empty),
        ("\"\" %u", .empty),
        ("journal \"%u", .unbalancedQuote),
        ("journal", .takesNoURL),
        ("journal %f", .takesNoURL),
        ("journal %x %u", .fieldCode("x")),
        ("journal %u %", .fieldCode(" ")),
    ] as [(String, DesktopExec.Problem)])
    func badLinesAreRefused(_ exec: String, problem: DesktopExec.Problem) {
        #expect(throws: problem) { try Self.arguments(exec) }
    }
}
