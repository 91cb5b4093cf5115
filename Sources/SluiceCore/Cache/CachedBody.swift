import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The body of a stored response, in memory or in a file, read only when a response is served.
///
/// A body in a file is copied to a download's destination in chunks, never read whole; one that a
/// ``DiskCacheStore`` returns keeps its file open, so evicting or replacing the entry meanwhile
/// (in this process or another) does not take the bytes away.
public final class CachedBody: Sendable {
    private enum Source: Sendable {
        case data(Data)
        /// An open descriptor and the offset where the body starts; closed with the object.
        case open(descriptor: Int32, offset: Int64)
    }

    private let source: Source
    /// The body's size in bytes.
    public let count: Int64

    /// A body in memory.
    public init(_ data: Data) {
        source = .data(data)
        count = Int64(data.count)
    }

    /// The bytes of the open file `descriptor` from `offset` on, `count` of them; the body owns the
    /// descriptor and closes it.
    init(descriptor: Int32, offset: Int64, count: Int64) {
        source = .open(descriptor: descriptor, offset: offset)
        self.count = count
    }

    /// A whole regular file, opened now.
    /// - Throws: `.fileIO` when it cannot be opened, or is not a regular file (a download written
    ///   to a device or a FIFO cannot be read back).
    public convenience init(contentsOf file: URL) throws(SluiceError) {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            if descriptor >= 0 { close(descriptor) }
            throw SluiceError(kind: .fileIO, stage: "cache", message: "cannot read \(file.path) to store it: \(reason)")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw SluiceError(kind: .fileIO, stage: "cache", message: "cannot store \(file.path): it is not a regular file, so its body cannot be read back")
        }
        self.init(descriptor: descriptor, offset: 0, count: Int64(status.st_size))
    }

    deinit {
        if case .open(let descriptor, _) = source { close(descriptor) }
    }

    /// The whole body in memory.
    /// - Throws: `.fileIO` when the file ends early or cannot be read.
    public func data() throws(SluiceError) -> Data {
        if case .data(let data) = source { return data }
        var data = Data(capacity: Int(count))
        try chunks { data.append(contentsOf: $0) }
        return data
    }

    /// Calls `body` with the bytes in order, at most 64 KiB at a time, from a file without holding
    /// more than one chunk.
    /// - Throws: `.fileIO` when the file ends before ``count`` bytes or cannot be read, and what
    ///   `body` throws.
    public func chunks(_ body: (UnsafeRawBufferPointer) throws(SluiceError) -> Void) throws(SluiceError) {
        switch source {
        case .data(let data):
            // `Data.withUnsafeBytes` rethrows untyped errors: the typed one is carried out by hand.
            let failure = data.withUnsafeBytes { bytes -> SluiceError? in
                do throws(SluiceError) { try body(bytes) } catch { return error }
                return nil
            }
            if let failure { throw failure }
        case .open(let descriptor, let offset):
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
            defer { buffer.deallocate() }
            var done: Int64 = 0
            while done < count {
                let wanted = Int(min(Int64(buffer.count), count - done))
                let read = pread(descriptor, buffer.baseAddress, wanted, off_t(offset + done))
                if read < 0, errno == EINTR { continue }
                guard read > 0 else {
                    throw SluiceError(kind: .fileIO, stage: "cache", message: "a stored body ended after \(done) of its \(count) bytes")
                }
                try body(UnsafeRawBufferPointer(rebasing: buffer[..<read]))
                done += Int64(read)
            }
        }
    }
}
