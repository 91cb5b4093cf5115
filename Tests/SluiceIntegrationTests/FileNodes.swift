import Foundation
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

#if canImport(Glibc)
import Glibc
#endif

/// What `lstat` says of a path: enough to tell whether a writer replaced it or wrote through it.
struct FileNode: Equatable, CustomStringConvertible {
    let type: mode_t
    let inode: UInt
    let permissions: mode_t
    let links: UInt
    let device: UInt
    let size: Int64

    /// The node at `path`, its links not followed; `nil` when nothing is there.
    init?(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        type = status.st_mode & S_IFMT
        inode = UInt(status.st_ino)
        permissions = status.st_mode & 0o7777
        links = UInt(status.st_nlink)
        device = UInt(status.st_rdev)
        size = Int64(status.st_size)
    }

    var isCharacterDevice: Bool { type == S_IFCHR }
    var isFIFO: Bool { type == S_IFIFO }
    var isSymbolicLink: Bool { type == S_IFLNK }
    var isRegularFile: Bool { type == S_IFREG }

    var description: String {
        "type \(String(type, radix: 8)) inode \(inode) mode \(String(permissions, radix: 8)) links \(links) size \(size)"
    }
}

/// Nodes the output-path tests point writers at, made in a test's own folder: never the machine's
/// own devices.
enum FileNodes {
    /// Whether this process may make device nodes (`mknod` needs root, as in CI and most containers).
    static var canMakeDevices: Bool { geteuid() == 0 }

    /// A private copy of `/dev/null` (character device 1, 3) at `path`.
    static func null(at path: String) throws -> String {
        try device(at: path, major: 1, minor: 3)
    }

    /// A private copy of `/dev/zero` (character device 1, 5), which reads without end.
    static func zero(at path: String) throws -> String {
        try device(at: path, major: 1, minor: 5)
    }

    /// A private copy of `/dev/full` (character device 1, 7), whose every write fails with ENOSPC.
    static func full(at path: String) throws -> String {
        try device(at: path, major: 1, minor: 7)
    }

    private static func device(at path: String, major: UInt32, minor: UInt32) throws -> String {
        guard mknod(path, S_IFCHR | 0o666, dev_t(major << 8 | minor)) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EPERM) }
        return path
    }

    /// A FIFO at `path`.
    static func fifo(at path: String) throws -> String {
        guard mkfifo(path, 0o644) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return path
    }

    /// A regular file holding `text`, with `permissions`.
    @discardableResult
    static func file(at path: String, _ text: String, permissions: mode_t = 0o644) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, permissions)
        return path
    }

    /// A regular file holding `text`, with `permissions` and a second hard link `otherName`
    /// beside it: what a writer that replaces files breaks. Returns the path and its inode.
    static func hardLinked(
        at path: String, otherName: String, _ text: String = "old\n", permissions: mode_t = 0o600
    ) throws -> (path: String, inode: UInt) {
        try file(at: path, text, permissions: permissions)
        guard Glibc.link(path, otherName) == 0, let node = FileNode(path) else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return (path, node.inode)
    }

    /// A symbolic link at `path` to `target`, which need not exist.
    static func link(at path: String, to target: String) throws -> String {
        guard symlink(target, path) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return path
    }

    /// The bytes of a regular file.
    static func contents(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Reads a FIFO on a thread of its own, as another program would: it opens the FIFO (waiting for a
/// writer), reads to the end, and hands over what it read. With `stopAfter`, it closes its end
/// after that many bytes, as a reader that goes away does (`head -c`).
final class FIFOReader: Sendable {
    private let received = Locked<Data?>(nil)
    private let done = DispatchSemaphore(value: 0)
    private let path: String

    init(_ path: String, stopAfter limit: Int? = nil) {
        self.path = path
        Thread.detachNewThread { [received, done] in
            var data = Data()
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 {
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while limit.map({ data.count < $0 }) ?? true {
                    let count = read(descriptor, &buffer, limit.map { min(buffer.count, $0 - data.count) } ?? buffer.count)
                    if count < 0, errno == EINTR { continue }
                    guard count > 0 else { break }
                    data.append(contentsOf: buffer[..<count])
                }
                close(descriptor)
            }
            received.withLock { $0 = data }
            done.signal()
        }
    }

    /// What was read, once the writer is done. A writer that never opened the FIFO (it failed
    /// first) is stood in for by an open and close here, so the reader sees an empty end
    /// instead of waiting for good.
    func data() async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [done, received, path] in
                while done.wait(timeout: .now() + .milliseconds(10)) == .timedOut {
                    let standIn = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
                    if standIn >= 0 { close(standIn) }
                }
                done.signal()
                continuation.resume(returning: received.withLock { $0 } ?? Data())
            }
        }
    }

    /// What was read, as text.
    func text() async -> String {
        String(decoding: await data(), as: UTF8.self)
    }
}

/// Writes to a FIFO on a thread of its own, as another program would (`echo text > pipe`): it
/// opens the FIFO (waiting for a reader), writes `text` and closes it, as many times as asked.
final class FIFOWriter: Sendable {
    private let path: String
    private let finished = DispatchSemaphore(value: 0)

    init(_ path: String, _ text: String, times: Int = 1) {
        self.path = path
        Thread.detachNewThread { [finished] in
            // A reader that goes away early (`release`'s stand-in) is EPIPE here, not SIGPIPE.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            for _ in 0..<times {
                let descriptor = open(path, O_WRONLY | O_CLOEXEC)
                guard descriptor >= 0 else { break }
                _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                close(descriptor)
            }
            finished.signal()
        }
    }

    /// Lets a writer go that still waits for a reader (the code under test never opened the
    /// FIFO), by opening and closing it as a reader until the writer is done.
    func release() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [finished, path] in
                while finished.wait(timeout: .now() + .milliseconds(10)) == .timedOut {
                    let standIn = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
                    if standIn >= 0 { close(standIn) }
                }
                continuation.resume()
            }
        }
    }
}

/// Runs blocking work (waiting for a child process) on a thread of its own, so that it holds none
/// of the few cooperative threads every other test in the run needs.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
