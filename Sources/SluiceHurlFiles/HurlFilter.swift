/// A filter that transforms the value produced by a query or by a template expression.
public struct HurlFilter: Sendable, Hashable {
    /// The kinds of filter, each with its arguments.
    public enum Kind: Sendable, Hashable {
        /// `base64Decode`: decodes Base64 text into bytes.
        case base64Decode
        /// `base64Encode`: encodes bytes as Base64 text.
        case base64Encode
        /// `base64UrlSafeDecode`: decodes URL-safe Base64 text into bytes.
        case base64UrlSafeDecode
        /// `base64UrlSafeEncode`: encodes bytes as URL-safe Base64 text.
        case base64UrlSafeEncode
        /// `charsetDecode "CHARSET"`: decodes bytes into text with a character set.
        case charsetDecode(charset: HurlTemplate)
        /// `count`: the number of items of a collection.
        case count
        /// `dateFormat "FORMAT"`: formats a date.
        case dateFormat(HurlTemplate)
        /// `daysAfterNow`: days between now and a future date.
        case daysAfterNow
        /// `daysBeforeNow`: days between a past date and now.
        case daysBeforeNow
        /// `decode "CHARSET"`: decodes bytes into text with a character set.
        case decode(charset: HurlTemplate)
        /// `first`: the first item of a collection.
        case first
        /// `format "FORMAT"`: formats a date (older name of `dateFormat`).
        case format(HurlTemplate)
        /// `htmlEscape`: escapes `&`, `<`, `>` and quotes.
        case htmlEscape
        /// `htmlUnescape`: resolves HTML character references.
        case htmlUnescape
        /// `jsonpath "EXPR"`: evaluates a JSONPath expression.
        case jsonpath(HurlTemplate)
        /// `last`: the last item of a collection.
        case last
        /// `location`: the target of a redirection.
        case location
        /// `nth N`: the item at a zero-based index (negative counts from the end): an integer or an expression.
        case nth(index: HurlValue)
        /// `regex "PATTERN"` or `regex /PATTERN/`: extracts the first capture group.
        case regex(HurlPattern)
        /// `replace OLD NEW`: replaces every occurrence of a string (or, as older Hurl allowed, a `/regex/`).
        case replace(old: HurlPattern, new: HurlTemplate)
        /// `replaceRegex PATTERN NEW`: replaces every match of a regular expression.
        case replaceRegex(pattern: HurlPattern, replacement: HurlTemplate)
        /// `split "SEPARATOR"`: splits a string into a list.
        case split(separator: HurlTemplate)
        /// `toDate "FORMAT"`: parses a string into a date.
        case toDate(format: HurlTemplate)
        /// `toFloat`: converts to a floating point number.
        case toFloat
        /// `toHex`: converts bytes to hexadecimal text.
        case toHex
        /// `toInt`: converts to an integer.
        case toInt
        /// `toString`: converts to a string.
        case toString
        /// `urlDecode`: resolves `%xx` escapes.
        case urlDecode
        /// `urlEncode`: percent-encodes characters outside the unreserved set.
        case urlEncode
        /// `urlQueryParam "NAME"`: the value of a URL's query parameter.
        case urlQueryParam(name: HurlTemplate)
        /// `utf8Decode`: decodes UTF-8 bytes into text.
        case utf8Decode
        /// `utf8Encode`: encodes text as UTF-8 bytes.
        case utf8Encode
        /// `xpath "EXPR"`: evaluates an XPath expression.
        case xpath(HurlTemplate)
    }

    /// Where the filter's keyword is.
    public var position: HurlSourcePosition
    /// The filter.
    public var kind: Kind

    /// Creates a filter.
    public init(position: HurlSourcePosition, kind: Kind) {
        self.position = position
        self.kind = kind
    }
}
