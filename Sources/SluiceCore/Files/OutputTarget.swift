import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What a path a user named for output is, once its symbolic links are followed, and how to open it.
package struct OutputTarget {
    /// What the path names.
    package enum Kind: Equatable {
        /// Nothing: a file is to be created at ``OutputTarget/resolvedPath``.
        case absent
        /// An existing regular file.
        case regular
        /// A character or block device (a terminal among them).
        case device
        /// A FIFO, whose opening waits for a reader.
        case fifo
    }

    /// The path as named.
    let path: String
    /// The path with the symbolic links of its last component followed: where a new file goes,
    /// so that a dangling link gets its target created and stays a link.
    let resolvedPath: String
    package let kind: Kind
    private let role: String
    private let stage: String

    /// How many links a path may go through, as the kernel's own limit (`MAXSYMLINKS`).
    private static let maximumLinks = 40

    /// Reads what `path` names, its links followed by the kernel (so `/dev/stdout`, a link to
    /// `/proc/self/fd/1`, names whatever standard output is); for a path that names nothing, follows
    /// its dangling links to where a new file goes.
    /// - Throws: `.fileIO` for a directory, a socket, a loop of links, or what `stat` refuses.
    package init(path: String, role: String, stage: String) throws(SluiceError) {
        self.path = path
        self.role = role
        self.stage = stage
        guard !path.isEmpty else {
            throw SluiceError(kind: .fileIO, stage: stage, message: "\(role) needs a path; it is empty")
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            guard errno == ENOENT else { throw OutputTarget.failure(role: role, path: path, stage: stage, errno) }
            resolvedPath = try OutputTarget.creationPath(of: path, role: role, stage: stage)
            kind = .absent
            return
        }
        kind = try OutputTarget.kind(of: status.st_mode, role: role, path: path, stage: stage)
        resolvedPath = kind == .regular ? OutputTarget.canonical(path) ?? path : path
    }

    /// What a mode says the node is; throws for a directory or a socket.
    private static func kind(of mode: mode_t, role: String, path: String, stage: String) throws(SluiceError) -> Kind {
        switch mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFCHR, S_IFBLK: return .device
        case S_IFIFO: return .fifo
        case S_IFDIR:
            throw SluiceError(kind: .fileIO, stage: stage, message: "cannot write \(role) to \(path): it is a directory")
        default:
            throw SluiceError(kind: .fileIO, stage: stage, message: "cannot write \(role) to \(path): it is a socket, which cannot be opened as a file")
        }
    }

    /// Where a new file for `path` goes: `path` itself, or the end of its chain of dangling links
    /// (curl's `fopen` creates a dangling link's target the same way).
    private static func creationPath(of path: String, role: String, stage: String) throws(SluiceError) -> String {
        var current = path
        for _ in 0...maximumLinks {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            guard let target = linkTarget(of: current) else { throw failure(role: role, path: path, stage: stage, errno) }
            current = target.hasPrefix("/") ? target : folder(of: current) + "/" + target
        }
        throw failure(role: role, path: path, stage: stage, ELOOP)
    }

    /// The absolute path with every link resolved, for an existing file.
    private static func canonical(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A new name beside the resolved path for a staging file: hidden, unique, and marked as
    /// Sluice's (`.NAME.UUID.sluice-part`).
    func stagingPath() -> String {
        let name = resolvedPath.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? "output"
        return OutputTarget.folder(of: resolvedPath) + "/.\(name).\(UUID().uuidString).sluice-part"
    }

    /// Creates a new file at `at` (the resolved path by default), failing if anything is there.
    func create(at file: String? = nil, permissions: mode_t) throws(SluiceError) -> Int32 {
        let descriptor = open(file ?? resolvedPath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else {
            let code = errno
            guard code == ENOENT else { throw OutputTarget.failure(role: role, path: path, stage: stage, code) }
            let folder = OutputTarget.folder(of: resolvedPath)
            throw SluiceError(kind: .fileIO, stage: stage, message: "cannot write \(role) to \(path): the folder \(folder) does not exist")
        }
        return descriptor
    }

    /// Opens the existing regular file for writing, without emptying it.
    func openExisting() throws(SluiceError) -> Int32 {
        let descriptor = open(resolvedPath, O_WRONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw OutputTarget.failure(role: role, path: path, stage: stage, errno) }
        return try verified(descriptor)
    }

    /// Opens a device, FIFO or terminal for writing, without blocking: writes that cannot go at
    /// once wait in ``SpecialFileWriter``. A FIFO with no reader is opened again every 10 ms
    /// until one comes or the task is cancelled.
    package func openSpecial() throws(SluiceError) -> Int32 {
        while true {
            let descriptor = open(resolvedPath, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            if descriptor >= 0 { return try verified(descriptor) }
            let code = errno
            if code == EINTR { continue }
            guard code == ENXIO, kind == .fifo else {
                throw OutputTarget.failure(role: role, path: path, stage: stage, code)
            }
            if SpecialFileWriter.isTaskCancelled { throw .cancelled(url: nil, stage: stage) }
            usleep(10_000)
        }
    }

    /// `descriptor`, once `fstat` shows it is still the kind of node the path named when it was
    /// read: a path swapped between the look and the opening (another kind of node, a link to
    /// elsewhere) is refused rather than written, as curl's CVE-2023-32001 taught.
    private func verified(_ descriptor: Int32) throws(SluiceError) -> Int32 {
        var status = stat()
        let opened = fstat(descriptor, &status) == 0 ? try? OutputTarget.kind(of: status.st_mode, role: role, path: path, stage: stage) : nil
        guard opened == kind else {
            close(descriptor)
            throw SluiceError(kind: .fileIO, stage: stage, message: "cannot write \(role) to \(path): it changed while it was being opened")
        }
        return descriptor
    }

    /// Refuses a device or FIFO this process may not write, before anything is sent: the
    /// opening itself waits for the first byte.
    func checkWritable() throws(SluiceError) {
        guard access(resolvedPath, W_OK) == 0 else { throw OutputTarget.failure(role: role, path: path, stage: stage, errno) }
    }

    /// The folder part of a path: `.` for a bare name, `/` for a name at the root.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func linkTarget(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func failure(role: String, path: String, stage: String, _ code: Int32) -> SluiceError {
        SluiceError(kind: .fileIO, stage: stage, message: "cannot write \(role) to \(path): \(String(cString: strerror(code)))")
    }
}
