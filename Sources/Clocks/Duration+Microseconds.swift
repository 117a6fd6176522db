extension Duration {
    /// The duration in whole microseconds (the unit of every time the broker keeps and sends),
    /// rounded toward zero and saturating at the ends of `Int64`.
    public var wholeMicroseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000).partialValue
    }
}
