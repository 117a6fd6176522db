public import FoundationEssentials
public import Localization

extension LocaleTime {
    /// The person's clock at `date`, in the process's time zone. `Localization` stays free of
    /// Foundation, so the clients' `Date` meets it here.
    public init(local date: Date) {
        self.init(localSecondsSinceEpoch: Int64(date.timeIntervalSince1970.rounded(.down)))
    }
}
