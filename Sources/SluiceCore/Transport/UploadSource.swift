import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a request body, handed to libcurl in pieces as it asks for them.
///
/// A body is a run of segments, each bytes in memory or a file. Files are read piece by piece
/// with `pread`, never whole, so a large upload costs no memory; only the file being sent is open.
/// The source can rewind, which libcurl needs when it must send the request again on a fresh
/// connection.
package final class UploadSource {
    private enum Segment {
        case memory(Data)
        case file(path: String, size: Int64)

        var size: Int64 {
            switch self {
            case .memory(let data): Int64(data.count)
            case .file(_, let size): size
            }
        }
    }

    private let segments: [Segment]
    /// Where each segment starts in the body.
    private let starts: [Int64]
    private let url: URL
    /// The body's size in bytes.
    package let size: Int64
    private var offset: Int64 = 0
    private var openFile: (segment: Int, descriptor: Int32)?

    /// Opens the body's source, or returns `nil` for a request without body or with a streamed
    /// one (``StreamedUpload`` sends those); throws `.fileIO` when a body file cannot be read.
    package init?(_ body: RequestBody, url: URL) throws(SluiceError) {
        let pieces: [RequestBody.Segment]
        switch body {
        case .none, .stream: return nil
        case .data(let data): pieces = [.data(data)]
        case .file(let file): pieces = [.file(file)]
        case .segments(let list): pieces = list
        }
        var segments: [Segment] = []
        var starts: [Int64] = []
        var total: Int64 = 0
        for piece in pieces {
            let segment: Segment
            switch piece {
            case .data(let data): segment = .memory(data)
            case .file(let file): segment = .file(path: file.path, size: try UploadSource.readableSize(of: file.path, url: url))
            }
            starts.append(total)
            total += segment.size
            segments.append(segment)
        }
        self.segments = segments
        self.starts = starts
        self.url = url
        size = total
    }

    deinit {
        if let openFile { close(openFile.descriptor) }
    }

    /// The size of a regular file that can be opened for reading, or a `.fileIO` error saying why
    /// not: a directory, or a device or FIFO, whose size is not known before it is read (and
    /// which would otherwise go out as an empty body).
    private static func readableSize(of path: String, url: URL) throws(SluiceError) -> Int64 {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        defer { if descriptor >= 0 { close(descriptor) } }
        var status = stat()
        guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
            throw UploadSource.readFailure(path, url: url)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            return Int64(status.st_size)
        case S_IFDIR:
            throw SluiceError(kind: .fileIO, stage: "transport", url: url, message: "cannot read upload file \(path): it is a directory")
        default:
            throw SluiceError(
                kind: .fileIO, stage: "transport", url: url,
                message: "cannot upload \(path): it is a device or a FIFO, whose size is not known before it is read; read it whole first (RequestBody.fromFile) or send it as a stream (RequestBody.stream)"
            )
        }
    }

    /// `.fileIO` for a body file that cannot be read, with the system's reason (`errno`).
    private static func readFailure(_ path: String, url: URL) -> SluiceError {
        SluiceError(kind: .fileIO, stage: "transport", url: url, message: "cannot read upload file \(path): \(String(cString: strerror(errno)))")
    }

    /// The descriptor of a file segment, opening it (and closing the one before) when needed.
    private func descriptor(for index: Int, path: String) throws(SluiceError) -> Int32 {
        if let openFile, openFile.segment == index { return openFile.descriptor }
        if let openFile { close(openFile.descriptor) }
        openFile = nil
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw UploadSource.readFailure(path, url: url)
        }
        openFile = (index, descriptor)
        return descriptor
    }

    /// The index of the segment holding the byte at `position`.
    private func segmentIndex(at position: Int64) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Copies the next bytes into `buffer`; returns how many (0 at the end).
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int {
        var copied = 0
        while copied < buffer.count, offset < size {
            let index = segmentIndex(at: offset)
            let segment = segments[index]
            let within = offset - starts[index]
            let wanted = Int(min(Int64(buffer.count - copied), segment.size - within))
            guard wanted > 0 else {
                offset = starts[index] + segment.size
                continue
            }
            let target = buffer.baseAddress! + copied
            switch segment {
            case .memory(let data):
                data.withUnsafeBytes { bytes in
                    target.copyMemory(from: bytes.baseAddress! + Int(within), byteCount: wanted)
                }
                copied += wanted
                offset += Int64(wanted)
            case .file(let path, _):
                let descriptor = try descriptor(for: index, path: path)
                let count = pread(descriptor, target, wanted, off_t(within))
                guard count >= 0 else {
                    throw UploadSource.readFailure(path, url: url)
                }
                guard count > 0 else {
                    throw SluiceError(kind: .fileIO, stage: "transport", url: url, message: "upload file \(path) ended early: it shrank while being sent")
                }
                copied += count
                offset += Int64(count)
            }
        }
        return copied
    }

    /// Whether every byte of the body has been read.
    package var isExhausted: Bool {
        offset >= size
    }

    /// Moves back to `position` bytes from the start; returns whether it could.
    package func rewind(to position: Int64) -> Bool {
        guard position >= 0, position <= size else { return false }
        offset = position
        return true
    }
}
