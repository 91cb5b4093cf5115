/// What a capture or an assert reads from a response.
public struct HurlQuery: Sendable, Hashable {
    /// The kinds of query.
    public enum Kind: Sendable, Hashable {
        /// `status`: the status code.
        case status
        /// `version`: the HTTP version.
        case version
        /// `url`: the final URL.
        case url
        /// `ip`: the server's IP address.
        case ip
        /// `redirects`: the redirections followed.
        case redirects
        /// `header "NAME"`: a response header.
        case header(name: HurlTemplate)
        /// `certificate "ATTRIBUTE"`: a field of the server certificate.
        case certificate(HurlCertificateAttribute)
        /// `cookie "NAME"` or `cookie "NAME[Attribute]"`: a response cookie; the text is kept as written.
        case cookie(path: HurlTemplate)
        /// `body`: the decoded body text.
        case body
        /// `xpath "EXPR"`: an XPath expression on the body.
        case xpath(HurlTemplate)
        /// `jsonpath "EXPR"`: a JSONPath expression on the body.
        case jsonpath(HurlTemplate)
        /// `regex "PATTERN"` or `regex /PATTERN/`: a capture group of a regular expression on the body.
        case regex(HurlPattern)
        /// `variable "NAME"`: a variable's value.
        case variable(name: HurlTemplate)
        /// `duration`: the response time.
        case duration
        /// `bytes`: the decompressed body bytes.
        case bytes
        /// `rawbytes`: the body bytes as received.
        case rawBytes
        /// `sha256`: the SHA-256 hash of the body bytes.
        case sha256
        /// `md5`: the MD5 hash of the body bytes.
        case md5
    }

    /// Where the query's keyword is.
    public var position: HurlSourcePosition
    /// The query.
    public var kind: Kind

    /// Creates a query.
    public init(position: HurlSourcePosition, kind: Kind) {
        self.position = position
        self.kind = kind
    }
}
