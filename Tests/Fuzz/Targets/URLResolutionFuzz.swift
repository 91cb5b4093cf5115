import Foundation
import Sluice
import SluiceCore
import SluiceCurl
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// A base URL and a reference (the input's first line and the rest): RFC 3986 resolution leaves
/// no dot segments in a path it merged or took from the reference (an empty reference keeps the
/// base's path as it is, section 5.2.2), a resolved reference resolves to itself again, and the
/// url-resolution stage either resolves to an absolute URL or throws its typed error. URLText's
/// escaping is idempotent, leaves no byte RFC 3986 excludes, and never lets a forbidden host by.
enum URLResolutionFuzz {
    static func run(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        let newline = text.firstIndex(of: "\n") ?? text.endIndex
        let baseText = String(text[..<newline])
        let referenceText = newline < text.endIndex ? String(text[text.index(after: newline)...]) : ""

        let base = URIReference(parsing: baseText)
        let reference = URIReference(parsing: referenceText)
        let resolved = reference.resolved(against: base)
        if (base.scheme != nil || reference.scheme != nil) && !(reference.path.isEmpty && reference.scheme == nil && reference.authority == nil) {
            let segments = resolved.path.split(separator: "/", omittingEmptySubsequences: false)
            require(!segments.contains(".") && !segments.contains(".."), "dot segments left in \(resolved) (\(baseText) + \(referenceText))")
            require(URIReference(parsing: resolved.description).resolved(against: base) == resolved, "resolving \(resolved) again moved it")
        }
        require(URIReference.removingDotSegments(URIReference.removingDotSegments(reference.path)) == URIReference.removingDotSegments(reference.path), "dot-segment removal is not idempotent for \(reference.path)")

        // URLText, which every URL a user writes goes through: escaping again changes nothing, what
        // it gives holds no byte RFC 3986 excludes outside the authority, and a URL it makes never
        // names a host with a forbidden domain code point.
        if let escaped = URLText.escaped(referenceText) {
            require(URLText.escaped(escaped) == escaped, "escaping \(referenceText) again changed \(escaped)")
            var outside = URIReference(parsing: escaped)
            outside.authority = nil
            outside.scheme = nil
            let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?#%".utf8)
            require(outside.description.utf8.allSatisfy(allowed.contains), "\(referenceText) escaped to \(escaped), which holds a byte RFC 3986 excludes")
            if let host = URLText.url(referenceText)?.host(percentEncoded: false) {
                require(!host.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F || "#/<>?@\\^|".utf8.contains($0) }), "\(referenceText) made a URL whose host is \(host)")
            }
        }

        guard let stage = try? URLResolution(baseURL: baseText), let url = URL(string: referenceText) else { return }
        let parameters = ["id": "4 2", "name": "a/b"]
        do {
            let result = try stage.resolve(url, pathParameters: parameters)
            require(result.scheme != nil, "\(referenceText) resolved to a relative URL \(result)")
        } catch {
            require(error.kind == .invalidRequest && error.stage == "url-resolution", "unexpected error \(error)")
        }
    }
}
