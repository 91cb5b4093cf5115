import Foundation

/// A child process started with `posix_spawn`, not Foundation's `Process`: on Linux,
/// `Process.run()` reads `/proc/self/fd` with a 256-byte over-read of each entry
/// (swift-corelibs-foundation PR #5472, unfixed in Swift 6.3.1), which crashes the test process
/// when it holds more than about 1,350 descriptors, as the suite does for a few seconds while
/// its in-process tests hold their transports. Descriptors from 3 up are closed in the child,
/// as `Process` closes them.
struct ChildProcess {
    /// Why the child could not be started.
    struct SpawnError: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "posix_spawn failed: \(String(cString: strerror(code)))" }
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` and `_addclosefrom_np` (2.29 and 2.34),
    /// GNU extensions the Glibc module does not import, looked up in the process (RTLD_DEFAULT).
    private static let addChdir = unsafeBitCast(
        dlsym(nil, "posix_spawn_file_actions_addchdir_np"),
        to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self
    )
    private static let addClosefrom = unsafeBitCast(
        dlsym(nil, "posix_spawn_file_actions_addclosefrom_np"),
        to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self
    )

    /// The child's process ID.
    let processIdentifier: pid_t
    /// The reading ends of its standard output and standard error, when piped.
    private let output: Int32?
    private let error: Int32?

    /// Starts `executable` with `arguments` and `environment`, in `directory` when given; its
    /// standard output and error piped to the caller when `captures`, else to /dev/null.
    init(executable: URL, arguments: [String], environment: [String: String], directory: String?, captures: Bool = true) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipes: [[Int32]] = []
        if captures {
            for target in [STDOUT_FILENO, STDERR_FILENO] {
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else { throw SpawnError(code: errno) }
                posix_spawn_file_actions_adddup2(&actions, ends[1], target)
                pipes.append(ends)
            }
        } else {
            for target in [STDOUT_FILENO, STDERR_FILENO] {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            }
        }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        if let directory { _ = ChildProcess.addChdir(&actions, directory) }
        _ = ChildProcess.addClosefrom(&actions, 3)
        // The child starts with every signal at its default action and none blocked.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        for ends in pipes { close(ends[1]) }
        guard code == 0 else {
            for ends in pipes { close(ends[0]) }
            throw SpawnError(code: code)
        }
        processIdentifier = pid
        output = pipes.first?[0]
        error = pipes.last?[0]
    }

    /// Reads standard output and standard error to their ends (both at once, so that a child
    /// filling one pipe cannot stall), then waits for the child.
    /// - Returns: its exit status, or the signal that ended it; what it wrote to each.
    func finish() -> (status: Int32, signalled: Bool, output: Data, error: Data) {
        var collected: [Data] = [Data(), Data()]
        var open = [output, error].compactMap { $0 }
        var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty {
            descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), -1) >= 0 || errno == EINTR else { break }
            for entry in descriptors where entry.revents != 0 {
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    collected[entry.fd == output ? 0 : 1].append(contentsOf: buffer[..<count])
                } else if count == 0 || errno != EINTR {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        var status: Int32 = 0
        while waitpid(processIdentifier, &status, 0) < 0, errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which Swift does not import as macros.
        let signal = status & 0x7F
        return signal == 0 ? ((status >> 8) & 0xFF, false, collected[0], collected[1]) : (signal, true, collected[0], collected[1])
    }
}
