import Foundation
import SluiceCore
import SluiceMarkup
import SluicePipelineFiles
import SluiceStageRegistry

/// What the checks and captures of one request read of its exchange, with what they compute of
/// it (the body's text, its parsed HTML or XML) worked out once for all of them.
final class CheckedExchange {
    /// The response.
    let response: Response
    /// The body as JSON, when a check or a capture reads it and it is JSON.
    let body: JSONValue?
    /// How long the exchange took.
    let duration: Duration
    /// The cookies the run's jar holds for the response's URL after the exchange.
    let cookies: [Cookie]
    /// The redirects followed, in order.
    let redirects: [RedirectHop]
    /// The variables: the request's own captures are added as they are taken.
    var scope: VariableScope

    private var text: Result<String, CheckFailure>?
    private var document: Result<XPathDocument, CheckFailure>?

    init(response: Response, body: JSONValue?, duration: Duration, cookies: [Cookie], redirects: [RedirectHop], scope: VariableScope) {
        self.response = response
        self.body = body
        self.duration = duration
        self.cookies = cookies
        self.redirects = redirects
        self.scope = scope
    }

    /// The body as text in the charset its `Content-Type` names, UTF-8 when it names none.
    func bodyText() throws(CheckFailure) -> String {
        if let text { return try text.get() }
        let charset = response.headers["Content-Type"].flatMap { MediaType(parsing: $0) }?.charset
        let decoded = Result { () throws(CheckFailure) in
            try TextDecoding.string(from: response.body, charset: charset) { CheckFailure($0) }
        }
        text = decoded
        return try decoded.get()
    }

    /// The body parsed as HTML when its type says HTML, else as XML.
    func markup() throws(CheckFailure) -> XPathDocument {
        if let document { return try document.get() }
        let mediaType = response.headers["Content-Type"].flatMap { MediaType(parsing: $0) }
        let isHTML = mediaType.map { $0.subtype.lowercased().contains("html") } ?? false
        let parsed = Result { () throws(CheckFailure) in
            do throws(XPathError) {
                return isHTML ? try XPathDocument(html: response.body, encoding: mediaType?.charset) : try XPathDocument(xml: response.body)
            } catch {
                throw CheckFailure(error.message)
            }
        }
        document = parsed
        return try parsed.get()
    }

    /// A template filled in from the scope.
    func render(_ node: YAMLNode) throws(CheckFailure) -> String {
        do throws(YAMLReader.SyntaxError) {
            return try scope.render(node).scalar ?? ""
        } catch {
            throw CheckFailure("a template that cannot be filled in: \(error.message)")
        }
    }
}

/// Why a query or a filter gave no value to judge: the message a report shows as what was found.
struct CheckFailure: Error {
    var message: String
    /// The body has no value (empty, or one space) where JSON was to be read: nothing is there,
    /// so `exists: false` holds.
    var isEmptyBody = false

    init(_ message: String, isEmptyBody: Bool = false) {
        self.message = message
        self.isEmptyBody = isEmptyBody
    }
}

/// One redirect a request followed: the status that sent it on, and where.
struct RedirectHop: Sendable {
    /// The redirect's status (301, 302, 303, 307, 308).
    var status: Int
    /// The absolute URL its `Location` led to.
    var location: String
}
