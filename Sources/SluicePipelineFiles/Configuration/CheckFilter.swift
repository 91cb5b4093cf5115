import SluiceCore
import SluiceStageRegistry

/// A step applied to a queried value before the predicate judges it: Hurl's filters, written in
/// kebab case (`to-int` for Hurl's `toInt`).
public struct CheckFilter: Sendable {
    /// Which filter.
    public enum Kind: String, Sendable, CaseIterable {
        /// The number of items of a list, of nodes of a node-set, of bytes.
        case count
        /// A list's first item.
        case first
        /// A list's last item.
        case last
        /// A list's item at an index (from 0; a negative index counts from the end).
        case nth
        /// A string's first match of a regular expression: its first group when it has one.
        case regex
        /// A string with every match of a text (or of a `/regex/`) replaced.
        case replace
        /// A string split at every occurrence of a separator, into a list.
        case split
        /// A string or number as an integer.
        case toInt = "to-int"
        /// A string or number as a float.
        case toFloat = "to-float"
        /// Any value as text.
        case toString = "to-string"
        /// Bytes as lower-case hex text.
        case toHex = "to-hex"
        /// A string read as a date in a `strftime` format (`%Y-%m-%d`).
        case toDate = "to-date"
        /// A date written in a `strftime` format.
        case format
        /// The whole days from now to a date.
        case daysAfterNow = "days-after-now"
        /// The whole days from a date to now.
        case daysBeforeNow = "days-before-now"
        /// Base64 text (RFC 4648 §4) as bytes.
        case base64Decode = "base64-decode"
        /// Bytes (or a string's UTF-8) as Base64 text.
        case base64Encode = "base64-encode"
        /// URL-safe Base64 text (RFC 4648 §5, padding optional) as bytes.
        case base64URLSafeDecode = "base64-url-safe-decode"
        /// Bytes as URL-safe Base64 text, without padding.
        case base64URLSafeEncode = "base64-url-safe-encode"
        /// Percent-decoding.
        case urlDecode = "url-decode"
        /// Percent-encoding of everything but RFC 3986's unreserved characters.
        case urlEncode = "url-encode"
        /// A URL's query parameter's value, percent-decoded.
        case urlQueryParam = "url-query-param"
        /// `&`, `<`, `>`, `"` and `'` as HTML character references.
        case htmlEscape = "html-escape"
        /// HTML character references (named and numeric) as the characters they stand for.
        case htmlUnescape = "html-unescape"
        /// Bytes as text in a charset (`gb2312`, `cp1256`, any name iconv knows).
        case decode
        /// Bytes as UTF-8 text.
        case utf8Decode = "utf8-decode"
        /// Text as its UTF-8 bytes.
        case utf8Encode = "utf8-encode"
        /// A JSONPath over a string read as JSON: a singular path's value, any other's list.
        case jsonpath
        /// A JSONPath over a string read as JSON: always the list of nodes it selects.
        case jsonpathNodes = "jsonpath-nodes"
        /// An XPath 1.0 expression over a string read as HTML.
        case xpath
        /// A redirect's `location` (an item of the `redirects` query).
        case location

        /// How many arguments the filter takes.
        public var arity: Int {
            switch self {
            case .nth, .regex, .split, .toDate, .format, .urlQueryParam, .decode, .jsonpath, .jsonpathNodes, .xpath: 1
            case .replace: 2
            default: 0
            }
        }

        /// Hurl's name of the filter: `toInt`, `base64UrlSafeDecode`.
        public var hurlName: String {
            let words = rawValue.split(separator: "-")
            return words.enumerated().map { index, word in index == 0 ? String(word) : word.prefix(1).uppercased() + word.dropFirst() }.joined()
        }
    }

    /// Which filter.
    public var kind: Kind
    /// Its arguments as written (templates filled in when the check is judged).
    public var arguments: [YAMLNode]
    /// Where it is written.
    public var mark: YAMLNode.Mark

    /// A filter.
    public init(kind: Kind, arguments: [YAMLNode] = [], mark: YAMLNode.Mark) {
        self.kind = kind
        self.arguments = arguments
        self.mark = mark
    }

    /// The filter as a label shows it: `count`, `nth 0`, `replace "," ";"`.
    public var label: String {
        ([kind.rawValue] + arguments.map { $0.scalar.map { "\"\($0)\"" } ?? "…" }).joined(separator: " ")
    }
}
