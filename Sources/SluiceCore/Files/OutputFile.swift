import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file Sluice writes at a path a user named: a download's destination, a report, a cookie file,
/// a load result. It writes through to what the path names, as curl's `-o` does, and replaces
/// nothing there:
/// - a symbolic link is followed; a dangling one gets its target created, and stays a link;
/// - a character device, a FIFO or a terminal (`/dev/null`, `/dev/stdout`, a named pipe) is
///   opened at the first byte, as curl opens its output, and written as it is, as the bytes come:
///   never truncated, renamed over or removed. A FIFO with no reader yet is waited for then, as
///   curl waits; cancelling the task ends the wait;
/// - an existing regular file is written in place, so it keeps its inode: its other hard links
///   see the new content, and its mode, owner and extended attributes stay, as with curl;
/// - a path that names nothing gets a new file, its mode `permissions` less the umask;
/// - a directory or a socket is refused with a ``SluiceError`` of kind `.fileIO` saying so, as
///   is anything the system refuses (no such folder, no permission), before a byte is sent.
///
/// When the new content reaches a regular file is the ``Replacement``.
///
/// The file is used by one thread at a time: written from one, committed from another only after
/// the writes (an `await` orders them).
public final class OutputFile: @unchecked Sendable {
    /// When the bytes written reach a regular file at the path.
    public enum Replacement: Sendable, Hashable {
        /// Nothing at the path changes until ``OutputFile/commit()``. The bytes go to a staging
        /// file beside it (``OutputFile/stagingPath``), which the commit renames into place when
        /// the path named nothing, or copies into the existing file in place (its inode kept).
        /// A file never committed (a cut transfer, an error) leaves the path as it was, and its
        /// staging file is removed. When no staging file can be made beside an existing file (a
        /// folder the user cannot write to), the file is written in place as ``asWritten``.
        /// A device or a FIFO takes the bytes as they come all the same.
        case onCommit
        /// The bytes reach the path as they are written, as curl's `-o` writes them: an existing
        /// file is emptied at the first write (or at the commit when nothing was written, so
        /// that an empty body leaves an empty file) and written in place; a new file is created
        /// at once. Nothing is ever removed: what was written stays when the writer stops early.
        case asWritten
        /// The file already holds the first `offset` bytes of what is written (a download
        /// resumed, ``Request/resumingFrom``): they are kept, anything past them cut, and the
        /// bytes written go after them, in place. The file must exist, as a regular file of at
        /// least `offset` bytes. A resumed download whose server sends the whole body writes from the start instead.
        case continuing(from: Int64)
    }

    /// What the bytes go to until the commit, and what the commit does.
    private enum Placement {
        /// A new file: staged at `staging`, renamed to `final`.
        case rename(staging: String, final: String)
        /// An existing regular file, open as `original`: staged at `staging`, copied into it.
        case copy(staging: String, original: Int32)
        /// A regular file written in place; `emptyPending` until the first write empties it.
        case inPlace(emptyPending: Bool)
        /// A device, a FIFO or a terminal, written through as the bytes come; opened at the first
        /// write or the commit (as curl opens its output at the first byte), so that a request
        /// that fails before its body never opens it, and a FIFO's reader never sees an end that
        /// no body came before.
        case special(OutputTarget)
    }

    /// The path as the user named it.
    public let path: String
    /// What the file is, for messages: `the download`, `the JUnit report`.
    private let role: String
    /// The stage named in errors.
    private let stage: String
    private var placement: Placement
    /// Where ``write(_:)-(UnsafeRawBufferPointer)`` writes: the staging file, the file itself, or the device.
    private var descriptor: Int32
    private var finished = false

