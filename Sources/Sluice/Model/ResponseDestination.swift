import Foundation

/// Where a response body is delivered.
public enum ResponseDestination: Sendable, Equatable {
    /// Collected in memory into `Response.body`.
    case memory
    /// Streamed to disk as it arrives, so memory stays flat whatever the size. The bytes go to a
    /// temporary file beside `URL`, which is renamed to `URL` (replacing any file there) once the
    /// transfer succeeds and removed when it fails or is cancelled. `Response.bodyFile` names it.
    case file(URL)
}
