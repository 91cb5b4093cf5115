import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The bytes of a request body, handed to libcurl in pieces as it asks for them.
///
/// A file is read from its descriptor piece by piece, never whole, so a large upload costs no
/// memory. The source can rewind, which libcurl needs when it must send the request again on a
/// fresh connection.
final class UploadSource {
    private enum Storage {
        case memory(Data)
        case file(descriptor: Int32, path: String)
    }

    private let storage: Storage
    private var offset: Int64 = 0
    /// The body's size in bytes.
    let size: Int64

    /// Opens the body's source, or returns `nil` for a request without body; throws `.fileIO`
    /// when a body file cannot be opened.
    init?(_ body: RequestBody, url: URL) throws(SluiceError) {
        switch body {
        case .none:
            return nil
        case .data(let data):
            storage = .memory(data)
            size = Int64(data.count)
        case .file(let file):
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            var status = stat()
            guard descriptor >= 0, fstat(descriptor, &status) == 0 else {
                let reason = String(cString: strerror(errno))
                if descriptor >= 0 { close(descriptor) }
                throw SluiceError(kind: .fileIO, stage: "transport", url: url, message: "cannot read upload file \(file.path): \(reason)")
            }
            storage = .file(descriptor: descriptor, path: file.path)
            size = Int64(status.st_size)
        }
    }

    deinit {
        if case .file(let descriptor, _) = storage {
            close(descriptor)
        }
    }

    /// Copies the next bytes into `buffer`; returns how many (0 at the end).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(SluiceError) -> Int {
        switch storage {
        case .memory(let data):
            let start = Int(offset)
            let count = min(buffer.count, data.count - start)
            guard count > 0 else { return 0 }
            data.withUnsafeBytes { bytes in
                buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + start, byteCount: count)
            }
            offset += Int64(count)
            return count
        case .file(let descriptor, let path):
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            guard count >= 0 else {
                throw SluiceError(kind: .fileIO, stage: "transport", message: "cannot read upload file \(path): \(String(cString: strerror(errno)))")
            }
            offset += Int64(count)
            return count
        }
    }

    /// Whether every byte of the body has been read.
    var isExhausted: Bool {
        offset >= size
    }

    /// Moves back to `position` bytes from the start; returns whether it could.
    func rewind(to position: Int64) -> Bool {
        guard position >= 0, position <= size else { return false }
        if case .file(let descriptor, _) = storage, lseek(descriptor, off_t(position), SEEK_SET) < 0 {
            return false
        }
        offset = position
        return true
    }
}
