import SluiceCore
import SluiceStageRegistry
import SluiceJSONPath

/// What a check or a capture reads of an exchange: the queries of Hurl's asserts and captures.
/// An argument written with `${...}` is kept as written and filled in when the check is judged.
public enum CheckQuery: Sendable {
    /// The response's status code, an integer.
    case status
    /// The HTTP version of the response: `"1.0"`, `"1.1"`, `"2"` or `"3"`.
    case version
    /// The URL of the last exchange, after redirects: the effective URL.
    case url
    /// The IP address the response came from, as text.
    case ip
    /// How long the exchange took, in whole milliseconds.
    case duration
    /// The body as text, in the charset its `Content-Type` names (UTF-8 when it names none).
    case body
    /// The body's bytes.
    case bytes
    /// The body's bytes as they came over the wire, before its content codings were undone.
    case rawBytes
    /// The SHA-256 digest of the body's bytes.
    case sha256
    /// The MD5 digest of the body's bytes.
    case md5
    /// Each redirect the request followed, in order: a list of `{status, location}` objects,
    /// `location` the absolute URL it led to.
    case redirects
    /// A response header: its value, a list of its values when it came more than once, nothing
    /// when it is absent.
    case header(YAMLNode)
    /// A cookie the response set (`Set-Cookie`): its value, or one of its attributes.
    case setCookie(name: YAMLNode, attribute: CookieAttribute?)
    /// The value of the cookie of this name that the run's jar holds for the response's URL
    /// after the exchange.
    case cookie(YAMLNode)
    /// The nodes a JSONPath selects in the body: a singular path's one value, any other's list
    /// (a list of one compared as its one node where no list is expected, as Hurl coerces it);
    /// with `nodeList` (`jsonpath-nodes:`, Hurl's `--no-jsonpath-coercion`) always the list, as
    /// RFC 9535 defines a query's result. `parsed` is the path when it holds no `${...}`, checked
    /// when the file is loaded.
    case jsonPath(YAMLNode, parsed: JSONPath?, nodeList: Bool)
    /// An XPath 1.0 expression over the body, read as HTML when its type is HTML, else as XML.
    case xpath(YAMLNode)
    /// The first match of a regular expression in the body text: its first group when it has one.
    case regex(YAMLNode)
    /// A variable's value: one set before the request, or captured by it.
    case variable(String)
    /// A field of the certificate the server presented.
    case certificate(CertificateField)

    /// An attribute of a cookie the response set, as `Set-Cookie` writes it.
    public enum CookieAttribute: String, Sendable, CaseIterable {
        /// The cookie's value (what the query gives without an attribute).
        case value = "Value"
        /// `Expires`: a date (for `format`) when it is an HTTP date, else the text as written.
        case expires = "Expires"
        /// `Max-Age`, an integer.
        case maxAge = "Max-Age"
        /// `Domain`.
        case domain = "Domain"
        /// `Path`.
        case path = "Path"
        /// `Secure`: present or not (`exists`).
        case secure = "Secure"
        /// `HttpOnly`: present or not (`exists`).
        case httpOnly = "HttpOnly"
        /// `SameSite`: `Strict`, `Lax` or `None`.
        case sameSite = "SameSite"
    }

    /// The key each query is written with in a pipeline file.
    public var key: String {
        switch self {
        case .status: "status"
        case .version: "version"
        case .url: "url"
        case .ip: "ip"
        case .duration: "duration"
        case .body: "body"
        case .bytes: "bytes"
        case .sha256: "sha256"
        case .md5: "md5"
        case .rawBytes: "rawbytes"
        case .redirects: "redirects"
        case .header: "header"
        case .setCookie: "set-cookie"
        case .cookie: "cookie"
        case .jsonPath(_, _, let nodeList): nodeList ? "jsonpath-nodes" : "jsonpath"
        case .xpath: "xpath"
        case .regex: "regex"
        case .variable: "variable"
        case .certificate: "certificate"
        }
    }

    /// The keys of the queries that take no argument.
    public static let bareKeys = ["status", "version", "url", "ip", "duration", "body", "bytes", "rawbytes", "sha256", "md5", "redirects"]
    /// The keys of the queries that take one.
    public static let argumentKeys = ["header", "set-cookie", "cookie", "jsonpath", "jsonpath-nodes", "xpath", "regex", "variable", "certificate"]
    /// Every query's key: ``bareKeys``, then ``argumentKeys``.
    static let keys = bareKeys + argumentKeys

    /// The query's argument as written, for labels: `$.id`, `Content-Type`, `session[Max-Age]`.
    public var argumentText: String? {
        switch self {
        case .status, .version, .url, .ip, .duration, .body, .bytes, .rawBytes, .sha256, .md5, .redirects: nil
        case .header(let node), .cookie(let node), .jsonPath(let node, _, _), .xpath(let node), .regex(let node): node.scalar
        case .setCookie(let name, let attribute): (name.scalar ?? "") + (attribute.map { "[\($0.rawValue)]" } ?? "")
        case .variable(let name): name
        case .certificate(let field): field.rawValue
        }
    }

    /// The nodes whose scalars may hold `${...}`.
    var templatedNodes: [YAMLNode] {
        switch self {
        case .header(let node), .cookie(let node), .jsonPath(let node, _, _), .xpath(let node), .regex(let node): [node]
        case .setCookie(let name, _): [name]
        default: []
        }
    }
}
