import Foundation

/// The body a request sends.
public enum RequestBody: Sendable, Equatable {
    /// No body.
    case none
    /// Bytes held in memory.
    case data(Data)
    /// The contents of a file, streamed from disk as they are sent; never read into memory whole.
    case file(URL)
    /// Pieces sent one after another, each bytes in memory or a file streamed from disk: how a
    /// multipart body with file parts is sent without reading the files into memory.
    case segments([Segment])
    /// Pieces produced while the request is sent, pulled as libcurl asks for them: with
    /// `Content-Length` when the stream declares its length, chunked otherwise. Sent once only.
    case stream(RequestBodyStream)

    /// One piece of a `segments` body.
    public enum Segment: Sendable, Equatable {
        /// Bytes held in memory.
        case data(Data)
        /// The contents of a file, streamed from disk.
        case file(URL)
    }

    /// Whether the request has no body at all.
    public var isEmpty: Bool {
        if case .none = self { return true }
        return false
    }
}
