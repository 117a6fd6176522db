internal import Glibc

/// Starts another program from the broker — its picker, a person's journal app — as a desktop
/// starts one: standard input from `/dev/null`, every signal at its default and none blocked (the
/// broker ignores SIGPIPE and blocks its stop signals; a child must not inherit that), standard
/// output and error the broker's own, so what it says reaches the broker's log.
enum ProgramSpawn {
    /// glibc's `POSIX_SPAWN_SETSID`, which the Glibc module leaves out (it is behind `_GNU_SOURCE`).
    private static let newSession: Int32 = 0x80

    /// Starts `arguments[0]` with the rest and `environment`; its pid, or the C library's error
    /// number.
    /// - Parameters:
    ///   - searchingPath: look the program up on the broker's `PATH` when it has no slash, as GIO does.
    ///   - inNewSession: run it in a session of its own, apart from the broker's.
    ///   - descriptor: one of the broker's descriptors handed on under another number (`dup2`).
    static func start(_ arguments: [String], environment: [String: String], searchingPath: Bool = false, inNewSession: Bool = false,
                      handing descriptor: (from: Int32, to: Int32)? = nil) -> Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let descriptor { posix_spawn_file_actions_adddup2(&actions, descriptor.from, descriptor.to) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), none = sigset_t()
        sigfillset(&defaults)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | (inNewSession ? newSession : 0)))

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let failure = searchingPath ? posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
            : posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard failure == 0 else { return .failure(SpawnError(number: failure)) }
        return .success(pid)
    }

    /// `environment` with the activation token a notification server gave with the person's click,
    /// so the program started may take focus: `XDG_ACTIVATION_TOKEN` on Wayland, `DESKTOP_STARTUP_ID`
    /// on X11.
    static func environment(_ environment: [String: String], activationToken: String?) -> [String: String] {
        guard let activationToken else { return environment }
        return environment.merging(["XDG_ACTIVATION_TOKEN": activationToken, "DESKTOP_STARTUP_ID": activationToken]) { $1 }
    }

    /// Why a program could not be started: the C library's error number, and its words.
    struct SpawnError: Error {
        let number: Int32
        var description: String { String(cString: strerror(number)) }
    }
}
