import Foundation
@testable import SwiftDBus
import TestSupport
import Testing

/// The event loop: one thread runs everything in submission order; timers fire no earlier than
/// asked and not at all once cancelled; it stops cleanly from inside or outside; and when idle
/// its thread sleeps in the kernel without a single wake-up.
@Suite struct EventLoopTests {
    /// Values recorded on the loop's thread and read by the test.
    final class Record<Value: Sendable>: Sendable {
        private let values = Locked<[Value]>([])
        func add(_ value: Value) { values.withLock { $0.append(value) } }
        var all: [Value] { values.withLock { $0 } }
    }

    @Test func workRunsInSubmissionOrderOnTheLoopsOwnThread() throws {
        let loop = try EventLoop()
        defer { loop.stop() }
        #expect(!loop.isCurrent)
        let order = Record<Int>(), threads = Record<String>(), current = Record<Bool>()
        for index in 0..<10_000 {
            #expect(loop.execute {
                order.add(index)
                current.add(loop.isCurrent)
                if index % 1000 == 0 { threads.add(Self.threadID()) }
            })
        }
        try waitUntil("all work ran") { order.all.count == 10_000 }
        #expect(order.all == Array(0..<10_000))
        #expect(current.all.allSatisfy { $0 })
        #expect(Set(threads.all).count == 1)
        #expect(threads.all.first != Self.threadID())
    }

    @Test func workFromManyThreadsAllRunsEachThreadsInItsOrder() throws {
        let loop = try EventLoop()
        defer { loop.stop() }
        let seen = Record<(thread: Int, index: Int)>()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<1000 { loop.execute { seen.add((thread, index)) } }
        }
        try waitUntil("all work ran") { seen.all.count == 8000 }
        for thread in 0..<8 {
            #expect(seen.all.filter { $0.thread == thread }.map(\.index) == Array(0..<1000))
        }
    }

    @Test func timersFireAfterTheirDelayNotBeforeAndInDeadlineOrder() throws {
        let loop = try EventLoop()
        defer { loop.stop() }
        let fired = Record<(name: String, after: Duration)>()
        loop.execute {
            let start = ContinuousClock.now
            for milliseconds in [300, 100, 0, 200] {
                _ = loop.schedule(after: .milliseconds(milliseconds)) {
                    #expect(loop.isCurrent)
                    fired.add(("\(milliseconds)", ContinuousClock.now - start))
                }
            }
        }
        try waitUntil("every timer fired") { fired.all.count == 4 }
        #expect(fired.all.map(\.name) == ["0", "100", "200", "300"])
        for (name, after) in fired.all {
            #expect(after >= .milliseconds(Int(name)!), "timer \(name) ms fired after \(after)")
            #expect(after < .milliseconds(Int(name)! + 2000), "timer \(name) ms fired late, after \(after)")
        }
    }

    @Test func cancelledTimersNeverFire() throws {
        let loop = try EventLoop()
        defer { loop.stop() }
        let fired = Record<String>()
        loop.execute {
            let soon = loop.schedule(after: .milliseconds(50)) { fired.add("cancelled at once") }
            loop.cancelTimer(soon)
            let later = loop.schedule(after: .milliseconds(200)) { fired.add("cancelled by another timer") }
            _ = loop.schedule(after: .milliseconds(100)) { loop.cancelTimer(later) }
            _ = loop.schedule(after: .milliseconds(300)) { fired.add("last") }
        }
        try waitUntil("the last timer fired") { fired.all.contains("last") }
        #expect(fired.all == ["last"])
    }

    @Test func stoppingFromInsideTheLoopDoesNotDeadlock() throws {
        let loop = try EventLoop()
        let ran = Record<String>()
        loop.execute {
            loop.stop()
            ran.add("stopped itself")
        }
        try waitUntil("the loop ended") { loop.hasFinished }
        #expect(ran.all == ["stopped itself"])
        #expect(!loop.execute { ran.add("too late") })
        loop.stop()  // from outside, after the fact: joins the thread, returns
        loop.stop()
        #expect(ran.all == ["stopped itself"])
    }

    @Test func workSubmittedBeforeStopRunsAndWorkAfterIsRefused() throws {
        let loop = try EventLoop()
        let ran = Record<Int>()
        for index in 0..<1000 { loop.execute { ran.add(index) } }
        loop.stop()
        #expect(loop.hasFinished, "stop() from outside waits for the thread")
        #expect(ran.all == Array(0..<1000))
        #expect(!loop.execute { ran.add(-1) })
        #expect(ran.all.count == 1000)
    }

    @Test func anIdleLoopNeverWakesUp() async throws {
        let loop = try EventLoop()
        defer { loop.stop() }
        try await Self.expectNoWakeUps(of: loop)
    }

    @Test func anIdleConnectionsThreadNeverWakesUp() async throws {
        let bus = try PrivateBus.start()
        let connection = try BusConnection.connect(to: bus.address)
        defer { connection.close() }
        // Whatever the bus sent on connecting (NameAcquired) has been read once a call is answered.
        _ = try await connection.callBus("GetId")
        try await Self.expectNoWakeUps(of: connection.loop)
    }

    // MARK: Helpers

    /// The kernel's id of the calling thread, from `/proc/thread-self` (`PID/task/TID`).
    static func threadID() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))
            .map { String($0.split(separator: "/").last ?? "") } ?? ""
    }

    /// A line of `/proc/self/task/TID/status`, e.g. `voluntary_ctxt_switches`.
    static func status(_ key: String, of thread: String) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/self/task/\(thread)/status", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix(key + ":") }
            .map { $0.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    /// Asks the loop for its thread id, waits until that thread sleeps again, and checks that it
    /// is not woken once — not a single context switch — in the next second.
    static func expectNoWakeUps(of loop: EventLoop) async throws {
        let id = Record<String>()
        loop.execute { id.add(threadID()) }
        try waitUntil("the loop told its thread id") { !id.all.isEmpty }
        let thread = id.all[0]
        func switches() -> (voluntary: String?, involuntary: String?) {
            (status("voluntary_ctxt_switches", of: thread), status("nonvoluntary_ctxt_switches", of: thread))
        }
        var last = switches()
        try waitUntil("the loop's thread sleeps in poll again") {
            let now = switches()
            defer { last = now }
            return status("State", of: thread)?.hasPrefix("S") == true && now == last
        }
        let before = switches()
        #expect(before.voluntary != nil)
        // A measurement window, not a wait for something to happen.
        try await Task.sleep(for: .seconds(1))
        let after = switches()
        #expect(after == before, "the idle loop's thread was woken: \(before) → \(after)")
    }
}
