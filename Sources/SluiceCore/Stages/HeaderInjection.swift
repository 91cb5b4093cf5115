import Foundation

/// Adds the pipeline's headers to every request, but never over a header the request sets itself
/// (names compared without case), as AFHTTPRequestSerializer's `HTTPRequestHeaders` do.
///
/// Beside `headers`, it sends a `User-Agent` (by default `sluice/VERSION (OS; ARCH)`), an
/// `Accept-Language` built from the process's locale, and an `Authorization` (Basic or Bearer),
/// each of which can be turned off or set to a value of one's own.
///
/// ```swift
/// HeaderInjection(headers: ["Accept": "application/json"], authorization: .bearer(token))
/// ```
public struct HeaderInjection: SynchronousRequestStage, ConfigurationReporting {
    /// A header that has a built-in default.
    public enum DefaultedValue: Sendable, Hashable {
        /// The built-in value.
        case `default`
        /// No header.
        case none
        /// This value.
        case custom(String)
    }

    /// Credentials for the `Authorization` header.
    public enum Authorization: Sendable, Hashable, CustomStringConvertible {
        /// `Basic` with the base64 of the UTF-8 `username:password` (RFC 7617).
        case basic(username: String, password: String)
        /// `Bearer` with a token (RFC 6750).
        case bearer(String)

        /// The header's value.
        public var headerValue: String {
            switch self {
            case .basic(let username, let password): "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
            case .bearer(let token): "Bearer " + token
            }
        }

        /// The scheme alone, never the credentials: `Basic ***`.
        public var description: String {
            switch self {
            case .basic: "Basic ***"
            case .bearer: "Bearer ***"
            }
        }
    }

    /// Every header the stage adds, in order: `headers`, then `User-Agent`, `Accept-Language`
    /// and `Authorization` where they are on and `headers` does not already name them.
    public let injectedHeaders: HTTPHeaders
    /// Whether each of the `headers` given is injected even where the request sets its name
    /// (after the request's own); otherwise only names in the request's
    /// ``Request/appendedHeaders`` are.
    public let appendsToRequestHeaders: Bool
    /// The lower-cased names injected beside the request's own when ``appendsToRequestHeaders``.
    private let appendedNames: Set<String>
    /// Whether the user agent is the empty text: no `User-Agent` at all, as curl's `-A ''`.
    private let omitsUserAgent: Bool

    /// The credentials of the `Authorization` header built from `authorization` (a Basic pair's
    /// base64 and its password, a Bearer token), which output redacts.
    public let derivedSecrets: [String]

    /// `header-injection`.
    public var name: String { "header-injection" }

    /// Its place in the chain (see ``StagePlacement``).
    public static var placement: StagePlacement { .headerInjection }

    /// The `Authorization` header, when it sends one.
    public var claims: [String] { injectedHeaders["Authorization"] == nil ? [] : ["the Authorization header"] }

    /// Creates the stage.
    /// - Parameters:
    ///   - headers: headers for every request.
    ///   - userAgent: `.default` sends ``defaultUserAgent``; `.custom("")` leaves the header out of
    ///     the request, so that neither a stage below nor the transport adds one (curl's `-A ''`).
    ///   - acceptLanguage: `.default` sends ``acceptLanguage(environment:)`` of `environment`.
    ///   - authorization: credentials, or `nil` for none.
    ///   - appendsToRequestHeaders: inject each of `headers` even where the request sets its name,
    ///     after the request's own, as Hurl's `--header` does; by default the request's own wins.
    ///     `User-Agent`, `Accept-Language` and `Authorization` always yield to the request's.
    ///   - environment: where the locale is read from; the process's environment by default.
    public init(
        headers: HTTPHeaders = [:],
        userAgent: DefaultedValue = .default,
        acceptLanguage: DefaultedValue = .default,
        authorization: Authorization? = nil,
        appendsToRequestHeaders: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.appendsToRequestHeaders = appendsToRequestHeaders
        appendedNames = appendsToRequestHeaders ? Set(headers.map(\.name.asciiLowercased)) : []
        omitsUserAgent = userAgent == .custom("")
        var injected = headers
        func add(_ name: String, _ value: String?) {
            if let value, !injected.contains(name) { injected.add(name: name, value: value) }
        }
        add("User-Agent", omitsUserAgent ? nil : HeaderInjection.resolve(userAgent, default: HeaderInjection.defaultUserAgent))
        add("Accept-Language", HeaderInjection.resolve(acceptLanguage, default: HeaderInjection.acceptLanguage(environment: environment)))
        add("Authorization", authorization?.headerValue)
        injectedHeaders = injected
        var secrets = authorization.flatMap { $0.headerValue.split(separator: " ", maxSplits: 1).last.map { [String($0)] } } ?? []
        // A Basic password shows wherever its text does (a URL that holds it too), not only encoded.
        if case .basic(_, let password)? = authorization, !password.isEmpty { secrets.append(password) }
        derivedSecrets = secrets
    }

    private static func resolve(_ value: DefaultedValue, default defaultValue: String?) -> String? {
        switch value {
        case .default: defaultValue
        case .none: nil
        case .custom(let custom): custom
        }
    }

    /// Adds each injected header the request does not set, and those it appends to, but none
    /// the request leaves out (``Request/omittedHeaders``: a pipeline's `remove-headers`).
    public func prepare(_ request: Request, context: TaskContext) -> Request {
        var request = request
        let own = request.headers
        request.headers.reserveCapacity(own.fields.count + injectedHeaders.count)
        for field in injectedHeaders
        where (!own.contains(field.name) || request.appendsHeader(field.name) || appendedNames.contains(field.name.asciiLowercased))
            && !request.omitsHeader(field.name)
        {
            request.headers.add(name: field.name, value: field.value)
        }
        if omitsUserAgent, !own.contains("User-Agent"), !request.omitsHeader("User-Agent") {
            request.omittedHeaders.append("User-Agent")
        }
        return request
    }

    /// The stage a pipeline file's run adds when the file lists none: ``defaultUserAgent`` and
    /// nothing else, as curl sends its own.
    public static let userAgentOnly = HeaderInjection(userAgent: .default, acceptLanguage: .none)

    /// `sluice/VERSION (OS; ARCH)`, for example `sluice/0.1.0 (Linux; x86_64)`.
    public static let defaultUserAgent: String = {
        var system = utsname()
        uname(&system)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return "sluice/\(SluiceVersion.current) (\(field(system.sysname)); \(field(system.machine)))"
    }()

    /// The `Accept-Language` value for a locale environment: the languages of `LANGUAGE`
    /// (colon-separated), else of `LC_ALL`, else of `LANG`, as BCP 47 tags (`de_AT.UTF-8` is
    /// `de-AT`), the first with `q=1.0` and each next 0.1 lower, stopping above 0.5 (five at
    /// most). `en` when the locale is unset, `C` or `POSIX`.
    public static func acceptLanguage(environment: [String: String]) -> String {
        let source = ["LANGUAGE", "LC_ALL", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        var tags: [String] = []
        for entry in source.split(separator: ":") {
            let locale = entry.prefix { $0 != "." && $0 != "@" }
            guard !locale.isEmpty, locale != "C", locale != "POSIX" else { continue }
            let tag = locale.replacingCodePoints(of: "_", with: "-")
            if !tags.contains(tag) { tags.append(tag) }
        }
        if tags.isEmpty { tags = ["en"] }
        return tags.prefix(5).enumerated().map { index, tag in
            "\(tag);q=\(["1.0", "0.9", "0.8", "0.7", "0.6"][index])"
        }.joined(separator: ", ")
    }
}
