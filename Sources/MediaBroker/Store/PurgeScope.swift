public import AssetContract

/// Which assets a purge deletes.
public typealias PurgeScope = HistoryScope<Microseconds>
