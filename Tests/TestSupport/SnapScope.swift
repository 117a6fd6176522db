// A snap's cgroup, made by hand: what snapd makes for each snap app it starts.

import Foundation

/// A `snap.NAME.NAME.scope` cgroup (in the `pids` hierarchy, the one a test may write to here) that
/// a test process moves into, so the broker reads it as the snap `NAME` in `/proc/PID/cgroup`, as
/// it reads a process snapd started. Removed when released, once its processes have gone.
public final class SnapScope: Sendable {
    static let hierarchy = "/sys/fs/cgroup/pids"
    /// The scope's `cgroup.procs`: a process writes its pid there to move itself in.
    public let processes: String
    private let directory: String

    /// Whether this test may make cgroups (root, with a writable cgroup file system).
    public static var isPossible: Bool { access(hierarchy, W_OK) == 0 }

    public init(snap name: String) throws {
        directory = "\(Self.hierarchy)/snap.\(name).\(name).scope"
        processes = directory + "/cgroup.procs"
        guard mkdir(directory, 0o755) == 0 || errno == EEXIST else {
            throw TestSupportError("\(directory) cannot be made: errno \(errno)")
        }
    }

    deinit { rmdir(directory) }
}