    /// Opens what `path` names for writing; nothing is sent yet.
    /// - Parameters:
    ///   - path: the path as the user named it, relative to the working directory unless absolute.
    ///   - replacement: when the bytes reach a regular file.
    ///   - permissions: the mode of a file this creates, less the umask (an existing file keeps its own).
    ///   - role: what the file is, for messages (`the download`, `the cookie file`).
    ///   - stage: the stage named in errors.
    /// - Throws: `.fileIO` naming the path and the reason: a directory, a socket, a missing folder,
    ///   no permission; `.cancelled` when the task is cancelled while waiting for a FIFO's reader.
    public init(
        path: String, replacement: Replacement = .onCommit, permissions: mode_t = 0o666,
        role: String = "the file", stage: String = "output"
    ) throws(SluiceError) {
        self.path = path
        self.role = role
        self.stage = stage
        let target = try OutputTarget(path: path, role: role, stage: stage)
        if case .continuing(let offset) = replacement {
            descriptor = try OutputFile.openForContinuing(target, from: offset, role: role, path: path, stage: stage)
            placement = .inPlace(emptyPending: false)
            return
        }
        switch target.kind {
        case .absent:
            if replacement == .asWritten {
                descriptor = try target.create(permissions: permissions)
                placement = .inPlace(emptyPending: false)
            } else {
                let staging = target.stagingPath()
                descriptor = try target.create(at: staging, permissions: permissions)
                placement = .rename(staging: staging, final: target.resolvedPath)
                OutputFile.unfinished.withLock { _ = $0.insert(staging) }
            }
        case .regular:
            let original = try target.openExisting()
            let staging = replacement == .onCommit ? target.stagingPath() : nil
            if let staging, let stagingDescriptor = try? target.create(at: staging, permissions: 0o600) {
                descriptor = stagingDescriptor
                placement = .copy(staging: staging, original: original)
                OutputFile.unfinished.withLock { _ = $0.insert(staging) }
            } else {
                descriptor = original
                placement = .inPlace(emptyPending: true)
            }
        case .device, .fifo:
            try target.checkWritable()
            descriptor = -1
            placement = .special(target)
        }
    }

    /// Opens a regular file of at least `offset` bytes, cut to `offset` and positioned there.
    private static func openForContinuing(_ target: OutputTarget, from offset: Int64, role: String, path: String, stage: String) throws(SluiceError) -> Int32 {
        guard case .regular = target.kind else {
            throw SluiceError(kind: .fileIO, stage: stage, message: "cannot resume \(role) in \(path): it is not a regular file holding the first \(offset) bytes")
        }
        let descriptor = try target.openExisting()
        var status = stat()
        guard fstat(descriptor, &status) == 0, Int64(status.st_size) >= offset else {
            close(descriptor)
            throw SluiceError(kind: .fileIO, stage: stage, message: "cannot resume \(role) in \(path): it holds fewer bytes than the \(offset) to resume from")
        }
        guard ftruncate(descriptor, off_t(offset)) == 0, lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else {
            let code = errno
            close(descriptor)
            throw OutputTarget.failure(role: role, path: path, stage: stage, code)
        }
        return descriptor
    }

    /// Opens `destination` with `partial`, a file written before (a download's kept staging
    /// file), as its staging file: ``commit()`` puts `partial` in place, as ``Replacement/onCommit``
    /// puts its own. Nothing is written through this file; another writer fills `partial`.
    /// - Throws: `.fileIO` when `partial` is no regular file, or for what `init(path:…)` refuses;
    ///   `.invalidRequest` for a destination that is a device or FIFO, which cannot be resumed.
    package init(path: String, partial: String, role: String = "the download", stage: String = "output") throws(SluiceError) {
        self.path = path
        self.role = role
        self.stage = stage
        let partialTarget = try OutputTarget(path: partial, role: "the partial download", stage: stage)
        guard case .regular = partialTarget.kind else {
            throw SluiceError(kind: .fileIO, stage: stage, message: "cannot resume \(role) \(path): the partial file \(partial) is missing or not a regular file")
        }
        let target = try OutputTarget(path: path, role: role, stage: stage)
        if partialTarget.resolvedPath == target.resolvedPath {
            // curl's `-C -`: the destination holds the bytes kept itself, and is written in place.
            descriptor = try target.openExisting()
            placement = .inPlace(emptyPending: false)
            return
        }
        switch target.kind {
        case .absent:
            descriptor = try partialTarget.openExisting()
            placement = .rename(staging: partialTarget.resolvedPath, final: target.resolvedPath)
        case .regular:
            let original = try target.openExisting()
            // Read back by the commit, which copies it into the original.
            descriptor = open(partialTarget.resolvedPath, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let code = errno
                close(original)
                throw OutputTarget.failure(role: "the partial download", path: partial, stage: stage, code)
            }
            placement = .copy(staging: partialTarget.resolvedPath, original: original)
        case .device, .fifo:
            throw SluiceError(kind: .invalidRequest, stage: stage, message: "cannot resume \(role) \(path): it is a device or a FIFO, which takes a body once")
        }
    }

