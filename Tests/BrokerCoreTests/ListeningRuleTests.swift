import Testing
@testable import BrokerCore
import CoreFixtures

@Suite("ListenRule: when a listen counts")
struct ListeningRuleTests {
    let lastFM = ListenRule.lastFM

    @Test("Last.fm: a track of 30 s or less never counts")
    func lastFMShortTrack() {
        #expect(lastFM.threshold(length: 30 * second) == nil)
        #expect(!lastFM.qualifies(listened: 30 * second, length: 30 * second))
        #expect(!lastFM.qualifies(listened: 3_600 * second, length: 30 * second))
    }

    @Test("Last.fm: a 31 s track counts at half its length")
    func lastFMJustLongEnough() {
        #expect(lastFM.threshold(length: 31 * second) == 15_500_000)
        #expect(!lastFM.qualifies(listened: 15_499_999, length: 31 * second))
        #expect(lastFM.qualifies(listened: 15_500_000, length: 31 * second))
    }

    @Test("Last.fm: an 8-minute track counts at exactly 4 minutes")
    func lastFMEightMinutes() {
        #expect(lastFM.threshold(length: 480 * second) == 240 * second)
        #expect(!lastFM.qualifies(listened: 240 * second - 1, length: 480 * second))
        #expect(lastFM.qualifies(listened: 240 * second, length: 480 * second))
    }

    @Test("Last.fm: a 2-hour audiobook also counts at 4 minutes")
    func lastFMLong() {
        #expect(lastFM.threshold(length: 7_200 * second) == 240 * second)
    }

    @Test("Last.fm: unknown length counts at 30 s")
    func lastFMUnknownLength() {
        #expect(lastFM.threshold(length: nil) == 30 * second)
        #expect(!lastFM.qualifies(listened: 30 * second - 1, length: nil))
        #expect(lastFM.qualifies(listened: 30 * second, length: nil))
    }

    @Test("min-listen: a flat threshold whatever the length")
    func minimumRule() {
        let rule = ListenRule.minimum(seconds: 2)
        #expect(rule == .minimum(2 * second))
        #expect(rule.threshold(length: 10 * second) == 2 * second)
        #expect(rule.qualifies(listened: 2 * second, length: 1 * second))
        #expect(!rule.qualifies(listened: 2 * second - 1, length: nil))
    }

    @Test("min-listen 0 still needs something heard; nonsense seconds are 0")
    func minimumZero() {
        let rule = ListenRule.minimum(seconds: 0)
        #expect(!rule.qualifies(listened: 0, length: nil))
        #expect(rule.qualifies(listened: 1, length: nil))
        #expect(ListenRule.minimum(seconds: -3) == .minimum(0))
        #expect(ListenRule.minimum(seconds: .nan) == .minimum(0))
        #expect(ListenRule.minimum(seconds: 0.5) == .minimum(500_000))
    }
}
