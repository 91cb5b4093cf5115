import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A ``CacheStore`` in a directory, bounded by bytes, least recently used responses evicted first.
///
/// Each response is one file, named by the SHA-256 of its key: a line `sluice-cache 1`, the
/// length of its head, the head as JSON, then the body. A file is written under a temporary name
/// and renamed into place, so a reader, in this process or another, sees a whole entry or none,
/// and a crash mid-write leaves only a temporary file, removed an hour later by the next eviction.
/// An entry that is truncated, malformed or stored under another key is a miss, and is removed.
///
/// Several processes may share the directory: files are replaced by rename, a reader keeps the
/// file it opened even when another process evicts it, and eviction runs under an exclusive
/// `flock` on the directory's `lock` file. A hit sets the file's modification time, which eviction
/// reads as its last use. Each process counts what it writes and scans the directory when its
/// count passes the bound or a tenth of it since the last scan, then evicts down to 90%; so the
/// directory may pass its bound by a tenth of it per process writing, never more, between scans.
///
/// Bodies are streamed in and out in 64 KiB chunks: a download is never read whole into memory.
/// The directory is made with mode 0700 and its files with 0600: they hold response bodies.
public final class DiskCacheStore: CacheStore {
    /// The directory.
    public let directory: URL
    /// The most bytes the directory's entries take.
    public let capacity: Int64

    /// 256 MiB: the default bound.
    public static let defaultCapacity: Int64 = 256 << 20

    private struct State {
        /// The bytes of the entries as this process last counted them, plus what it wrote since.
        var size: Int64 = 0
        var writtenSinceScan: Int64 = 0
        var evicting = false
    }

    private let state = Locked(State())
    private static let magic = Array("sluice-cache 1\n".utf8)
    private static let entrySuffix = ".entry"
    private static let temporaryPrefix = ".tmp-"
    /// The largest head read back: a head past it is a broken entry.
    private static let maximumHeadSize = 1 << 20

    /// Opens the directory, creating it (and its parents) with mode 0700 when it does not exist,
    /// and counts what it holds.
    /// - Throws: `.fileIO` when the directory cannot be made or is not a directory.
    public init(directory: URL, capacity: Int64 = DiskCacheStore.defaultCapacity) throws(SluiceError) {
        self.directory = directory.standardizedFileURL
        self.capacity = max(0, capacity)
        do {
            try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SluiceError(kind: .fileIO, stage: "cache", message: "cannot make the cache directory \(self.directory.path): \(error.localizedDescription)")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: self.directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SluiceError(kind: .fileIO, stage: "cache", message: "the cache directory \(self.directory.path) is not a directory")
        }
        evict()
    }

    /// The bytes of the entries now, counted from the directory.
    public var size: Int64 {
        entryFiles().reduce(0) { $0 + $1.size }
    }

    /// Reads the entry stored for `key`; a broken one is removed and is a miss.
    public func response(for key: String) -> CachedResponse? {
        let path = self.path(for: key)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard let (head, offset, count) = DiskCacheStore.readHead(descriptor), Array(head.key.utf8) == Array(key.utf8) else {
            close(descriptor)
            unlink(path)
            return nil
        }
        _ = futimens(descriptor, nil)
        return CachedResponse(head: head, body: CachedBody(descriptor: descriptor, offset: offset, count: count))
    }

