/// The questions journaling apps ask of the history — `RecentMedia`'s page, `Moments`,
/// `MediaByID` — on any connection to it: the ``HistoryReader``'s own read-only one, or the store
/// thread's when the reader cannot answer (``HistoryStore/read(_:completion:)``).
struct HistoryReads {
    let connection: SQLiteDatabase

    /// Where the art of the assets read is kept, beside the database file.
    var artworkFolder: String? { ArtworkFolder.path(besideDatabase: connection.path) }
}
