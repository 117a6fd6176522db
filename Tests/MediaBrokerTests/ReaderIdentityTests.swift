import Foundation
import Testing
import TestSupport
@testable import MediaBroker
@testable import BrokerCore
import CoreFixtures

/// Who a caller is, from its process alone (issue 20), and how long that answer is kept.
@Suite struct ReaderIdentityTests {
    static func proc(_ files: [String: String]) throws -> TemporaryDirectory {
        let root = try TemporaryDirectory(prefix: "proc")
        for (path, text) in files {
            let full = root.appending(path)
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
            if let pid = FakeProcess.processID(ofEntry: Substring(path)), !FileManager.default.fileExists(atPath: root.appending("\(pid)/stat")) {
                try FakeProcess.stat(pid: pid).write(toFile: root.appending("\(pid)/stat"), atomically: true, encoding: .utf8)
            }
        }
        return root
    }

    @Test("a .flatpak-info in the process's root names the app")
    func flatpak() throws {
        let proc = try Self.proc(["42/root/.flatpak-info": "[Application]\nname=org.example.Journal\n", "42/cgroup": "0::/user.slice\n"])
        #expect(Reader.of(FakeProcess.connected(42), procRoot: proc.path) == .app("org.example.Journal"))
    }

    @Test("a snap's cgroup names the snap")
    func snap() throws {
        let proc = try Self.proc(["7/root/etc/os-release": "", "7/cgroup": "0::/user.slice/snap.journal.journal-1b2c.scope\n"])
        #expect(Reader.of(FakeProcess.connected(7), procRoot: proc.path) == .app("journal"))
    }

    @Test("a readable process with no sandbox is host")
    func host() throws {
        let proc = try Self.proc(["9/root/etc/os-release": "", "9/cgroup": "0::/user.slice/user-1000.slice/session-2.scope\n"])
        #expect(Reader.of(FakeProcess.connected(9), procRoot: proc.path) == .host)
    }

    @Test("a process that cannot be read, or a sandbox naming no valid app, is unidentified, never host")
    func unidentified() throws {
        let proc = try Self.proc([
            "11/root/.flatpak-info": "[Application]\nname=../../etc\n", "11/cgroup": "0::/\n",
            "12/cgroup": "0::/\n",
            "13/root/etc/os-release": "",
        ])
        #expect(Reader.of(FakeProcess.connected(11), procRoot: proc.path) == .unidentified)
        #expect(Reader.of(FakeProcess.connected(12), procRoot: proc.path) == .unidentified, "its root cannot be looked into")
        #expect(Reader.of(FakeProcess.connected(13), procRoot: proc.path) == .unidentified, "its cgroup cannot be read")
        #expect(Reader.of(FakeProcess.connected(14), procRoot: proc.path) == .unidentified, "it is gone")
    }

    @Test("the cache is keyed by unique name: a connection that leaves is forgotten, and a new one (even of a reused pid) is looked at afresh")
    func theCacheIsKeyedByUniqueName() {
        var cache = ReaderCache()
        cache.remember(.app("org.example.Journal"), for: ":1.7")
        #expect(cache.reader(of: ":1.7") == .app("org.example.Journal"))
        cache.forget(":1.7")
        #expect(cache.reader(of: ":1.7") == nil)
        #expect(cache.reader(of: ":1.8") == nil, "another connection inherits nothing")
    }

    @Test("the cache is bounded, the oldest going first")
    func theCacheIsBounded() {
        var cache = ReaderCache()
        for index in 0...ReaderCache.capacity { cache.remember(.host, for: ":1.\(index)") }
        #expect(cache.count == ReaderCache.capacity)
        #expect(cache.reader(of: ":1.0") == nil && cache.reader(of: ":1.\(ReaderCache.capacity)") == .host)
    }

    @Test("grants are stored with the settings and read back exactly; a damaged one fails the whole value")
    func grantsRoundTrip() throws {
        let settings = PrivacySettings(readers: [
            "org.example.Journal": ReaderGrant(access: .allowed, decided: 1_764_590_400_000_000, lastRead: 1_764_590_500_000_000),
            "org.example.Tracker": ReaderGrant(access: .denied, decided: 1_764_590_400_000_000),
        ])
        #expect(try PrivacySettings(decoding: settings.encoded) == settings)
        for damaged in ["reader=allowed:1:-:", "reader=maybe:1:-:org.example.A", "reader=allowed:x:-:org.example.A",
                        "reader=allowed:1:y:org.example.A", "reader=allowed:1:-:../etc"] {
            #expect(throws: PrivacySettings.DecodingError.self, "\(damaged)") { try PrivacySettings(decoding: damaged) }
        }
    }
}

