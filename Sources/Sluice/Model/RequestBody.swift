import Foundation

/// The body a request sends.
public enum RequestBody: Sendable, Equatable {
    /// No body.
    case none
    /// Bytes held in memory.
    case data(Data)
    /// The contents of a file, streamed from disk as they are sent; never read into memory whole.
    case file(URL)

    /// Whether the request has no body at all.
    public var isEmpty: Bool {
        if case .none = self { return true }
        return false
    }
}