    /// Writes the entry to a temporary file and renames it over the key's file.
    /// - Throws: `.fileIO` when the disk refuses; the key's file is then untouched.
    public func store(_ response: CachedResponse) throws {
        let head = try DiskCacheStore.encode(response.head, bodyCount: response.body.count)
        let size = Int64(head.count) + response.body.count
        let path = self.path(for: response.head.key)
        guard size <= capacity else {
            remove(response.head.key)
            return
        }
        let temporary = directory.appendingPathComponent(DiskCacheStore.temporaryPrefix + UUID().uuidString).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DiskCacheStore.failure("cannot create a file in \(directory.path)") }
        do {
            guard head.withUnsafeBytes({ writeFully($0, to: descriptor) }) else { throw DiskCacheStore.failure("cannot write a cache entry") }
            try response.body.chunks { bytes throws(SluiceError) in try DiskCacheStore.write(bytes, to: descriptor) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        let replaced = DiskCacheStore.attributes(path)?.size ?? 0
        guard close(descriptor) == 0, rename(temporary, path) == 0 else {
            let failure = DiskCacheStore.failure("cannot move an entry into \(directory.path)")
            unlink(temporary)
            throw failure
        }
        account(written: size, removed: replaced)
    }

    /// Rewrites the key's entry with the new head, its body copied chunk by chunk from the entry
    /// being replaced, when the stored body is still the one `head` names.
    public func update(_ head: CachedResponse.Head) throws {
        guard let stored = response(for: head.key), stored.head.bodyID == head.bodyID else { return }
        try store(CachedResponse(head: head, body: stored.body))
    }

    /// Deletes the key's file.
    public func remove(_ key: String) {
        let path = self.path(for: key)
        let size = DiskCacheStore.attributes(path)?.size ?? 0
        if unlink(path) == 0 { account(written: 0, removed: size) }
    }

    // MARK: Files

    private func path(for key: String) -> String {
        directory.appendingPathComponent(SHA256.hex(Array(key.utf8)) + DiskCacheStore.entrySuffix).path
    }

    /// `sluice-cache 1\n`, the head's length and a newline, the head as JSON.
    private static func encode(_ head: CachedResponse.Head, bodyCount: Int64) throws(SluiceError) -> [UInt8] {
        let document: JSONValue = [
            "key": .string(head.key),
            "status": .int(head.status),
            "url": .string(head.url),
            "version": .string(head.httpVersion.rawValue),
            "request-time-ms": .int(Int((head.requestTime.timeIntervalSince1970 * 1000).rounded())),
            "response-time-ms": .int(Int((head.responseTime.timeIntervalSince1970 * 1000).rounded())),
            "vary": head.vary.map(JSONValue.string) ?? .null,
            "body-id": .string(head.bodyID),
            "body-length": .int(Int(bodyCount)),
            "headers": .array(head.headers.map { [.string($0.name), .string($0.value)] }),
        ]
        let json: [UInt8]
        do {
            json = try JSONWriter().data(from: document)
        } catch {
            throw SluiceError(kind: .fileIO, stage: "cache", message: "cannot write a cache entry's head: \(error)")
        }
        return magic + Array("\(json.count)\n".utf8) + json
    }

    /// The head of an open entry, where its body starts and how long it is; `nil` for a file that
    /// is not a whole entry.
    private static func readHead(_ descriptor: Int32) -> (CachedResponse.Head, offset: Int64, count: Int64)? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let fileSize = Int64(status.st_size)
        let prefix = magic.count + 8
        var bytes = [UInt8](repeating: 0, count: prefix)
        guard readFully(descriptor, into: &bytes, at: 0), Array(bytes[..<magic.count]) == magic,
            let newline = bytes[magic.count...].firstIndex(of: 0x0A),
            let length = Int(String(decoding: bytes[magic.count..<newline], as: UTF8.self)), length > 0, length <= maximumHeadSize
        else { return nil }
        let headStart = newline + 1
        var json = [UInt8](repeating: 0, count: length)
        guard readFully(descriptor, into: &json, at: Int64(headStart)),
            let document = try? JSONReader().value(from: json),
            let key = document["key"]?.stringValue, let statusCode = document["status"]?.intValue,
            let url = document["url"]?.stringValue, let version = document["version"]?.stringValue.flatMap(HTTPVersion.init(rawValue:)),
            let requested = document["request-time-ms"]?.intValue, let received = document["response-time-ms"]?.intValue,
            let bodyID = document["body-id"]?.stringValue, let bodyLength = document["body-length"]?.intValue, bodyLength >= 0,
            case .array(let fields)? = document["headers"], let vary = document["vary"]
        else { return nil }
        let offset = Int64(headStart + length)
        guard fileSize == offset + Int64(bodyLength) else { return nil }
        var headers = HTTPHeaders()
        for field in fields {
            guard let name = field[0]?.stringValue, let value = field[1]?.stringValue else { return nil }
            headers.add(name: name, value: value)
        }
        let head = CachedResponse.Head(
            key: key, status: statusCode, headers: headers, url: url, httpVersion: version,
            requestTime: Date(timeIntervalSince1970: Double(requested) / 1000), responseTime: Date(timeIntervalSince1970: Double(received) / 1000),
            vary: vary.stringValue, bodyID: bodyID
        )
        return (head, offset, Int64(bodyLength))
    }

    private static func readFully(_ descriptor: Int32, into buffer: inout [UInt8], at offset: Int64) -> Bool {
        var done = 0
        while done < buffer.count {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    private static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(SluiceError) {
        guard writeFully(bytes, to: descriptor) else { throw failure("cannot write a cache entry") }
    }

    /// A file's size and modification time (its last use, for an entry); `nil` when it is gone.
    private static func attributes(_ path: String) -> (size: Int64, modified: Date)? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return (Int64(status.st_size), Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9))
    }

    private static func failure(_ message: String) -> SluiceError {
        SluiceError(kind: .fileIO, stage: "cache", message: "\(message): \(String(cString: strerror(errno)))")
    }

    // MARK: Eviction

    /// Counts a write and a removal, and evicts when this process's count says the bound may be
    /// passed.
    private func account(written: Int64, removed: Int64) {
        let mustEvict = state.withLock { state in
            state.size += written - removed
            state.writtenSinceScan += written
            guard !state.evicting, state.size > capacity || state.writtenSinceScan > capacity / 10 else { return false }
            state.evicting = true
            return true
        }
        if mustEvict { evict() }
    }

    /// Under the directory's lock: counts the entries, removes temporary files over an hour old
    /// (left by a crash), and removes the least recently used entries until they take 90% of the
    /// bound. Another process evicting meanwhile makes this one skip.
    private func evict() {
        defer { state.withLock { $0.evicting = false } }
        let lock = open(directory.appendingPathComponent("lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { return }
        defer { close(lock) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { return }
        defer { flock(lock, LOCK_UN) }
        let abandoned = Date().addingTimeInterval(-3600)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] where name.hasPrefix(DiskCacheStore.temporaryPrefix) {
            let path = directory.appendingPathComponent(name).path
            if let modified = DiskCacheStore.attributes(path)?.modified, modified < abandoned { unlink(path) }
        }
        var files = entryFiles()
        var size = files.reduce(0) { $0 + $1.size }
        if size > capacity {
            let target = capacity - capacity / 10
            files.sort { $0.lastUse < $1.lastUse }
            for file in files where size > target {
                if unlink(file.path) == 0 { size -= file.size }
            }
        }
        state.withLock { state in
            state.size = size
            state.writtenSinceScan = 0
        }
    }

    /// Every entry file with its size and last use.
    private func entryFiles() -> [(path: String, size: Int64, lastUse: Date)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { name in
            guard name.hasSuffix(DiskCacheStore.entrySuffix) else { return nil }
            let path = directory.appendingPathComponent(name).path
            return DiskCacheStore.attributes(path).map { (path, $0.size, $0.modified) }
        }
    }
}
