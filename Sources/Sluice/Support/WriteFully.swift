#if canImport(Glibc)
import Glibc
#endif

/// Writes every byte to `descriptor`, retrying short writes and `EINTR`; returns `false` with
/// `errno` set when the system refuses.
func writeFully(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
    var written = 0
    while written < bytes.count {
        let count = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        written += count
    }
    return true
}
