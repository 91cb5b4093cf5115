import Crypto
import Foundation
import SluiceCore
import SluiceJSONPath
import SluiceMarkup
import SluicePipelineFiles
import SluiceStageRegistry

extension CheckQuery {
    /// What the query reads of the exchange; `nil` when there is nothing there (no such header,
    /// nothing at the path, no match). A JSONPath that may select several nodes gives their list,
    /// or with `firstNodeOnly` the first.
    /// - Throws: ``CheckFailure`` when it cannot be read at all: a body that is not JSON for a
    ///   JSONPath, not XML for an XPath, not text in its charset for `body`.
    func value(in exchange: CheckedExchange, firstNodeOnly: Bool = false) throws(CheckFailure) -> CheckValue? {
        let response = exchange.response
        switch self {
        case .status:
            return .json(.int(response.status))
        case .version:
            return .json(.string(String(response.httpVersion.rawValue.dropFirst("HTTP/".count))))
        case .url:
            return response.url.map { .json(.string($0.absoluteString)) }
        case .ip:
            return response.metrics?.remoteAddress.map { .json(.string($0)) }
        case .duration:
            return .json(.int(Int(DurationText.milliseconds(exchange.duration))))
        case .body:
            return .json(.string(try exchange.bodyText()))
        case .bytes:
            return .bytes(response.body)
        case .rawBytes:
            // Kept by the transport when asked; a body with no content coding is what came.
            if let raw = response.rawBody { return .bytes(raw) }
            guard !response.headers.contains("Content-Encoding") else {
                throw CheckFailure("the body as received was not kept (a response from the cache, or a transport that keeps none)")
            }
            return .bytes(response.body)
        case .sha256:
            return .bytes(Data(SHA256.hash(data: response.body)))
        case .md5:
            return .bytes(Data(Insecure.MD5.hash(data: response.body)))
        case .redirects:
            return .json(.array(exchange.redirects.map { .object(["status": .int($0.status), "location": .string($0.location)]) }))
        case .header(let node):
            let values = response.headers.values(for: try exchange.render(node))
            switch values.count {
            case 0: return nil
            case 1: return .json(.string(values[0]))
            default: return .json(.array(values.map(JSONValue.string)))
            }
        case .setCookie(let node, let attribute):
            let name = try exchange.render(node)
            return SetCookieAttributes.find(name, in: response.headers.values(for: "Set-Cookie"))?.value(of: attribute ?? .value)
        case .cookie(let node):
            let name = try exchange.render(node)
            return exchange.cookies.first { $0.name.hasSameCodePoints(as: name) }.map { .json(.string($0.value)) }
        case .jsonPath(let node, let parsed, let nodeList):
            let path: JSONPath
            if let parsed {
                path = parsed
            } else {
                let text = try exchange.render(node)
                do {
                    path = try JSONPath(text)
                } catch {
                    throw CheckFailure("'\(text)' is not a JSONPath: \(error)")
                }
            }
            guard let body = exchange.body else {
                let noValue = response.body.isEmpty || response.body == Data(" ".utf8)
                throw CheckFailure(noValue ? "an empty body" : "a body that is not JSON", isEmptyBody: noValue)
            }
            let selected: [JSONValue]
            do {
                selected = try path.select(in: body)
            } catch {
                throw CheckFailure(error.description)
            }
            if !nodeList, path.isSingular || firstNodeOnly { return selected.first.map(CheckValue.json) }
            return .json(.array(selected))
        case .xpath(let node):
            let expression = try exchange.render(node)
            let document = try exchange.markup()
            do throws(XPathError) {
                return CheckValue(try document.evaluate(expression))
            } catch {
                throw CheckFailure(error.message)
            }
        case .regex(let node):
            let pattern = try exchange.render(node)
            return try CheckValue.firstMatch(of: pattern, in: exchange.bodyText()).map { .json(.string($0)) }
        case .variable(let name):
            // A captured date or byte string is read back as what it was.
            switch (exchange.scope.kinds[name], exchange.scope.values[name]) {
            case (.date?, let text?): if let date = RFC3339Timestamp.date(text) { return .date(date) }
            case (.bytes?, let text?): if let bytes = HexText.bytes(text) { return .bytes(bytes) }
            default: break
            }
            if let typed = exchange.scope.typedValues[name] { return .json(typed) }
            return exchange.scope.values[name].map { .json(VariableScope.typedText($0)) }
        case .certificate(let field):
            guard let certificate = response.metrics?.peerCertificates.first else {
                throw CheckFailure(response.url?.scheme == "https" ? "none recorded" : "none: the request is not https")
            }
            let value = field.value(of: certificate)
            return value.isNull ? nil : .json(value)
        }
    }
}

extension CheckQuery {
    /// What a report says the exchange had when the query found nothing: `no Location header`,
    /// `nothing at $.id`.
    var absence: String {
        let argument = argumentText ?? ""
        switch self {
        case .header: return "no \(argument) header"
        case .cookie: return "no cookie \(argument)"
        case .setCookie(let name, let attribute):
            return attribute.map { "no \($0.rawValue) in the cookie \(name.scalar ?? "") the response set" } ?? "no cookie \(argument) set by the response"
        case .variable: return "no variable \(argument)"
        case .regex: return "no match of \(argument)"
        case .url: return "no URL"
        case .ip: return "no address recorded"
        default: return "nothing at \(argument)"
        }
    }
}

extension CheckValue {
    /// An XPath result as a check's value: a number that is whole as an integer.
    init(_ result: XPathResult) {
        switch result {
        case .nodes(let nodes): self = .nodes(nodes)
        case .string(let text): self = .json(.string(text))
        case .boolean(let flag): self = .json(.bool(flag))
        case .number(let number):
            self = number.rounded() == number && abs(number) < 9.0e15 ? .json(.int(Int(number))) : .json(.double(number))
        }
    }

    /// The first match of `pattern` in `text`: its first group when it has one, else the match.
    /// - Throws: ``CheckFailure`` when the pattern is not a regular expression.
    static func firstMatch(of pattern: String, in text: String) throws(CheckFailure) -> String? {
        let regex: TextPattern
        do {
            regex = try TextPattern(pattern)
        } catch {
            throw CheckFailure("'\(pattern)' is not a regular expression: \(error)")
        }
        let match: TextPattern.Match?
        do {
            match = try regex.firstMatch(in: text)
        } catch {
            throw CheckFailure(error.description)
        }
        guard let groups = match?.groups else { return nil }
        return groups.count > 1 ? groups[1] : groups[0]
    }
}
