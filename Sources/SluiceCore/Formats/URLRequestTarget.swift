import Foundation

extension URL {
    /// The request target in origin form (RFC 9110 section 7.1), as it is sent: the path (`/`
    /// when empty) and the query, percent-encoded as in the URL.
    package var requestTarget: String {
        guard let components = URLComponents(url: self, resolvingAgainstBaseURL: false) else { return "/" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
    }
}
