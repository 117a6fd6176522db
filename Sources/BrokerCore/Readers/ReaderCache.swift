/// The readers of the connections that called lately, by unique name. A unique name is never
/// given to another connection while the bus runs, so an entry stays true until its connection
/// leaves (``forget(_:)``); a process that exits and whose pid is reused comes back under a new
/// unique name and is looked at afresh. Bounded: past ``capacity`` the oldest entry goes (and is
/// looked up again should that connection call again). Pure.
package struct ReaderCache {

    package init() {}
    static let capacity = 512

    private var readers: [String: Reader] = [:]
    private var order: [String] = []

    package func reader(of uniqueName: String) -> Reader? { readers[uniqueName] }

    package mutating func remember(_ reader: Reader, for uniqueName: String) {
        if readers.updateValue(reader, forKey: uniqueName) == nil { order.append(uniqueName) }
        if order.count > Self.capacity {
            let oldest = order.removeFirst()
            readers[oldest] = nil
        }
    }

    package mutating func forget(_ uniqueName: String) {
        guard readers.removeValue(forKey: uniqueName) != nil else { return }
        order.removeAll { $0 == uniqueName }
    }

    var count: Int { readers.count }
}
