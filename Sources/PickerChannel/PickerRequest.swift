/// What the broker asks the picker: who is asking, why, which span of the history to offer and
/// how much may be picked. Sent once over the picker's channel when it starts.
public struct PickerRequest: Sendable, Equatable {
    /// The asking app's id (a Flatpak app id, or the desktop-file id of a host program), when known.
    public var appID: String?
    /// The name the person knows the app by, from its desktop file; nil when the broker could not
    /// tell which app asks (a script run by an interpreter): the picker then words it plainly.
    public var appName: String?
    /// The app's icon file, from its desktop file.
    public var appIcon: String?
    /// The app's own line ("Add music to today's entry").
    public var reason: String?
    /// The span of listens offered, in microseconds since the epoch.
    public var since: Int64
    public var until: Int64
    /// Whether more than one listen may be picked.
    public var multiple: Bool
    /// The window to be transient for, as portals spell it (`x11:XID`, `wayland:HANDLE`, or empty).
    public var parentWindow: String
    /// The D-Bus address of the bus the broker serves on, where the picker reads the history.
    public var busAddress: String
    /// The moment to open at, its listens ticked: a suggestion's (issue 35).
    public var openMoment: String?
    /// What the picked listens are for.
    public var purpose: Purpose

    public enum Purpose: String, Sendable, Equatable {
        /// Sent to the asking app.
        case share
        /// Put on the clipboard as text, for the person to paste into a journal that asks for
        /// nothing: a suggestion taken with no journal app chosen (issue 35).
        case copy
    }

    public init(appID: String?, appName: String?, appIcon: String?, reason: String?, since: Int64, until: Int64,
                multiple: Bool, parentWindow: String, busAddress: String, openMoment: String? = nil, purpose: Purpose = .share) {
        self.appID = appID
        self.appName = appName
        self.appIcon = appIcon
        self.reason = reason
        self.since = since
        self.until = until
        self.multiple = multiple
        self.parentWindow = parentWindow
        self.busAddress = busAddress
        self.openMoment = openMoment
        self.purpose = purpose
    }

    public var text: ChannelText {
        var text = ChannelText()
        if let appID { text.add("app_id", appID) }
        if let appName { text.add("app_name", appName) }
        if let appIcon { text.add("app_icon", appIcon) }
        if let reason { text.add("reason", reason) }
        text.add("since", String(since))
        text.add("until", String(until))
        text.add("multiple", multiple ? "true" : "false")
        text.add("parent_window", parentWindow)
        text.add("bus_address", busAddress)
        if let openMoment { text.add("open_moment", openMoment) }
        if purpose != .share { text.add("purpose", purpose.rawValue) }
        return text
    }

    public init(_ text: ChannelText) throws(ChannelError) {
        guard let since = text.value("since").flatMap({ Int64($0) }),
              let until = text.value("until").flatMap({ Int64($0) }), let busAddress = text.value("bus_address") else {
            throw .malformed("a request without its span or bus address")
        }
        let purpose = try text.value("purpose").map { value throws(ChannelError) in
            guard let purpose = Purpose(rawValue: value) else { throw .malformed("an unknown purpose") }
            return purpose
        }
        self.init(appID: text.value("app_id"), appName: text.value("app_name"), appIcon: text.value("app_icon"), reason: text.value("reason"),
                  since: since, until: until, multiple: text.value("multiple") != "false",
                  parentWindow: text.value("parent_window") ?? "", busAddress: busAddress, openMoment: text.value("open_moment"),
                  purpose: purpose ?? .share)
    }
}

/// What the person did in the picker.
public enum PickerAnswer: Sendable, Equatable {
    /// Shared these listens (by id, in the order shown), from this moment when one was open.
    case shared(assetIDs: [Int64], momentID: String?)
    /// Cancelled, or closed the window.
    case cancelled

    public var text: ChannelText {
        var text = ChannelText()
        switch self {
        case .cancelled:
            text.add("outcome", "cancelled")
        case .shared(let ids, let moment):
            text.add("outcome", "shared")
            if let moment { text.add("moment", moment) }
            for id in ids { text.add("asset", String(id)) }
        }
        return text
    }

    public init(_ text: ChannelText) throws(ChannelError) {
        switch text.value("outcome") {
        case "cancelled":
            self = .cancelled
        case "shared":
            var ids: [Int64] = []
            for value in text.values("asset") {
                guard let id = Int64(value), id > 0 else { throw .malformed("an asset id that is not a positive integer") }
                ids.append(id)
            }
            self = .shared(assetIDs: ids, momentID: text.value("moment"))
        default:
            throw .malformed("an answer that is neither shared nor cancelled")
        }
    }
}
