/// Where a history's art files live: `artwork/` beside the database file
/// (`$XDG_DATA_HOME/media-broker/artwork/`), each named by its content hash and image type. The
/// database stores the file's name only; readers hand out the absolute path.
enum ArtworkFolder {
    /// The folder for the database at `databasePath`; `nil` for a database in memory.
    static func path(besideDatabase databasePath: String) -> String? {
        guard databasePath.hasPrefix("/"), let slash = databasePath.lastIndex(of: "/") else { return nil }
        return String(databasePath[..<slash]) + "/artwork"
    }

    /// The file name an asset's `artwork` path stores: only a name the broker itself makes (a
    /// hash and an image extension), never a path elsewhere.
    static func fileName(of path: String) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let parts = name.split(separator: ".")
        guard parts.count == 2, parts[0].utf8.count == 64, parts[0].utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }),
              ["png", "jpg", "webp"].contains(parts[1]) else { return nil }
        return name
    }
}
