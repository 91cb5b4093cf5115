/// A content coding (RFC 9110 section 8.4.1) the libcurl transport undoes itself.
///
/// The transport asks for these with ``acceptEncoding`` and decodes a response in any of them,
/// stacked in any order. A response whose `Content-Encoding` names a coding not here (`compress`,
/// or a made-up one) keeps its body as received, as browsers and OkHttp do, where libcurl would
/// fail the whole transfer.
package enum ContentCoding: Sendable, Equatable {
    /// gzip (RFC 1952), also spelled `x-gzip`; several members one after another are one body.
    case gzip
    /// deflate: a zlib stream (RFC 1950), or the raw deflate (RFC 1951) some servers send instead.
    case deflate
    /// Brotli (RFC 7932), `br`.
    case brotli
    /// Zstandard (RFC 8878), `zstd`, with the 8 MiB window RFC 9659 sets for HTTP.
    case zstd

    /// The `Accept-Encoding` value the transport sends when a request has none of its own: every
    /// coding here, in the order curl's `--compressed` names them.
    package static let acceptEncoding = "deflate, gzip, br, zstd"

    /// The coding's token as `Content-Encoding` writes it.
    var token: String {
        switch self {
        case .gzip: "gzip"
        case .deflate: "deflate"
        case .brotli: "br"
        case .zstd: "zstd"
        }
    }

    /// The codings a response's `Content-Encoding` values list, in the order they were applied
    /// (`identity` and empty list elements left out); `nil` when one of them is a coding this
    /// transport does not know, so the body must stay as it came.
    package static func codings(in contentEncoding: [String]) -> [ContentCoding]? {
        var codings: [ContentCoding] = []
        for value in contentEncoding {
            for element in value.split(separator: ",") {
                // Tokens are compared without ASCII case only: no Unicode case mapping makes one.
                let token = String(decoding: element.trimmingHTTPWhitespace().utf8.map(\.asciiLowercased), as: UTF8.self)
                switch token {
                case "", "identity": continue
                case "gzip", "x-gzip": codings.append(.gzip)
                case "deflate": codings.append(.deflate)
                case "br": codings.append(.brotli)
                case "zstd": codings.append(.zstd)
                default: return nil
                }
            }
        }
        return codings
    }
}
