import Testing
@testable import MediaBroker
@testable import BrokerCore

/// What becomes of an asset once the store answered, without a bus or a store: announced when
/// new, kept and tried again while the disk refuses it, reported when it cannot be stored.
@Suite("RecordingFollowUp: recording after the store answers")
struct RecordingFollowUpTests {
    static let asset = MediaAsset(title: "Song", appID: "org.example.App", started: 1_000, ended: 2_000, listened: 1_000, source: .mpris)
    static let full = StoreError.diskFull(SQLiteError(code: .full, message: "database or disk is full"))
    static var record: RecordingFollowUp<StoreError>.Record { RecordingFollowUp<StoreError>.Record(asset: asset, openKey: ":1.5 1-1", completion: nil) }

    @Test("a new asset is announced with its id, then its caller is answered")
    func announced() {
        var queue = RecordingFollowUp<StoreError>()
        var stored = Self.asset
        stored.id = 42
        #expect(queue.answered(.success(InsertOutcome(id: 42, wasNew: true)), for: Self.record) == [.announce(stored), .complete])
    }

    @Test("a listen delivered twice is announced once")
    func announcedOnce() {
        var queue = RecordingFollowUp<StoreError>()
        #expect(queue.answered(.success(InsertOutcome(id: 42, wasNew: false)), for: Self.record) == [.complete])
    }

    @Test("after a full disk: kept in memory, one retry timer, no answer to its caller until it is stored")
    func retryAfterFullDisk() {
        var queue = RecordingFollowUp<StoreError>()
        let first = queue.answered(.failure(Self.full), for: Self.record)
        #expect(first.contains(.armRetry(after: .seconds(1))) && !first.contains(.complete))
        #expect(queue.answered(.failure(Self.full), for: Self.record) == [])
        #expect(queue.takeForRetry().count == 2)
        let recovered = queue.answered(.success(InsertOutcome(id: 7, wasNew: true)), for: Self.record)
        #expect(recovered.contains { if case .log(.info, let line) = $0 { line.contains("can be written again") } else { false } })
        #expect(recovered.last == .complete)
    }

    @Test("past the bound the record is dropped, said at error level, and its caller hears the failure")
    func dropped() {
        var queue = RecordingFollowUp<StoreError>()
        for _ in 0..<RetryQueue<RecordingFollowUp<StoreError>.Record>.maximum { _ = queue.answered(.failure(.readOnly(SQLiteError(code: .readOnly, message: "read-only"))), for: Self.record) }
        let steps = queue.answered(.failure(.readOnly(SQLiteError(code: .readOnly, message: "read-only"))), for: Self.record)
        #expect(steps.count == 2 && steps.last == .complete)
        #expect(steps.contains { if case .log(.error, let line) = $0 { line.contains("dropped") } else { false } })
    }

    @Test("a failure that will not pass is reported at once, not retried")
    func notTransient() {
        var queue = RecordingFollowUp<StoreError>()
        let steps = queue.answered(.failure(.closed), for: Self.record)
        #expect(steps.count == 2 && steps.last == .complete)
        #expect(queue.retry.waiting.isEmpty)
    }

    @Test("stopping gives back what waits, with one line counting the listens the next start finishes")
    func stopping() {
        var queue = RecordingFollowUp<StoreError>()
        _ = queue.answered(.failure(Self.full), for: Self.record)
        _ = queue.answered(.failure(Self.full), for: RecordingFollowUp<StoreError>.Record(asset: Self.asset, openKey: nil, completion: nil))
        let (lost, line) = queue.stop()
        #expect(lost.count == 2)
        #expect(line?.contains("2 assets") == true && line?.contains("1 of them listens") == true)
        #expect(queue.stop().log == nil)
    }
}

extension RecordingFollowUp {
    /// The steps for the store's answer, in order.
    mutating func answered(_ result: Result<InsertOutcome, Failure>, for record: Record) -> [Step] {
        var steps: [Step] = []
        answered(result, for: record) { steps.append($0) }
        return steps
    }
}
