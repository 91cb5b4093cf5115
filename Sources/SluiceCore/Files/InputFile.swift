import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a file a user named (a pipeline, a variables file, a cookie file, a certificate)
/// whatever the path names: a regular file, a device (`/dev/null` reads as empty, as with
/// curl's `-b /dev/null`), a FIFO or a process substitution (`<(...)`), up to a limit, so that
/// `/dev/zero` or a never-ending pipe is refused instead of filling memory. A path that cannot be
/// read is an ``Unreadable`` that says why in plain words: no such file, a directory, no
/// permission, too large, not UTF-8.
public enum InputFile {
    /// Why a file could not be read.
    public struct Unreadable: Error, Sendable, CustomStringConvertible {
        /// What the file is (`the cookie file`).
        public var role: String
        /// The path as named.
        public var path: String
        /// Why, in plain words (`no such file`, `it is a directory`, `Permission denied`).
        public var reason: String
        /// Whether nothing is at the path.
        public var isMissing = false

        /// `cannot read ROLE PATH: REASON`.
        public var description: String { "cannot read \(role) \(path): \(reason)" }
    }

    /// 64 MiB: the most a file read whole may hold unless a caller says otherwise.
    public static let defaultLimit = 64 << 20

    /// The bytes of the file at `path`.
    /// - Parameters:
    ///   - path: the path, relative to the working directory unless absolute.
    ///   - role: what the file is, for messages (`the cookie file`).
    ///   - limit: the most bytes it may hold.
    /// - Throws: ``Unreadable`` naming the file and the reason.
    public static func data(at path: String, role: String = "the file", limit: Int = defaultLimit) throws(Unreadable) -> Data {
        func failure(_ reason: String) -> Unreadable {
            Unreadable(role: role, path: path, reason: reason)
        }
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            guard errno == ENOENT else { throw failure(String(cString: strerror(errno))) }
            throw Unreadable(role: role, path: path, reason: "no such file", isMissing: true)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(String(cString: strerror(errno))) }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: throw failure("it is a directory")
        case S_IFREG where status.st_size > limit: throw failure("it holds \(status.st_size) bytes, more than the \(limit) it may")
        default: break
        }
        var data = Data()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw failure(String(cString: strerror(errno))) }
            if count == 0 { return data }
            guard data.count + count <= limit else { throw failure("it holds more than the \(limit) bytes it may") }
            data.append(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
        }
    }

    /// Whether `path` names a file that is there but has no size before it is read and can be
    /// read once only: a FIFO or a process substitution (`<(...)`), a device (`/dev/null`,
    /// `/dev/stdin` on a terminal or a pipe), a socket. `false` for a regular file, a directory,
    /// and a path that is not there or cannot be examined. Follows symbolic links; opens nothing,
    /// so a FIFO is not consumed.
    public static func isReadOnce(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let type = status.st_mode & S_IFMT
        return type != S_IFREG && type != S_IFDIR
    }

    /// The UTF-8 text of the file at `path`.
    /// - Throws: ``Unreadable`` as ``data(at:role:limit:)`` does, and when the bytes are not UTF-8.
    public static func text(at path: String, role: String = "the file", limit: Int = defaultLimit) throws(Unreadable) -> String {
        let bytes = try data(at: path, role: role, limit: limit)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Unreadable(role: role, path: path, reason: "it is not UTF-8 text")
        }
        return text
    }
}
