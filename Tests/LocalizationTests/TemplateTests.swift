import Foundation
import Testing
import TestSupport

/// po/media-broker.pot is what `make pot` makes of the strings marked in Sources today: a string
/// marked, changed or unmarked without `make pot` fails here.
@Suite struct TemplateTests {
    /// The template's lines without the one that changes on every run.
    static func comparable(_ template: String) -> [Substring] {
        template.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("\"POT-Creation-Date:") }
    }

    /// The first line where `fresh` differs from `committed`, or nil when they agree.
    static func firstDifference(committed: String, fresh: String) -> String? {
        let old = comparable(committed), new = comparable(fresh)
        for (index, (a, b)) in zip(old, new).enumerated() where a != b {
            return "line \(index + 1): po/media-broker.pot has '\(a)', make pot writes '\(b)'"
        }
        return old.count == new.count ? nil : "po/media-broker.pot has \(old.count) lines, make pot writes \(new.count)"
    }

    @Test("po/media-broker.pot is current: run 'make pot' and commit it when this fails")
    func templateIsCurrent() throws {
        let scratch = try TemporaryDirectory(prefix: "pot")
        let fresh = scratch.appending("media-broker.pot")
        let run = try ChildProcess.run("make", arguments: ["-s", "pot", "POT=\(fresh)", "POT_SOURCES=\(scratch.appending("sources"))"],
                                       workingDirectory: SourceTree.root, timeout: .seconds(60))
        #expect(run.status == .exited(0), "make pot: \(run.standardError)")
        #expect(run.standardError.isEmpty, "xgettext warned: \(run.standardError)")
        let difference = Self.firstDifference(committed: try SourceTree.read("po/media-broker.pot"),
                                              fresh: try String(contentsOfFile: fresh, encoding: .utf8))
        #expect(difference == nil, "\(difference ?? "")")
    }

    @Test("the comparison ignores the creation date and finds a string added, changed or taken away")
    func comparisonFindsStaleness() {
        let template = "\"POT-Creation-Date: 2026-12-01 10:00+0000\\n\"\n\nmsgid \"Share\"\nmsgstr \"\"\n"
        #expect(Self.firstDifference(committed: template, fresh: template.replacingOccurrences(of: "12-01 10:00", with: "12-03 22:00")) == nil)
        #expect(Self.firstDifference(committed: template, fresh: template.replacingOccurrences(of: "Share", with: "_Share")) != nil)
        #expect(Self.firstDifference(committed: template, fresh: template + "\nmsgid \"Cancel\"\nmsgstr \"\"\n") != nil)
        #expect(Self.firstDifference(committed: template + "\nmsgid \"Cancel\"\nmsgstr \"\"\n", fresh: template) != nil)
    }
}
