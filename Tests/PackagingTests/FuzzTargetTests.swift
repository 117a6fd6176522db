// The fuzz target (Fuzz/) is built with swiftc directly, against the SwiftDBus and MediaBroker
// modules compiled from every file under their directories. A change that breaks that build would
// otherwise be found only by the next long fuzzing run; this check makes it a CI failure instead.

import Testing
import TestSupport

@Suite struct FuzzTargetTests {
    @Test("the fuzz target and the modules it is built against type-check together (Fuzz/run --check)")
    func fuzzTargetSourcesTypeCheck() async throws {
        // Waited for without holding a thread: the check compiles for half a minute.
        let check = try ChildProcess.launch("/bin/bash", arguments: [SourceTree.path("Fuzz/run"), "--check"])
        let status = try await check.exited(timeout: .seconds(300))
        #expect(status == .exited(0), "Fuzz/run --check failed:\n\(check.standardError)")
    }
}
