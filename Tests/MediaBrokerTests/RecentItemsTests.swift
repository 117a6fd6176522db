@testable import MediaBroker
import Testing
@testable import BrokerCore

/// The ring the twin rule keeps its recent listens in: bounded, oldest dropped first, order kept.
@Suite struct RecentItemsTests {
    @Test("below its capacity it keeps everything in order; past it, the newest `capacity`")
    func keepsTheNewest() {
        var recent = RecentItems<Int>(capacity: 4)
        for n in 1...3 { recent.append(n) }
        #expect(recent.items == [1, 2, 3])
        for n in 4...10 { recent.append(n) }
        #expect(recent.items == [7, 8, 9, 10])
        #expect(recent.contains { $0 == 7 })
        #expect(!recent.contains { $0 == 6 })
    }

    @Test("removing keeps the order, and the next item goes after the newest")
    func removeThenAppend() {
        var recent = RecentItems<Int>(capacity: 4)
        for n in 1...6 { recent.append(n) }
        recent.removeAll { $0 < 5 }
        #expect(recent.items == [5, 6])
        for n in 7...9 { recent.append(n) }
        #expect(recent.items == [6, 7, 8, 9])
        recent.removeAll { _ in false }
        #expect(recent.items == [6, 7, 8, 9])
        recent.removeAll { _ in true }
        #expect(recent.items.isEmpty)
        recent.append(10)
        #expect(recent.items == [10])
    }
}
