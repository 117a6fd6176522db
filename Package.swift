// swift-tools-version:6.0
//
// The architecture, bottom to top:
//   CDBus, CSQLite, CIntl C system libraries (module map + shim header); CIntl is glibc's
//                         gettext and locale formats
//   SwiftDBus             the only importer of CDBus: typed values, names, messages,
//                         a connection with one owner thread, exported objects
//   BrokerCore            the broker's policy: listening rules, the players core, recording,
//                         moments, who may read, the settings — events in, what to do out; it
//                         imports no bus, no SQLite and no C library, so it does no I/O
//   MediaBroker           the daemon's runtimes around the core: bus, history store (the only
//                         importer of CSQLite), threads, files
//   MediaDonationClient   the public library journaling apps use
//   MediaBrokerVersion    the single source of the version string
//   Clocks                the monotonic and wall clocks, and Duration in microseconds
//   Locking               the one lock (a pthread mutex ThreadSanitizer sees) and its conditions
//   AssetContract         the asset a{sv} declared once: keys, types, limits, meanings
//   Localization          the person's language: gettext's catalogs (domain media-broker) and
//                         the locale's formats, for the windows, notifications, broker-ctl
//                         and the client library's errors
//   ClientMomentText      a moment the client library read, worded in the person's language
//   CGtk                  GTK 4 and libadwaita (module map + shim header)
//   CWaylandForeign       xdg-foreign v2 on GTK's Wayland connection, which GTK 4.8 lacks (C)
//   SwiftGtk              the only importer of CGtk and CWaylandForeign: widgets, signals, the main loop
//   PickerChannel         what the broker and its picker say over their private socket
//   MediaPicker           the picker and settings windows, on SwiftGtk and the client library
//   media-broker, broker-ctl, media-broker-picker   thin executables on top
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "MediaBroker",
    products: [
        .executable(name: "media-broker", targets: ["media-broker"]),
        .executable(name: "broker-ctl", targets: ["broker-ctl"]),
        .executable(name: "media-broker-picker", targets: ["media-broker-picker"]),
        .library(name: "MediaDonationClient", targets: ["MediaDonationClient"]),
    ],
    targets: [
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CIntl"),
        .systemLibrary(name: "CGtk", pkgConfig: "libadwaita-1", providers: [.apt(["libadwaita-1-dev", "libgtk-4-dev"])]),
        // xdg-foreign v2 for a window of another program as the picker's parent; the protocol code
        // wayland-scanner made is committed (include/CWaylandForeign.h says how to make it again).
        .target(name: "CWaylandForeign", linkerSettings: [.linkedLibrary("wayland-client")]),

        .target(name: "MediaBrokerVersion", swiftSettings: strict),
        .target(name: "Clocks", swiftSettings: strict),
        .target(name: "Locking", swiftSettings: strict),
        .target(name: "AssetContract", swiftSettings: strict),
        .target(name: "BoundedFile", swiftSettings: strict),
        .target(name: "Localization", dependencies: ["CIntl"], swiftSettings: strict),
        .target(name: "SwiftDBus", dependencies: ["CDBus", "Clocks", "Locking"], swiftSettings: strict),
        .target(name: "SwiftGtk", dependencies: ["CGtk", "CWaylandForeign"], swiftSettings: strict),
        .target(name: "PickerChannel", swiftSettings: strict),
        .target(name: "BrokerCore", dependencies: ["Clocks", "AssetContract"], swiftSettings: strict),
        .target(name: "MediaBroker", dependencies: ["BrokerCore", "SwiftDBus", "CSQLite", "Clocks", "Locking", "MediaBrokerVersion", "AssetContract", "PickerChannel", "BoundedFile", "Localization"], swiftSettings: strict),
        .target(name: "MediaDonationClient", dependencies: ["SwiftDBus", "Clocks", "MediaBrokerVersion", "AssetContract", "Localization"], swiftSettings: strict),
        .target(name: "ClientMomentText", dependencies: ["MediaDonationClient", "Localization"], swiftSettings: strict),
        .target(name: "MediaPicker", dependencies: ["SwiftGtk", "PickerChannel", "MediaDonationClient", "MediaBrokerVersion", "BoundedFile", "Clocks", "Localization", "ClientMomentText"], swiftSettings: strict),

        .executableTarget(name: "media-broker", dependencies: ["MediaBroker", "Localization"], swiftSettings: strict),
        .executableTarget(name: "broker-ctl", dependencies: ["MediaDonationClient", "MediaBrokerVersion", "AssetContract", "Clocks", "Localization", "ClientMomentText"], swiftSettings: strict),
        .executableTarget(name: "media-broker-picker", dependencies: ["MediaPicker", "Localization"], swiftSettings: strict),

        // Shared helpers for tests: private buses, child processes, waiting with deadlines.
        .target(name: "TestSupport", dependencies: ["Locking"], path: "Tests/TestSupport", swiftSettings: strict),

        // What the core's tests and the runtime's share: times, tracks, a scripted player's listening.
        .target(name: "CoreFixtures", dependencies: ["BrokerCore"], path: "Tests/CoreFixtures", swiftSettings: strict),

        .testTarget(name: "BrokerCoreTests", dependencies: ["BrokerCore", "CoreFixtures", "AssetContract", "Clocks"], swiftSettings: strict),
        .testTarget(name: "SwiftDBusTests", dependencies: ["SwiftDBus", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MediaBrokerTests", dependencies: ["BrokerCore", "CoreFixtures", "MediaBroker", "AssetContract", "PickerChannel", "BoundedFile", "Clocks", "SwiftDBus", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MediaPickerTests", dependencies: ["MediaPicker", "MediaDonationClient", "PickerChannel", "ClientMomentText"], swiftSettings: strict),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "MediaDonationClientTests", dependencies: ["MediaDonationClient", "SwiftDBus"], swiftSettings: strict),
        .testTarget(name: "BrokerCtlTests", dependencies: ["broker-ctl", "MediaDonationClient", "TestSupport", "AssetContract"], swiftSettings: strict),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["MediaDonationClient", "BrokerCore", "MediaBroker", "AssetContract", "SwiftDBus", "TestSupport", "media-broker", "broker-ctl",
                           "media-broker-picker"],
            swiftSettings: strict),
        .testTarget(name: "PackagingTests", dependencies: ["broker-ctl", "TestSupport", "media-broker", "AssetContract"], swiftSettings: strict),
    ]
)