    /// Closes the file and keeps its staging file instead of removing it, for a download to
    /// go on later; the path stays as it was. Returns where the bytes written are: the staging
    /// file, or the path itself for a file written in place; `nil` for a device or FIFO (which
    /// keeps nothing), after which the file is closed all the same.
    package func keepStaging() -> String? {
        guard !finished else { return nil }
        finished = true
        unregister()
        switch placement {
        case .rename(let staging, _):
            close(descriptor)
            return staging
        case .copy(let staging, let original):
            close(descriptor)
            close(original)
            return staging
        case .inPlace:
            close(descriptor)
            return path
        case .special:
            if descriptor >= 0 { close(descriptor) }
            return nil
        }
    }

    deinit {
        discard()
    }

    /// Gives the write up: the staging file goes (the destination stays as it was), at once
    /// rather than when the last reference goes, so a task that failed has left nothing behind
    /// by the time its caller hears of it. Nothing once committed, kept or discarded.
    package func discard() {
        guard !finished else { return }
        finished = true
        unregister()
        switch placement {
        case .rename(let staging, _):
            close(descriptor)
            unlink(staging)
        case .copy(let staging, let original):
            close(descriptor)
            close(original)
            unlink(staging)
        case .inPlace, .special:
            if descriptor >= 0 { close(descriptor) }
        }
    }

    /// The staging files this process made and has neither committed, kept nor discarded.
    private static let unfinished = Locked<Set<String>>([])

    /// Takes the staging file, if any, off the unfinished ones: it is about to be put in place,
    /// kept or removed.
    private func unregister() {
        if let stagingPath { _ = OutputFile.unfinished.withLock { $0.remove(stagingPath) } }
    }

    /// Removes the staging file of every output file of the process not yet committed, kept or
    /// given up, for a process about to end by a signal (Ctrl-C, `kill`): the files the user
    /// named stay as they were, and no hidden `.NAME.….sluice-part` file is left beside them.
    /// `sluice send` and `sluice run` call it on SIGINT, SIGTERM and SIGHUP; an application that
    /// ends on a signal of its own may call it too. Not from a signal handler: it takes a lock.
    public static func removeUnfinishedStagingFiles() {
        for staging in unfinished.withLock({ state in defer { state.removeAll() }; return state }) { unlink(staging) }
    }

    /// Whether the path names a device, a FIFO or a terminal, which takes the bytes as they come
    /// and cannot be staged, read back or replaced.
    public var isSpecial: Bool {
        if case .special = placement { return true }
        return false
    }

    /// The staging file the bytes go to until the commit, when there is one (``Replacement/onCommit``
    /// on a regular file): another writer may fill it by this path (a download's hops do),
    /// and the commit still publishes what it holds.
    public var stagingPath: String? {
        switch placement {
        case .rename(let staging, _), .copy(let staging, _): staging
        case .inPlace, .special: nil
        }
    }

