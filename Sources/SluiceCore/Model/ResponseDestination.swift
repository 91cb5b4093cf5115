import Foundation

/// Where a response body is delivered.
public enum ResponseDestination: Sendable, Equatable {
    /// Collected in memory into `Response.body`.
    case memory
    /// Streamed to disk as it arrives, so memory stays flat whatever the size, and written through
    /// to what `URL` names, as curl's `-o` writes: a device or a FIFO takes the bytes as they come,
    /// an existing file is written in place (its inode, hard links, mode and owner kept), a
    /// symbolic link is followed. Through a ``SessionManager`` the file changes only when the task
    /// succeeds, with the final response's body (see ``SessionManager/download(_:to:resumable:)``); a
    /// ``Transport`` called directly writes as ``OutputFile/Replacement/asWritten`` says.
    /// `Response.bodyFile` names it.
    case file(URL)
    /// Delivered as it arrives, through `Response.bodyStream`, with the response handed back as
    /// soon as its head is in. When the reader falls `bufferSize` bytes behind, the transfer
    /// pauses until it catches up, so memory stays flat whatever the size. Stages that need the
    /// whole body (response decoding, the cache) pass a streamed response through untouched.
    case stream(bufferSize: Int = ResponseDestination.defaultStreamBufferSize)

    /// 1 MiB: how far a stream's reader may fall behind before the transfer pauses.
    public static let defaultStreamBufferSize = 1 << 20

    /// Whether the body goes to a file.
    public var isFile: Bool {
        if case .file = self { return true }
        return false
    }

    /// Whether the body is streamed to the caller.
    public var isStream: Bool {
        if case .stream = self { return true }
        return false
    }
}