/// The donation rate of a sandboxed app, and the questions put to the person.
@Suite struct ReaderLimitsTests {
    static let second: Microseconds = 1_000_000

    @Test("twenty at once, then one a second")
    func burstThenRate() {
        var limit = DonationRateLimit()
        var taken: [Bool] = []
        func take(_ app: String, at time: Microseconds) -> Bool { limit.take(app, at: time) }
        for _ in 0..<20 { taken.append(take("org.example.A", at: 0)) }
        #expect(taken.allSatisfy { $0 })
        let twentyFirst = take("org.example.A", at: 0), early = take("org.example.A", at: Self.second - 1)
        let onTime = take("org.example.A", at: Self.second), again = take("org.example.A", at: Self.second + 1)
        let other = take("org.example.B", at: 0)
        #expect(!twentyFirst, "the 21st in a burst")
        #expect(!early && onTime && !again)
        #expect(other, "each app has its own")
        taken = (0..<20).map { _ in take("org.example.A", at: 100 * Self.second) }
        let past = take("org.example.A", at: 100 * Self.second)
        #expect(taken.allSatisfy { $0 } && !past, "a long pause refills the burst, not more")
    }

    @Test("the apps remembered are bounded")
    func bounded() {
        var limit = DonationRateLimit()
        for index in 0...(DonationRateLimit.maximumApps * 2) { _ = limit.take("org.example.App\(index)", at: Microseconds(index) * 30 * Self.second) }
        #expect(limit.rememberedApps <= DonationRateLimit.maximumApps + 1)
    }

    @Test("a question is asked once per app, not after a refusal within a day, and answered at once after a grant")
    func questions() {
        var questions = AccessQuestions()
        let none = PrivacySettings()
        #expect(questions.start(for: "org.example.A", settings: none, now: 0) == .ask)
        questions.opened(for: "org.example.A")
        guard case .refused = questions.start(for: "org.example.A", settings: none, now: 0) else { Issue.record("a second open question"); return }
        #expect(questions.start(for: "org.example.B", settings: none, now: 0) == .ask, "another app may ask meanwhile")
        let first = questions.close("org.example.A"), second = questions.close("org.example.A")
        #expect(first)
        #expect(!second, "closed once")

        let denied = PrivacySettings(readers: ["org.example.A": ReaderGrant(access: .denied, decided: 0)])
        guard case .refused(let why) = questions.start(for: "org.example.A", settings: denied, now: ReaderGrant.askAgainAfter - 1) else {
            Issue.record("asked again within a day"); return
        }
        #expect(why.contains("24 hours"))
        #expect(questions.start(for: "org.example.A", settings: denied, now: ReaderGrant.askAgainAfter) == .ask)
        let allowed = PrivacySettings(readers: ["org.example.A": ReaderGrant(access: .allowed, decided: 0)])
        #expect(questions.start(for: "org.example.A", settings: allowed, now: 0) == .answered(.allowed))
        #expect(AccessQuestions.answer(forAction: "allow") == .allowed && AccessQuestions.answer(forAction: "deny") == .denied)
        #expect(AccessQuestions.answer(forAction: "default") == .unanswered)
    }

    @Test("a question left unanswered counts as asked: none again for a day; the memory of it is bounded (issue 32, item 7)")
    func unansweredCountsAsAsked() {
        var questions = AccessQuestions()
        let none = PrivacySettings()
        questions.leftUnanswered("org.example.A", at: 10)
        guard case .refused(let why) = questions.start(for: "org.example.A", settings: none, now: 10 + ReaderGrant.askAgainAfter - 1) else {
            Issue.record("asked again within a day of an unanswered question"); return
        }
        #expect(why.contains("24 hours"))
        #expect(questions.start(for: "org.example.A", settings: none, now: 10 + ReaderGrant.askAgainAfter) == .ask)
        #expect(questions.start(for: "org.example.B", settings: none, now: 11) == .ask, "another app may still ask")
        questions.leftUnanswered("org.example.C", at: 10)
        questions.forgetUnanswered("org.example.C")
        #expect(questions.start(for: "org.example.C", settings: none, now: 11) == .ask, "the person's forget lets it ask again at once")
        for index in 0...(AccessQuestions.maximumRemembered * 2) { questions.leftUnanswered("org.example.App\(index)", at: Microseconds(index)) }
        #expect(questions.unanswered.count == AccessQuestions.maximumRemembered)
    }
}
