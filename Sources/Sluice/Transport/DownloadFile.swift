import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The file a download streams into: a temporary file beside the destination, renamed onto the
/// destination when the transfer succeeds and removed when it does not. Whatever happens, no
/// half-written file is left at the destination.
final class DownloadFile {
    /// Where the body ends up.
    let destination: URL
    private let temporaryPath: String
    private var descriptor: Int32

    /// Creates the temporary file; throws `.fileIO` when it cannot.
    init(destination: URL, url: URL) throws(SluiceError) {
        self.destination = destination
        let directory = destination.deletingLastPathComponent().path
        temporaryPath = "\(directory)/.\(destination.lastPathComponent).\(UUID().uuidString).sluice-part"
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SluiceError(
                kind: .fileIO, stage: "transport", url: url,
                message: "cannot create download file in \(directory): \(String(cString: strerror(errno)))"
            )
        }
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            unlink(temporaryPath)
        }
    }

    /// Appends bytes; throws `.fileIO` with the system's reason when the disk refuses them.
    func write(_ bytes: UnsafeRawBufferPointer) throws(SluiceError) {
        guard writeFully(bytes, to: descriptor) else {
            throw SluiceError(kind: .fileIO, stage: "transport", message: "cannot write download file for \(destination.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Closes the file and moves it onto the destination, replacing any file there.
    func commit() throws(SluiceError) {
        let closed = close(descriptor)
        descriptor = -1
        guard closed == 0, rename(temporaryPath, destination.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw SluiceError(kind: .fileIO, stage: "transport", message: "cannot move download to \(destination.path): \(reason)")
        }
    }
}
