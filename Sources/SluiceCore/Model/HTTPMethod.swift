/// An HTTP request method.
///
/// Methods are open-ended (`HTTPMethod("PROPFIND")` is as valid as `.get`), compare by their exact,
/// case-sensitive token as RFC 9110 section 9.1 requires, and read naturally as string literals.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method token as sent on the request line, for example `GET`.
    public let rawValue: String

    /// Creates a method from its token.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a method from its token.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a method from a string literal such as `"PATCH"`.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The method token.
    public var description: String { rawValue }

    /// Whether the method is a token as RFC 9110 section 5.6.2 defines it: one or more letters,
    /// digits and the characters !#$%&'*+-.^_`|~. Only such a method can be sent.
    public var isValidToken: Bool {
        !rawValue.isEmpty && rawValue.utf8.allSatisfy(\.isTokenCharacter)
    }

    /// `GET`.
    public static let get: HTTPMethod = "GET"
    /// `HEAD`: the response carries headers and no body.
    public static let head: HTTPMethod = "HEAD"
    /// `POST`.
    public static let post: HTTPMethod = "POST"
    /// `PUT`.
    public static let put: HTTPMethod = "PUT"
    /// `PATCH`.
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE`.
    public static let delete: HTTPMethod = "DELETE"
    /// `OPTIONS`.
    public static let options: HTTPMethod = "OPTIONS"
    /// `TRACE`.
    public static let trace: HTTPMethod = "TRACE"
    /// `CONNECT`.
    public static let connect: HTTPMethod = "CONNECT"

    /// The methods RFC 9110 and RFC 5789 define, as they are written.
    public static let standard: [HTTPMethod] = [.get, .head, .post, .put, .patch, .delete, .options, .trace, .connect]
}
