import Foundation
import SluiceCore
import SluiceStageRegistry
import SluicePipelineFiles

extension RequestSpec {
    /// Whether the request has an `expect.status`, which then decides on the status instead of
    /// response decoding's `acceptable-status`.
    public var expectsStatus: Bool {
        expectations.contains { if case .status = $0.check { true } else { false } }
    }

    /// Whether the request's `expect.status` names a status outside 2xx, which response
    /// decoding refuses and the request's own expectation overrules (Hurl's `HTTP 404`).
    var acceptsStatusOutsideSuccess: Bool {
        expectations.contains { expectation in
            guard case .status(let codes) = expectation.check else { return false }
            return codes.ranges.contains { $0.lowerBound < 200 || $0.upperBound > 299 }
        }
    }

    /// Whether the request's `expect.status` names `status`.
    func acceptsStatus(_ status: Int) -> Bool {
        expectations.contains { if case .status(let codes) = $0.check { codes.contains(status) } else { false } }
    }

    /// Whether a query of the request's checks or captures satisfies `test`; no list is built,
    /// as every exchange asks.
    private func hasQuery(_ test: (CheckQuery) -> Bool) -> Bool {
        expectations.contains { if case .query(let query, _, _) = $0.check { test(query) } else { false } } || captures.contains { test($0.query) }
    }

    /// Whether a JSONPath check or capture reads the response body as JSON.
    var readsJSONBody: Bool {
        hasQuery { if case .jsonPath = $0 { true } else { false } }
    }

    /// Whether a check or capture reads the response body (as text, bytes, a digest, JSON, markup
    /// or by a regular expression): with `output:` too, the body is then kept in memory to be
    /// checked, and written to the output after the exchange, as Hurl checks a body it writes.
    var readsBody: Bool {
        hasQuery(\.readsBody)
    }

    /// Whether a check or capture reads the body as it came over the wire.
    var readsRawBody: Bool {
        hasQuery { if case .rawBytes = $0 { true } else { false } }
    }

    /// Whether a cookie check or capture reads the run's jar after the exchange.
    var readsCookies: Bool {
        hasQuery { if case .cookie = $0 { true } else { false } }
    }

    /// Whether a certificate check or capture reads the server's certificate.
    var readsCertificate: Bool {
        hasQuery { if case .certificate = $0 { true } else { false } }
    }

    /// Whether a check may read a variable, and so a capture of the request's own. When none
    /// may, the captures are not added to the checks' scope (which copies it), as every exchange
    /// would pay for it.
    var checksMayReadVariables: Bool {
        expectations.contains(where: \.readsVariables)
    }

    /// The cookies of `store-cookies:`, each line's `${...}` filled in from `scope`.
    /// - Throws: `.invalidRequest` for a template that cannot be filled in or a line that is
    ///   not a cookie, naming its line in the pipeline file.
    public func cookiesToStore(scope: VariableScope) throws(SluiceError) -> [Cookie] {
        var cookies: [Cookie] = []
        for node in storedCookies {
            let line: String
            do {
                line = try scope.render(node).scalar ?? ""
            } catch {
                throw SluiceError(kind: .invalidRequest, message: "line \(error.mark.line): \(error.message)")
            }
            do {
                cookies.append(try NetscapeCookieFile.cookie(line: line))
            } catch {
                throw SluiceError(kind: .invalidRequest, message: "line \(node.mark.line): store-cookies: \(error.message)")
            }
        }
        return cookies
    }

