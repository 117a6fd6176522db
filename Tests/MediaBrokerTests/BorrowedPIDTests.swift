import Foundation
import Testing
@testable import MediaBroker
@testable import BrokerCore

/// Issue 32, item 1: a connection's process id can be reused once the process that connected has
/// exited; the process found there later is not believed to be the connection's.
@Suite struct BorrowedPIDTests {
    @Test("a process's start is field 22 of its stat, counted from the last ')' of a command name that plays tricks")
    func startIsReadPastTheCommandName() {
        #expect(BootClock.start(inStat: Array(FakeProcess.stat(pid: 7, command: "a) (b c", started: 4242).utf8)) == 4242)
        #expect(BootClock.start(inStat: Array(FakeProcess.stat(pid: 7, command: ") 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20", started: 9).utf8)) == 9)
        #expect(BootClock.start(inStat: Array("7 (cut short) S 1 2".utf8)) == nil)
        #expect(BootClock.start(inStat: Array("no parenthesis at all".utf8)) == nil)
    }

    @Test("this test's own process started before now, and is its own connection's process")
    func aRealProcess() throws {
        let me = UInt32(getpid())
        let started = try #require(BootClock.start(ofProcessAt: "/proc/\(me)"))
        #expect(started <= BootClock.now())
        #expect(ConnectedProcess(processID: me, startedBy: BootClock.now()).reading(procRoot: "/proc") { "read" } == "read")
        #expect(ConnectedProcess(processID: me, startedBy: started - 1).reading(procRoot: "/proc") { "read" } == nil,
                "a process that started after the connection was known is not the connection's")
    }

    @Test("a host process on a reused pid makes the connection unidentified, never host")
    func aReusedPIDIsNotHost() throws {
        let proc = try ReaderIdentityTests.proc(["9/root/etc/os-release": "", "9/cgroup": "0::/user.slice/user-1000.slice/session-2.scope\n"])
        #expect(Reader.of(ConnectedProcess(processID: 9, startedBy: FakeProcess.started), procRoot: proc.path) == .host, "started by the birth: its own")
        #expect(Reader.of(ConnectedProcess(processID: 9, startedBy: FakeProcess.started - 1), procRoot: proc.path) == .unidentified)
    }

    @Test("a process replaced while it is read is not believed")
    func aProcessReplacedDuringTheReadIsNotBelieved() throws {
        let proc = try ReaderIdentityTests.proc(["9/cgroup": "0::/\n"])
        let process = FakeProcess.connected(9)
        let read = process.reading(procRoot: proc.path) {
            try? FakeProcess.stat(pid: 9, started: FakeProcess.started + 1).write(toFile: proc.appending("9/stat"), atomically: true, encoding: .utf8)
            return "read from whichever process was there"
        }
        #expect(read == nil)
    }

    @Test("a connection is born when the broker hears of it; an older one when the watch began; before the watch, now")
    func births() {
        var births = ConnectionBirths()
        #expect(births.startedBy(":1.5", now: 70) == 70, "no watch yet: every connection is older than now")
        births.watching(since: 100)
        births.watching(since: 150)
        births.arrived(":1.9", at: 300)
        births.arrived(":1.9", at: 400)
        #expect(births.startedBy(":1.9", now: 900) == 300, "the first arrival counts")
        #expect(births.startedBy(":1.5", now: 900) == 100, "older than the watch")
        births.left(":1.9")
        #expect(births.startedBy(":1.9", now: 900) == 100)
    }

    @Test("a snap's AppArmor label names the snap; other labels name none", arguments: [
        ("snap.spotify.spotify (enforce)\0", "spotify"), ("snap.journal.journal (complain)", "journal"),
        ("snap.journal.hook.configure (enforce)", "journal"), ("unconfined\0", nil), ("snap.evil (enforce)", nil),
        ("snap.../etc.x (enforce)", nil), ("/usr/bin/firefox (enforce)", nil), ("", nil),
    ] as [(String, String?)])
    func securityLabels(label: String, snap: String?) {
        let sandbox = Sandbox.fromSecurityLabel(Array(label.utf8))
        #expect(sandbox.map(Reader.init)?.appID == snap)
    }
}
