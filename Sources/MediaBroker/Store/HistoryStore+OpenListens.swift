import Clocks
import BrokerCore
/// Listens in progress, checkpointed so that a crash loses none (issue 3).
extension HistoryStore {
    /// Writes the checkpoint of a listen in progress under `key` (replacing any earlier one);
    /// durable when the completion runs.
    func saveOpenListen(
        key: String, asset: MediaAsset, checkpoint: Microseconds, completion: @escaping Completion<Void>
    ) {
        perform(.write, { database throws(StoreError) in
            try database.saveOpenListen(key: key, asset: asset, checkpoint: checkpoint)
        }, completion: completion)
    }

    /// Keeps an image secured from a player in the artwork folder (see
    /// ``HistoryDatabase/keepArtwork(_:now:)``), before the listen that names it is written.
    func keepArtwork(_ artwork: SecuredArtwork, completion: @escaping Completion<Void>) {
        perform(.write, { database throws(StoreError) in try database.keepArtwork(artwork, now: WallClock.now) }, completion: completion)
    }

    /// Every listen in progress, as last checkpointed — what a restarted broker picks up.
    func openListens(completion: @escaping Completion<[OpenListen]>) {
        perform({ database throws(StoreError) in try database.openListens() }, completion: completion)
    }

    /// Forgets a listen in progress without recording it (too short, discarded by an opt-out).
    func removeOpenListen(key: String, completion: @escaping Completion<Void>) {
        perform(.write, { database throws(StoreError) in try database.removeOpenListen(key: key) }, completion: completion)
    }

    /// Records the finished listen as an asset and forgets its checkpoint, in one transaction.
    /// `told`: the words the player told, when a correction rule changed them.
    func finishOpenListen(key: String, asset: MediaAsset, correctedFrom told: MediaAsset? = nil,
                          completion: @escaping Completion<InsertOutcome>) {
        perform(.write, { database throws(StoreError) in
            try database.finishOpenListen(key: key, asset: asset, correctedFrom: told)
        }, completion: completion)
    }
}
