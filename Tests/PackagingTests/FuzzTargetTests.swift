// The fuzz target (Fuzz/) compiles chosen broker sources with swiftc directly, from lists in
// Fuzz/run. A source the target needs but the lists miss broke the fuzz build once and was found
// only by the next long fuzzing run; this check makes it a CI failure instead.

import Testing
import TestSupport

@Suite struct FuzzTargetTests {
    @Test("the fuzz target's source lists still type-check together (Fuzz/run --check)")
    func fuzzTargetSourcesTypeCheck() throws {
        let run = try ChildProcess.run("/bin/bash", arguments: [SourceTree.path("Fuzz/run"), "--check"], timeout: .seconds(300))
        #expect(run.status == .exited(0), "Fuzz/run --check failed:\n\(run.standardError)")
    }
}
