/// What becomes of an asset once the store answered: announced when it is new, kept and tried
/// again when the disk refuses it for now (``RetryQueue``), reported otherwise. Pure: it hands
/// over the steps; the caller sends, arms and completes. `Failure` is the store's error.
package struct RecordingFollowUp<Failure: StoreFailure> {

    package init() {}
    /// An asset on its way to the store, and who waits for it (a `Donate` caller gets its id only
    /// for an asset on disk).
    package struct Record {
        package var asset: MediaAsset
        /// The words the player or app told, when a correction rule changed them.
        package var told: MediaAsset?
        /// The record of the listen in progress it finishes, removed in the same transaction.
        package var openKey: String?
        package var completion: (@Sendable (Result<InsertOutcome, Failure>) -> Void)?

        package init(asset: MediaAsset, told: MediaAsset? = nil, openKey: String?,
                     completion: (@Sendable (Result<InsertOutcome, Failure>) -> Void)?) {
            self.asset = asset
            self.told = told
            self.openKey = openKey
            self.completion = completion
        }
    }

    package enum Step: Equatable {
        /// Announce the stored asset (it has its id) with `MediaAdded`.
        case announce(MediaAsset)
        /// Arm the one retry timer; when it fires, ``takeForRetry()``.
        case armRetry(after: Duration)
        case log(LogLevel, String)
        /// Hand the store's answer to the record's completion.
        case complete
    }

    private(set) var retry = RetryQueue<Record>()

    /// The store answered `result` for `record`: `carryOut` is handed each step, in order.
    package mutating func answered(_ result: Result<InsertOutcome, Failure>, for record: Record, _ carryOut: (Step) -> Void) {
        switch result {
        case .success(let outcome):
            if outcome.wasNew {
                var stored = record.asset
                stored.id = outcome.id
                carryOut(.announce(stored))
            }
            if retry.stored() {
                let waiting = retry.waiting.count
                carryOut(.log(.info, "the history can be written again\(waiting == 0 ? "" : "; \(waiting) assets still waiting")"))
            }
        case .failure(let error) where error.isTransient:
            switch retry.refused(record) {
            case .dropped:
                carryOut(.log(.error, "could not record \"\(record.asset.title)\" from \(record.asset.appID): \(error); \(retry.waiting.count) assets already wait in memory, so this one is dropped"))
            case .kept:
                return
            case .keptArmTimer(let delay):
                carryOut(.log(.warning, "cannot write the history (\(error)); \(retry.waiting.count) assets kept in memory, retrying in \(delay.components.seconds) s"))
                return carryOut(.armRetry(after: delay))
            }
        case .failure(let error):
            carryOut(.log(.error, "could not record a listen from \(record.asset.appID): \(error)"))
        }
        carryOut(.complete)
    }

    /// The retry timer fired: the records to try again.
    package mutating func takeForRetry() -> [Record] { retry.takeForRetry() }

    /// The broker stops: what could not be written is lost from memory (a listen's checkpoint is
    /// still on disk and is finished by the next start); the line saying so, if any.
    package mutating func stop() -> (lost: [Record], log: String?) {
        let lost = retry.takeAll()
        guard !lost.isEmpty else { return ([], nil) }
        let listens = lost.filter { $0.openKey != nil }.count
        return (lost, "stopping with \(lost.count) assets that could not be written (\(listens) of them listens whose checkpoints the next start finishes)")
    }
}

/// What the recording steps need to know of a store's error.
package protocol StoreFailure: Error, CustomStringConvertible {
    /// Whether the same work may succeed later without anyone repairing the file (a full disk, a
    /// read-only folder): the asset is kept in memory and tried again.
    var isTransient: Bool { get }
}
