import Foundation

/// Keeps cookies between requests in a ``CookieJar``: adds the `Cookie` header a request's URL
/// gets, and stores the `Set-Cookie` fields of the response.
///
/// It sees every redirect hop, so each hop stores its own cookies and sends those of its own URL
/// (a login that sets a session cookie on its way to the next page works): it is a hop stage,
/// below ``Redirection`` wherever it is listed. A `Cookie`
/// header the request already has comes first, the jar's cookies after it, then the request's
/// ``Request/ownCookies``, on every hop whatever its origin. A request with
/// ``Request/usesCookieJar`` off neither gets the jar's cookies nor stores its responses'.
///
/// ```swift
/// let jar = CookieJar()
/// let pipeline = try Pipeline { CookieHandling(jar: jar) }
/// ```
public struct CookieHandling: Stage {
    /// The jar read and filled; several pipelines may share one.
    public let jar: CookieJar
    /// The Netscape cookie file (curl's `-b` format) read into the jar when the stage was made;
    /// `nil` for none.
    public let readFile: URL?
    /// The Netscape cookie file (curl's `-c` format) ``save()`` writes the jar to; `nil` for none.
    public let savedFile: URL?

    /// `cookies`.
    public var name: String { "cookies" }

    /// ``StagePlacement/cookies``: a hop stage, so each redirect hop stores and sends its own cookies.
    public static var placement: StagePlacement { .cookies }

    /// The cookie jar: a pipeline keeps one.
    public var claims: [String] { ["the cookie jar"] }

    /// Creates the stage over a jar, a new one unless given, with no file.
    public init(jar: CookieJar = CookieJar()) {
        self.jar = jar
        readFile = nil
        savedFile = nil
    }

    /// Creates the stage over a jar, a new one unless given, and a cookie file, whose cookies are
    /// read into the jar now.
    /// - Throws: ``NetscapeCookieFile/LineError`` for a line of the file that is not a cookie,
    ///   and ``InputFile/Unreadable`` when it cannot be read. A missing file is an empty one.
    public init(jar: CookieJar = CookieJar(), file: URL?) throws {
        try self.init(jar: jar, reading: file, saving: file)
    }

    /// Creates the stage over a jar, a new one unless given, the cookies of one file read into it
    /// now (curl's `-b FILE`, Hurl's `--cookie`) and ``save()`` writing it to another (curl's
    /// `-c FILE`, Hurl's `--cookie-jar`); either may be `nil`, or both the same file.
    /// - Throws: as ``init(jar:file:)``.
    public init(jar: CookieJar = CookieJar(), reading readFile: URL?, saving savedFile: URL?) throws {
        self.jar = jar
        self.readFile = readFile
        self.savedFile = savedFile
        if let readFile { try NetscapeCookieFile.load(readFile, into: jar) }
    }

    /// Writes the jar to ``savedFile``, when there is one.
    public func save() throws {
        if let savedFile { try NetscapeCookieFile.save(jar, to: savedFile) }
    }

    /// Sends the request with its cookies and stores those the response sets.
    public func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        let usesJar = request.usesCookieJar
        let request = withCookies(request, fromJar: usesJar)
        let response = try await next(request, context)
        if usesJar { store(response, for: request.url) }
        return response
    }

    /// `request` with the jar's cookies for its URL, then its own, added to its `Cookie` field.
    private func withCookies(_ request: Request, fromJar usesJar: Bool) -> Request {
        let own = request.ownCookies
        let header = usesJar ? jar.cookieHeader(for: request.url) : nil
        guard header != nil || own != nil else { return request }
        var request = request
        if own != nil { request.ownCookies = nil }
        var added = header ?? ""
        if let own { added = added.isEmpty ? own : added + "; " + own }
        let existing = request.headers["Cookie"]
        request.headers["Cookie"] = existing.map { $0 + "; " + added } ?? added
        return request
    }

    /// Stores the cookies `response` sets for `url`.
    private func store(_ response: Response, for url: URL) {
        let fields = response.headers.values(for: "Set-Cookie")
        if !fields.isEmpty { jar.store(setCookie: fields, for: url) }
    }
}
