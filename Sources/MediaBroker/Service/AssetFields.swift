public import SwiftDBus

extension MediaAsset {
    /// The asset as the contract's `a{sv}`: unknown values are absent keys, never empty strings.
    public var fields: DBusValue {
        var map: [String: DBusValue] = [
            "title": .string(title),
            "app_id": .string(appID),
            "started": .int64(started),
            "ended": .int64(ended),
            "listened": .int64(listened),
            "source": .string(source.rawValue),
        ]
        if let id { map["id"] = .int64(id) }
        if !artists.isEmpty {
            map["artists"] = .strings(artists)
            map["artist"] = .string(artists.joined(separator: ", "))
        }
        func put(_ key: String, _ text: String?) {
            if let text, !text.isEmpty { map[key] = .string(text) }
        }
        put("album", album)
        put("app_name", appName)
        put("app_icon", appIcon)
        put("kind", kind?.rawValue)
        if let length { map["length"] = .int64(length) }
        return .vardict(map)
    }
}
