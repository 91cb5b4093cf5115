#if canImport(Glibc)
import Glibc
#endif

/// Writes every byte to `descriptor`, at its file offset or, given `offset`, from there on
/// (`pwrite`, the file offset untouched), retrying short writes and `EINTR`; returns `false` with
/// `errno` set when the system refuses.
func writeFully(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, at offset: off_t? = nil) -> Bool {
    var written = 0
    while written < bytes.count {
        let start = bytes.baseAddress! + written
        let count = offset.map { pwrite(descriptor, start, bytes.count - written, $0 + off_t(written)) }
            ?? Glibc.write(descriptor, start, bytes.count - written)
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return false }
        written += count
    }
    return true
}