    /// Writes bytes after those written before.
    /// - Throws: `.fileIO` with the system's reason (a full disk, a FIFO whose reader went away);
    ///   `.cancelled` when the task is cancelled while a FIFO or terminal is not ready;
    ///   `.invalidRequest` after ``commit()``.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        guard !finished else { throw misuse("it was committed already; nothing more can be written") }
        switch placement {
        case .special(let target):
            if descriptor < 0 { descriptor = try target.openSpecial() }
            try SpecialFileWriter(descriptor: descriptor).write(bytes) { failure($0) }
            return
        case .inPlace(emptyPending: true):
            guard ftruncate(descriptor, 0) == 0 else { throw failure(errno, doing: "emptying it") }
            placement = .inPlace(emptyPending: false)
        case .rename, .copy, .inPlace:
            break
        }
        guard writeFully(bytes, to: descriptor) else { throw failure(errno) }
    }

    /// Writes `data` after the bytes written before.
    /// - Throws: what ``write(_:)-(UnsafeRawBufferPointer)`` throws.
    public func write(_ data: Data) throws(SluiceError) {
        let failure = data.withUnsafeBytes { bytes -> SluiceError? in
            do throws(SluiceError) { try write(bytes) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes `data` at `offset` from the file's start, over what is there, for a document
    /// rewritten as it grows (a HAR file's closing brackets). Only a regular file written in
    /// place (``Replacement/asWritten``) can be written this way: see ``isSpecial``.
    /// - Throws: `.fileIO` with the system's reason; `.invalidRequest` for a file that is not a
    ///   regular file written in place and written to once already, or was committed.
    public func write(_ data: Data, at offset: Int64) throws(SluiceError) {
        guard !finished, case .inPlace(emptyPending: false) = placement else {
            throw misuse("only a regular file written in place (asWritten), written to once and not yet committed, can be rewritten at an offset")
        }
        guard data.withUnsafeBytes({ writeFully($0, to: descriptor, at: off_t(offset)) }) else { throw failure(errno) }
    }

    /// Publishes what was written and closes the file: renames the staging file into place, or
    /// copies it into the existing file in place; empties an existing file nothing was written
    /// to under ``Replacement/asWritten``.
    /// - Throws: `.fileIO` with the system's reason; the staging file is removed all the same.
    ///   `.invalidRequest` when it was committed already.
    public func commit() throws(SluiceError) {
        guard !finished else { throw misuse("it was committed already") }
        finished = true
        unregister()
        switch placement {
        case .rename(let staging, let final):
            let closed = close(descriptor)
            guard closed == 0, rename(staging, final) == 0 else {
                let code = errno
                unlink(staging)
                throw failure(code, doing: "putting it in place")
            }
        case .copy(let staging, let original):
            defer {
                close(descriptor)
                unlink(staging)
            }
            let copied = ftruncate(original, 0) == 0 && copyAll(from: descriptor, to: original)
            let code = errno
            let closed = close(original) == 0 || errno == EINTR
            guard copied else { throw failure(code) }
            guard closed else { throw failure(errno) }
        case .inPlace(let emptyPending):
            if emptyPending, ftruncate(descriptor, 0) != 0 {
                close(descriptor)
                throw failure(errno, doing: "emptying it")
            }
            guard close(descriptor) == 0 || errno == EINTR else { throw failure(errno) }
        case .special(let target):
            // An empty body still reaches the reader, as an end.
            if descriptor < 0 { descriptor = try target.openSpecial() }
            close(descriptor)
        }
    }

    /// Writes `data` to `path` whole, as an ``OutputFile`` with ``Replacement/onCommit`` does: a
    /// regular file changes only once every byte is written, a device or FIFO takes it as it is.
    /// - Throws: `.fileIO` naming the path and the reason.
    public static func write(
        _ data: Data, to path: String, permissions: mode_t = 0o666, role: String = "the file", stage: String = "output"
    ) throws(SluiceError) {
        let file = try OutputFile(path: path, permissions: permissions, role: role, stage: stage)
        try file.write(data)
        try file.commit()
    }

    /// Copies the whole staging file into `original` from its start.
    private func copyAll(from source: Int32, to original: Int32) -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
        defer { buffer.deallocate() }
        var offset: off_t = 0
        while true {
            let count = pread(source, buffer.baseAddress, buffer.count, offset)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return false }
            if count == 0 { return true }
            guard writeFully(UnsafeRawBufferPointer(rebasing: buffer[..<count]), to: original) else { return false }
            offset += off_t(count)
        }
    }

    /// The error for a call this file cannot take.
    private func misuse(_ reason: String) -> SluiceError {
        SluiceError(kind: .invalidRequest, stage: stage, message: "\(role) \(path): \(reason)")
    }

    /// The error for a system error code: `.cancelled` for `ECANCELED`, `.fileIO` naming the
    /// file, what was being done beyond writing, and the system's reason otherwise.
    private func failure(_ code: Int32, doing: String? = nil) -> SluiceError {
        if code == ECANCELED { return .cancelled(url: nil, stage: stage) }
        let detail = doing.map { " (\($0))" } ?? ""
        return SluiceError(kind: .fileIO, stage: stage, message: "cannot write \(role) to \(path)\(detail): \(String(cString: strerror(code)))")
    }
}
