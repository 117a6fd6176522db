package import AssetContract

/// Which assets a purge deletes.
package typealias PurgeScope = HistoryScope<Microseconds>
