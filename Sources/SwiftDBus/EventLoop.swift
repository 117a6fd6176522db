import Locking
import Clocks
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A thread that owns a set of file descriptors and timers and sleeps in `poll(2)` until one of
/// them is ready, a timer is due, or another thread hands it work.
///
/// There is no periodic wake-up: with no timer scheduled the thread sleeps until something
/// happens. Everything a loop runs — fd handlers, timers, submitted work — runs on its thread,
/// one at a time, which is what lets a libdbus connection have exactly one owner.
public final class EventLoop: Sendable {
    /// Work handed to the loop from any thread.
    typealias Work = @Sendable () -> Void

    private struct Shared {
        var work: [Work] = []
        var stopping = false
    }

    private let shared = Locked(Shared())
    /// A pipe other threads write to so that `poll` returns when work arrives.
    private let wakeDescriptor: Int32
    private let wakeWriter: Int32
    private let thread = Locked<pthread_t?>(nil)
    private let threadID = Atomic<UInt>(0)
    private let finished = Atomic<Bool>(false)
    // Confined to the loop's thread: every access happens inside `run`, in handlers it calls,
    // or in work submitted with `execute`, all of which run on that one thread.
    nonisolated(unsafe) private var state = LoopState()

    /// Creates the loop and starts its thread.
    public init() throws(BusError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw BusError(.failed, "pipe: \(String(cString: strerror(errno)))") }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wakeDescriptor = ends[0]
        wakeWriter = ends[1]
        let box = Unmanaged.passRetained(self).toOpaque()
        var handle = pthread_t()
        let rc = pthread_create(&handle, nil, { argument in
            guard let argument else { return nil }
            let loop = Unmanaged<EventLoop>.fromOpaque(argument).takeRetainedValue()
            loop.run()
            return nil
        }, box)
        guard rc == 0 else {
            Unmanaged<EventLoop>.fromOpaque(box).release()
            throw BusError(.failed, "pthread_create: \(String(cString: strerror(rc)))")
        }
        thread.withLock { $0 = handle }
    }

    deinit {
        close(wakeDescriptor)
        close(wakeWriter)
    }

    /// `true` on the loop's own thread.
    public var isCurrent: Bool { threadID.load(ordering: .acquiring) == UInt(bitPattern: Int(bitPattern: pthread_self())) }

    /// Runs `work` on the loop's thread, after whatever was submitted before it.
    /// Work submitted after ``stop()`` is dropped, and the answer is `false`.
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        let (accepted, first) = shared.withLock { shared -> (Bool, Bool) in
            guard !shared.stopping else { return (false, false) }
            shared.work.append(work)
            return (true, shared.work.count == 1)
        }
        // Only the first item of a batch writes to the pipe: the loop takes the whole queue at the
        // top of each turn, so items that join a queue already waiting are taken with it. A burst
        // of store completions then costs one write(2) and one wake-up, not one each.
        if first { wake() }
        return accepted
    }

    /// Ends the loop after the work already submitted has run. Waits for the thread to finish
    /// unless called from the loop itself, which cannot wait for its own end: then the thread is
    /// detached, and ends once the call returns to the loop.
    public func stop() {
        shared.withLock { $0.stopping = true }
        wake()
        guard let handle = thread.withLock({ h -> pthread_t? in defer { h = nil }; return h }) else { return }
        if isCurrent { pthread_detach(handle) } else { pthread_join(handle, nil) }
    }

    /// `true` once the loop's thread has ended.
    public var hasFinished: Bool { finished.load(ordering: .acquiring) }

    private func wake() {
        // A full pipe already means "wake up"; the write may then fail harmlessly.
        var one: UInt8 = 1
        _ = write(wakeWriter, &one, 1)
    }

    // MARK: On the loop's thread

    /// Watches `descriptor`; `events` is asked before each sleep (so interest may change, e.g.
    /// POLLOUT only while there is something to write) and `handler` gets the ready events.
    /// Call on the loop's thread.
    func watch(_ descriptor: Int32, events: @escaping () -> Int16, handler: @escaping (Int16) -> Void) -> UInt64 {
        state.nextID += 1
        state.sources[state.nextID] = LoopState.Source(descriptor: descriptor, events: events, handler: handler)
        return state.nextID
    }

    func unwatch(_ id: UInt64) { state.sources[id] = nil }

    /// Runs `handler` once `delay` has passed. Call on the loop's thread.
    func schedule(after delay: Duration, _ handler: @escaping () -> Void) -> UInt64 {
        state.nextID += 1
        let deadline = MonotonicClock.microseconds + delay.wholeMicroseconds
        state.timers[state.nextID] = LoopState.Timer(deadline: deadline, handler: handler)
        return state.nextID
    }

    func cancelTimer(_ id: UInt64) { state.timers[id] = nil }

    /// Runs after every wake-up, once the ready sources were handled (the connection drains its
    /// incoming queue here, whatever woke the loop).
    func afterEachWakeUp(_ hook: @escaping () -> Void) { state.hooks.append(hook) }

    /// Runs once when the loop ends, on its thread.
    func onStop(_ hook: @escaping () -> Void) { state.stopHooks.append(hook) }

    private func run() {
        threadID.store(UInt(bitPattern: Int(bitPattern: pthread_self())), ordering: .releasing)
        var descriptors: [pollfd] = []
        var ids: [UInt64] = []
        // Submitted work is taken by swapping buffers, so neither side allocates once both have
        // grown, where copying the queue out and emptying it would make a new buffer every wake-up.
        var work: [Work] = []
        while true {
            let stopping = shared.withLock { s -> Bool in
                swap(&s.work, &work)
                return s.stopping
            }
            for item in work { item() }
            work.removeAll(keepingCapacity: true)
            runDueTimers()
            for hook in state.hooks { hook() }
            if stopping || state.quit { break }

            descriptors.removeAll(keepingCapacity: true)
            ids.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0))
            ids.append(0)
            for (id, source) in state.sources {
                descriptors.append(pollfd(fd: source.descriptor, events: source.events(), revents: 0))
                ids.append(id)
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), pollTimeout())
            if ready < 0 && errno != EINTR { break }
            if ready <= 0 { continue }
            if descriptors[0].revents != 0 {
                var sink = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
                while withUnsafeMutableBytes(of: &sink, { read(wakeDescriptor, $0.baseAddress, $0.count) }) > 0 {}
            }
            for index in 1..<descriptors.count where descriptors[index].revents != 0 {
                state.sources[ids[index]]?.handler(descriptors[index].revents)
            }
        }
        for hook in state.stopHooks { hook() }
        // When the loop ends through `quit()` (the bus went away) rather than `stop()`, `execute`
        // kept accepting work until now. That work still runs, once, so what it promised happens
        // (a call's completion, a resumed continuation); the stop hooks have shut everything, so
        // it finds the connection closed. From here on `execute` refuses.
        let accepted = shared.withLock { shared -> [Work] in
            shared.stopping = true
            defer { shared.work.removeAll() }
            return shared.work
        }
        for item in accepted { item() }
        state = LoopState()
        finished.store(true, ordering: .releasing)
    }

    /// Ends the loop from its own thread, after the current wake-up.
    func quit() { state.quit = true }

    private func runDueTimers() {
        guard !state.timers.isEmpty else { return }
        let now = MonotonicClock.microseconds
        // Most wake-ups are for messages, with timers pending but none due: look before collecting.
        guard state.timers.values.contains(where: { $0.deadline <= now }) else { return }
        let due = state.timers.filter { $0.value.deadline <= now }.sorted { $0.value.deadline < $1.value.deadline }
        for (id, timer) in due where state.timers.removeValue(forKey: id) != nil {
            timer.handler()
        }
    }

    private func pollTimeout() -> Int32 {
        guard let next = state.timers.values.lazy.map(\.deadline).min() else { return -1 }
        let remaining = next - MonotonicClock.microseconds
        if remaining <= 0 { return 0 }
        // Round up so a timer is never woken for a moment before its deadline.
        return Int32(clamping: (remaining + 999) / 1000)
    }
}

/// What only the loop's thread touches.
private struct LoopState {
    struct Source {
        var descriptor: Int32
        var events: () -> Int16
        var handler: (Int16) -> Void
    }
    struct Timer {
        var deadline: Int64
        var handler: () -> Void
    }
    var nextID: UInt64 = 0
    var sources: [UInt64: Source] = [:]
    var timers: [UInt64: Timer] = [:]
    var hooks: [() -> Void] = []
    var stopHooks: [() -> Void] = []
    var quit = false
}
