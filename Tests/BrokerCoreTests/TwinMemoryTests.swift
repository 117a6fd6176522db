import Testing
@testable import BrokerCore
import CoreFixtures

/// The listens the twin rule remembers, indexed by title: a lookup finds exactly what a scan of
/// every remembered listen would, however listens were added, dropped for room or expired.
@Suite struct TwinMemoryTests {
    private func listen(_ title: String?, player: String = ":1.1", started: Microseconds = 0, ended: Microseconds = 10)
        -> RememberedListen
    {
        RememberedListen(player: player, metadata: TrackMetadata(title: title), started: started, ended: ended)
    }

    /// What the index answers, beside what a plain scan answers, for `title` and any listen.
    private func found(_ memory: TwinMemory, _ title: String?) -> (indexed: Bool, scanned: Bool) {
        (memory.contains(title: title) { _ in true }, memory.items.contains { $0.metadata.title == title && title != nil })
    }

    @Test("a listen is found by its title only; a title no listen has, or none, finds nothing")
    func findsByTitle() {
        var memory = TwinMemory(capacity: 8)
        memory.append(listen("Song"))
        memory.append(listen(nil))
        #expect(memory.contains(title: "Song") { $0.player == ":1.1" })
        #expect(!memory.contains(title: "Song") { $0.player == ":1.2" })
        #expect(!memory.contains(title: "Other") { _ in true })
        #expect(!memory.contains(title: nil) { _ in true })
    }

    @Test("a title leaves the index when its last listen is dropped to make room, not before")
    func droppedForRoom() {
        var memory = TwinMemory(capacity: 3)
        memory.append(listen("A"))
        memory.append(listen("A"))
        memory.append(listen("B"))
        memory.append(listen("C"))  // drops the first A
        #expect(found(memory, "A") == (true, true))
        memory.append(listen("D"))  // drops the second A
        #expect(found(memory, "A") == (false, false))
        #expect(found(memory, "B") == (true, true))
        #expect(found(memory, "C") == (true, true))
        #expect(found(memory, "D") == (true, true))
    }

    @Test("expiry drops listens that ended before the cutoff, and their titles, whatever order they ended in")
    func expiry() {
        var memory = TwinMemory(capacity: 4)
        memory.append(listen("Late", ended: 500))
        memory.append(listen("Early", ended: 100))
        memory.append(listen("Middle", ended: 300))
        memory.forget(endedBefore: 200)
        #expect(memory.items.map(\.metadata.title) == ["Late", "Middle"])
        #expect(found(memory, "Early") == (false, false))
        #expect(found(memory, "Middle") == (true, true))
        memory.forget(endedBefore: 200)  // nothing more to drop
        #expect(memory.items.count == 2)
        // The listen with the earliest end is dropped for room: expiry still finds the rest.
        memory.append(listen("E", ended: 900))
        memory.append(listen("F", ended: 900))
        memory.append(listen("G", ended: 900))  // drops Late (500)
        memory.forget(endedBefore: 400)
        #expect(memory.items.map(\.metadata.title) == ["E", "F", "G"])
        memory.forget(endedBefore: 1000)
        #expect(memory.items.isEmpty)
        #expect(found(memory, "G") == (false, false))
        memory.append(listen("G", ended: 2000))
        #expect(found(memory, "G") == (true, true))
    }

    @Test("over many listens the index agrees with a scan of what is remembered")
    func agreesWithScan() {
        var memory = TwinMemory(capacity: 16)
        var generator = SystemRandomNumberGenerator()
        for step in 0..<2000 {
            let title = Int.random(in: 0..<40, using: &generator)
            memory.append(listen(title == 0 ? nil : "T\(title)", ended: Microseconds(step)))
            if step % 97 == 0 { memory.forget(endedBefore: Microseconds(step - Int.random(in: 0..<20, using: &generator))) }
            let probe = "T\(Int.random(in: 1..<40, using: &generator))"
            let result = found(memory, probe)
            #expect(result.indexed == result.scanned)
        }
    }
}