    /// The request with every `${...}` filled in from `scope`.
    /// - Parameters:
    ///   - scope: the variables and captures known so far.
    ///   - directory: the pipeline file's folder, for `body-file`, part files and `output`.
    /// - Throws: `.invalidRequest` for a path that is not a URL reference or a template that
    ///   cannot be filled in; `.fileIO` for a `body-file` that is a FIFO or a device (read whole
    ///   here, as `RequestBody.fromFile(_:limit:)` reads one) and cannot be read.
    public func makeRequest(scope: VariableScope, directory: URL?) throws(SluiceError) -> Request {
        func text(_ node: YAMLNode) throws(SluiceError) -> String {
            try rendered(node).scalar ?? ""
        }
        /// A file path's text, refused when a server's value chooses its folder.
        func filePath(_ node: YAMLNode, role: String) throws(SluiceError) -> String {
            if let written = node.scalar, let problem = scope.receivedPathProblem(in: written, source: source) {
                throw SluiceError(kind: .invalidRequest, message: "\(role) at line \(node.mark.line): \(problem)")
            }
            return try text(node)
        }
        func rendered(_ node: YAMLNode) throws(SluiceError) -> YAMLNode {
            do {
                return try scope.render(node)
            } catch {
                throw SluiceError(kind: .invalidRequest, message: "line \(error.mark.line): \(error.message)")
            }
        }
        if let written = self.path.scalar, let problem = scope.fragmentProblem(inPath: written, source: source) {
            throw SluiceError(kind: .invalidRequest, message: "path at line \(self.path.mark.line): \(problem)")
        }
        let path = try text(self.path)
        // The path as written (URLText keeps its escapes), read once; "" is the empty reference,
        // which the url-resolution stage makes its base URL. The request is made from the string,
        // not from a URL, so that it keeps what a URL cannot tell back: a `%7B` written so, and
        // the dot segments that path-as-is (set below) keeps. A dry run's capture placeholder
        // cannot stand in a host: a token that can is parsed in its place, and shown as the
        // placeholder.
        let hostSafe = scope.standIns.reduce(path) {
            $0.replacingCodePoints(of: CapturePlaceholder.text(for: $1), with: CapturePlaceholder.hostToken(for: $1))
        }
        guard var request = Request(method: method, validating: path) ?? Request(method: method, validating: hostSafe) else {
            let standsIn = hostSafe != path ? " with a capture's placeholder in it (a dry run shows no captured port)" : ""
            throw SluiceError(kind: .invalidRequest, message: "path '\(path)' is not a URL reference\(standsIn)")
        }
        for pair in pathParameters {
            request.pathParameters[pair.key.scalar ?? ""] = try text(pair.value)
        }
        if let parameters {
            do {
                request.parameters = try scope.jsonValue(of: parameters)
            } catch {
                throw SluiceError(kind: .invalidRequest, message: "parameters at line \(error.mark.line): \(error.message)")
            }
        }
        if cookieJar == .off { request.usesCookieJar = false }
        for name in removedHeaders {
            request.omittedHeaders.append(try text(name))
        }
        for pair in appendedHeaders {
            let name = try text(pair.key)
            request.headers.add(name: name, value: try text(pair.value))
            if !request.appendsHeader(name) { request.appendedHeaders.append(name) }
        }
        for pair in headers {
            request.headers.add(name: try text(pair.key), value: try text(pair.value))
        }
        for node in headerLines {
            guard let line = HeaderLine(try text(node)) else {
                throw SluiceError(kind: .invalidRequest, message: "line \(node.mark.line): header-lines: a line is not NAME: VALUE once filled in")
            }
            // Hurl's no-header takes a header out whoever writes it: a line's name known only now.
            if !request.omitsHeader(line.name) { request.headers.add(name: line.name, value: line.value) }
        }
        if !cookies.isEmpty {
            var own: [String] = []
            for pair in cookies {
                let name = try text(pair.key), value = try text(pair.value)
                if let problem = Request.cookieProblem(name: name, value: value) {
                    throw SluiceError(kind: .invalidRequest, message: "cookies at line \(pair.value.mark.line): \(problem)")
                }
                own.append(name + "=" + value)
            }
            request.ownCookies = own.joined(separator: "; ")
        }
        if let body {
            if body.tag == "tag:yaml.org,2002:binary", let written = body.scalar {
                // `!!binary`: bytes, as Base64 (YAML allows line breaks and spaces in it).
                guard let bytes = Data(base64Encoded: String(written.unicodeScalars.filter { !" \n\r\t".unicodeScalars.contains($0) }.map(Character.init))) else {
                    throw SluiceError(kind: .invalidRequest, message: "body at line \(body.mark.line): !!binary holds text that is not Base64")
                }
                request.body = .data(bytes)
            } else if let written = body.scalar, MediaType(parsing: request.headers["Content-Type"] ?? "")?.isJSON == true {
                do {
                    request.body = .data(Data(try scope.renderJSONBody(written).utf8))
                } catch {
                    throw SluiceError(kind: .invalidRequest, message: "body at line \(body.mark.line): \(error)")
                }
            } else {
                request.body = .data(Data(try text(body).utf8))
            }
        } else if let bodyFile {
            // A FIFO or a device is read whole here, once, as curl's --data-binary @FILE reads it.
            let file = URL(fileURLWithPath: StageOptions.resolve(try filePath(bodyFile, role: "body-file"), against: directory))
            do {
                request.body = try RequestBody.fromFile(file)
            } catch {
                throw SluiceError(kind: .fileIO, message: "body-file at line \(bodyFile.mark.line): \(error)")
            }
        }
        for part in parts {
            let name = try text(part.name)
            if let value = part.value {
                request.parts.append(.field(name, try text(value)))
            } else if let file = part.file {
                request.parts.append(.file(
                    name, URL(fileURLWithPath: StageOptions.resolve(try filePath(file, role: "parts: file"), against: directory)),
                    filename: try part.filename.map(text), contentType: try part.contentType.map(text)
                ))
            }
        }
        if let timeout {
            request.timeouts.total = timeout
        }
        request.maxResponseSize = maxResponseSize
        request.askedHTTPVersion = httpVersion
        request.sendsPathAsIs = sendsPathAsIs
        request.maxTransferRate = limitRate
        request.recordsPeerCertificates = readsCertificate
        request.keepsRawBody = readsRawBody
        if let output {
            // `-` is standard output, as curl's `-o -` and Hurl's `--output -` (`./-` names a file).
            let path = try filePath(output, role: "output")
            request.destination = .file(URL(fileURLWithPath: path == "-" ? "/dev/stdout" : StageOptions.resolve(path, against: directory)))
        }
        if events != nil {
            request.destination = .stream()
        }
        if let redirects {
            // Values from ${...} are checked once filled in, as the loader checked the others.
            let pairs = try rendered(redirects).pairs ?? []
            if let problem = OptionDescriptor.problems(in: pairs, at: redirects.mark, options: RedirectOptions.descriptors, owner: "redirects").first {
                throw SluiceError(kind: .invalidRequest, message: "redirects at line \(problem.mark.line): \(problem.message)")
            }
            let options = StageOptions(owner: "redirects", pairs: pairs, mark: redirects.mark, directory: directory, environment: [:])
            do {
                request.redirection = try RedirectOptions.redirection(from: options)
            } catch {
                throw SluiceError(kind: .invalidRequest, message: "redirects at line \(options.mark(of: error.option ?? "").line): \(error.message)")
            }
        }
        if let proxy {
            let options = StageOptions(owner: "proxy", pairs: try rendered(proxy).pairs ?? [], mark: proxy.mark, directory: directory, environment: [:])
            do {
                request.proxyRoute = try ProxyOptions.route(from: options)
            } catch {
                throw SluiceError(kind: .invalidRequest, message: "proxy at line \(proxy.mark.line): \(error.message)")
            }
        }
        if let credential {
            let options = StageOptions(owner: "credential", pairs: try rendered(credential).pairs ?? [], mark: credential.mark, directory: directory, environment: [:])
            request.ownCredentials = try CredentialOptions.credentials(from: options)
        }
        if let connection {
            let options = StageOptions(
                owner: "connection", pairs: try rendered(connection).pairs ?? [], mark: connection.mark, directory: directory, environment: [:]
            )
            do {
                request.connectionOverrides = try ConnectionOptions.overrides(from: options)
            } catch {
                throw SluiceError(kind: .invalidRequest, message: "connection at line \(connection.mark.line): \(error.message)")
            }
        }
        return request
    }
}
