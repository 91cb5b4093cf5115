import Foundation

extension RequestBody {
    /// The body of the file at `url`, whatever kind of file it names, as curl's
    /// `--data-binary @FILE` reads one: a regular file stays ``file(_:)``, sent from disk piece
    /// by piece with its size up front; a file that has no size before it is read and can be read
    /// only once (a FIFO, a shell's `<(...)`, `/dev/null`, `/dev/stdin` on a pipe or a terminal;
    /// ``InputFile/isReadOnce(_:)``) is read whole now, into ``data(_:)``. Read now, it is sent
    /// with `Content-Length`, can be sent again (a redirect, a retry) and a stage that signs the
    /// body sees its bytes. A FIFO blocks until its writer closes it.
    /// - Parameters:
    ///   - url: the file.
    ///   - limit: the most bytes a file read now may give.
    /// - Throws: ``InputFile/Unreadable`` when a file read now cannot be read or gives more than
    ///   `limit` bytes. A regular file is not opened here: the transport reports one it cannot read.
    public static func fromFile(_ url: URL, limit: Int = InputFile.defaultLimit) throws(InputFile.Unreadable) -> RequestBody {
        guard InputFile.isReadOnce(url.path) else { return .file(url) }
        return .data(try InputFile.data(at: url.path, role: "the body file", limit: limit))
    }
}
