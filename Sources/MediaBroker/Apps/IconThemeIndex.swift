/// One icon theme's `index.theme`, per the freedesktop Icon Theme spec: its parents and its
/// directories with their sizes and types.
///
/// Lenient: a directory listed without a group or without a valid `Size` is skipped; unknown
/// `Type`s count as `Threshold` (the spec's default); a directory path that is absolute or climbs
/// with `..` is skipped; sizes are bounded so no arithmetic on them can overflow.
struct IconThemeIndex: Sendable {
    enum DirectoryType: Sendable { case fixed, scalable, threshold }

    struct Directory: Equatable, Sendable {
        /// Relative to the theme directory, e.g. `48x48/apps` or `48x48@2/apps`.
        var path: String
        var size: Int
        var scale: Int
        var type: DirectoryType
        var minSize: Int
        var maxSize: Int
        var threshold: Int

        /// How many pixels wide the icons in this directory are drawn at their nominal size.
        var pixelSize: Int { size * scale }

        /// The spec's `DirectorySizeDistance` for `pixels` at scale 1, with the thresholds of a
        /// `Threshold` directory as its bounds (the spec's pseudo-code uses `MinSize`/`MaxSize`
        /// there, which a `Threshold` directory does not define: a known erratum).
        func distance(toPixels pixels: Int) -> Int {
            switch type {
            case .fixed:
                return abs(pixelSize - pixels)
            case .scalable:
                if pixels < minSize * scale { return minSize * scale - pixels }
                if pixels > maxSize * scale { return pixels - maxSize * scale }
                return 0
            case .threshold:
                let low = (size - threshold) * scale, high = (size + threshold) * scale
                if pixels < low { return low - pixels }
                if pixels > high { return pixels - high }
                return 0
            }
        }
    }

    static let group = "Icon Theme"
    /// Sizes, scales and thresholds outside 0…this are ignored.
    static let largestValue = 1 << 16

    let name: String
    let inherits: [String]
    let directories: [Directory]

    /// Parses `index.theme` of the theme called `name`; nil without an `[Icon Theme]` group.
    init?(name: String, parsing bytes: [UInt8]) {
        let file = KeyFile(parsing: bytes)
        guard let main = file.groups[Self.group] else { return nil }
        self.name = name
        inherits = main["Inherits"].map { KeyFile.list($0, separator: ",") } ?? []
        var seen: Set<String> = []
        var directories: [Directory] = []
        let listed = ["Directories", "ScaledDirectories"].flatMap { main[$0].map { KeyFile.list($0, separator: ",") } ?? [] }
        for path in listed where seen.insert(path).inserted {
            guard !path.hasPrefix("/"), !path.split(separator: "/").contains(".."),
                  let keys = file.groups[path], let size = Self.number(keys["Size"]), size > 0 else { continue }
            let type: DirectoryType
            switch keys["Type"]?.trimmingSpaces() {
            case "Fixed": type = .fixed
            case "Scalable": type = .scalable
            default: type = .threshold
            }
            directories.append(Directory(
                path: path, size: size, scale: max(1, Self.number(keys["Scale"]) ?? 1), type: type,
                minSize: Self.number(keys["MinSize"]) ?? size, maxSize: Self.number(keys["MaxSize"]) ?? size,
                threshold: Self.number(keys["Threshold"]) ?? 2))
        }
        self.directories = directories
    }

    private static func number(_ raw: String?) -> Int? {
        guard let raw, let value = Int(raw.trimmingSpaces()), value >= 0, value <= largestValue else { return nil }
        return value
    }
}
