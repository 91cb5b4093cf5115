import Foundation
import SluiceCore
import SluiceReachability
import SluiceStageRegistry

/// The descriptors of Sluice's own stages: their names, options and factories, as the pipeline
/// format names them.
enum BuiltInStages {
    static let descriptors: [StageDescriptor] = [
        urlResolution, headerInjection, serialization, trustEvaluation, proxy, connection, responseDecoding, redirects, cookies, cache,
        reachability, hsts, authentication,
    ]

    /// The stages as made with no options: what an option left out takes, and the default
    /// `sluice stages` and the schema show for it, so that the two cannot differ.
    private enum Standard {
        static let reachability = ReachabilityCheck()
        static let serialization = Serialization()
        static let decoding = ResponseDecoding()
        /// The trust settings of a `trust-evaluation` with no options, those of `TrustPolicy()`.
        static let trust = TrustSettings()
    }

    static let reachability = StageDescriptor(
        name: "reachability",
        summary: "Checks that a route leads to the host before sending: with none, fails at once (not reachable), or waits for one (URLSession's waitsForConnectivity).",
        options: [
            OptionDescriptor(
                "waits-for-connectivity", .boolean, default: "\(Standard.reachability.waitsForConnectivity)",
                summary: "Wait, up to the request's timeout (else max-wait), while no route leads to the host, instead of failing at once."
            ),
            OptionDescriptor("max-wait", .duration, default: DurationText.string(Standard.reachability.maximumWait), summary: "The longest wait for a request with no timeout."),
        ]
    ) { options in
        ReachabilityCheck(
            waitsForConnectivity: options.bool("waits-for-connectivity") ?? Standard.reachability.waitsForConnectivity,
            maximumWait: options.duration("max-wait") ?? Standard.reachability.maximumWait
        )
    }

    static let urlResolution = StageDescriptor(
        name: "url-resolution",
        summary: "Resolves each request's path against a base URL (RFC 3986) and fills its {name} templates.",
        options: [
            OptionDescriptor("base-url", .string, required: true, summary: "An absolute http or https URL; a path not ending in '/' gets one."),
        ]
    ) { options in
        try URLResolution(baseURL: options.string("base-url")!)
    }

    static let headerInjection = StageDescriptor(
        name: "header-injection",
        summary: "Adds headers to every request, never over a header the request sets itself.",
        options: [
            OptionDescriptor("headers", .map(.string), summary: "Headers for every request."),
            OptionDescriptor("user-agent", .string, summary: "default (sluice/VERSION (OS; ARCH)), none, or any string."),
            OptionDescriptor("accept-language", .string, summary: "default (from LANGUAGE, LC_ALL, LANG), none, or any string."),
            OptionDescriptor(
                "authorization",
                .object([
                    OptionDescriptor(
                        "basic",
                        .object([
                            OptionDescriptor("username", .string, required: true, secret: true, summary: "The user name."),
                            OptionDescriptor("password", .string, required: true, secret: true, summary: "The password."),
                        ]),
                        secret: true,
                        summary: "Basic credentials (RFC 7617)."
                    ),
                    OptionDescriptor("bearer", .string, secret: true, summary: "A bearer token (RFC 6750)."),
                ]),
                secret: true,
                summary: "basic: {username, password} or bearer: TOKEN; redacted in every output."
            ),
        ]
    ) { options in
        HeaderInjection(
            headers: HTTPHeaders(options.pairs("headers") ?? []),
            userAgent: defaulted(options.string("user-agent")),
            acceptLanguage: defaulted(options.string("accept-language")),
            authorization: try authorization(options.options("authorization")),
            environment: options.environment
        )
    }

    private static func defaulted(_ text: String?) -> HeaderInjection.DefaultedValue {
        switch text {
        case nil, "default": .default
        case "none": .none
        case let value?: .custom(value)
        }
    }

    private static func authorization(_ options: StageOptions?) throws(StageOptions.Invalid) -> HeaderInjection.Authorization? {
        guard let options else { return nil }
        switch (options.options("basic"), options.string("bearer")) {
        case (let basic?, nil):
            return .basic(username: basic.string("username")!, password: basic.string("password")!)
        case (nil, let token?):
            return .bearer(token)
        default:
            throw StageOptions.Invalid(option: "authorization", message: "authorization takes one of basic: {username, password} and bearer: TOKEN")
        }
    }

    static let serialization = StageDescriptor(
        name: "serialization",
        summary: "Writes each request's parameters into the query or the body, or its parts into a multipart body.",
        options: [
            OptionDescriptor("format", .choice(Serialization.Format.allCases.map(\.rawValue)), default: Standard.serialization.format.rawValue, summary: "How parameters are written."),
            OptionDescriptor(
                "array-encoding", .choice(FormEncoder.ArrayEncoding.allCases.map(\.rawValue)), default: Standard.serialization.formEncoder.arrayEncoding.rawValue,
                summary: "Form arrays as a[]=1 (brackets), a[0]=1 (indices) or a=1 (repeat)."
            ),
            OptionDescriptor(
                "bool-encoding", .choice(FormEncoder.BoolEncoding.allCases.map(\.rawValue)), default: Standard.serialization.formEncoder.boolEncoding.rawValue,
                summary: "Form Booleans as 1/0 (numeric) or true/false (literal)."
            ),
            OptionDescriptor(
                "space", .choice(FormEncoder.SpaceEncoding.allCases.map(\.rawValue)), default: Standard.serialization.formEncoder.spaceEncoding.rawValue,
                summary: "A space in a form as %20 (percent) or + (plus)."
            ),
            OptionDescriptor(
                "parameters-in-uri", .list(.string), default: "[" + Serialization.defaultParametersInURI.map(\.rawValue).joined(separator: ", ") + "]",
                summary: "Methods whose parameters go in the query; others send them as the body."
            ),
        ]
    ) { options in
        Serialization(
            format: options.string("format").flatMap(Serialization.Format.init(rawValue:)) ?? Standard.serialization.format,
            formEncoder: FormEncoder(
                arrayEncoding: options.string("array-encoding").flatMap(FormEncoder.ArrayEncoding.init(rawValue:)) ?? Standard.serialization.formEncoder.arrayEncoding,
                boolEncoding: options.string("bool-encoding").flatMap(FormEncoder.BoolEncoding.init(rawValue:)) ?? Standard.serialization.formEncoder.boolEncoding,
                spaceEncoding: options.string("space").flatMap(FormEncoder.SpaceEncoding.init(rawValue:)) ?? Standard.serialization.formEncoder.spaceEncoding
            ),
            parametersInURI: options.strings("parameters-in-uri").map { Set($0.map { HTTPMethod($0.uppercased()) }) } ?? Standard.serialization.parametersInURI
        )
    }

    static let trustEvaluation = StageDescriptor(
        name: "trust-evaluation",
        summary: "Checks the server's certificate chain after the TLS handshake, before any request byte: pinning, CA bundle, validation switches.",
        options: [
            OptionDescriptor(
                "pinning", .choice(TrustPolicy.Pinning.allCases.map(\.rawValue)), default: Standard.trust.pinning.rawValue,
                summary: "What is pinned: nothing, a public key (SPKI SHA-256), or a whole certificate."
            ),
            OptionDescriptor("pins", .list(.string), summary: "sha256//BASE64 hashes, or PEM/DER certificate files relative to the pipeline file."),
            OptionDescriptor("ca-bundle", .string, summary: "A PEM file of trust anchors used instead of the system store."),
            OptionDescriptor(
                "allow-invalid-certificates", .boolean, default: "\(Standard.trust.allowsInvalidCertificates)",
                summary: "Accept certificates that do not validate (expired, unknown issuer)."
            ),
            OptionDescriptor("validates-domain-name", .boolean, default: "\(Standard.trust.validatesDomainName)", summary: "Check the certificate's name against the host."),
            OptionDescriptor("hosts", .list(.string), summary: "The hosts the policy applies to (*.example.com, **.example.com allowed); others get the default."),
            OptionDescriptor("client-certificate", .string, summary: "Mutual TLS: a PEM certificate (intermediates may follow) or a PKCS#12 file, relative to the pipeline file."),
            OptionDescriptor("client-key", .string, summary: "The PEM key of client-certificate, when it is not in the certificate's file."),
            OptionDescriptor("client-key-password", .string, secret: true, summary: "The password of an encrypted key or of a PKCS#12 file."),
            OptionDescriptor("client-intermediates", .string, summary: "A PEM file of intermediate certificates sent after the client certificate."),
            OptionDescriptor("crl-file", .string, summary: "A PEM file of certificate revocation lists, as curl's --crlfile: a revoked certificate in the chain fails the handshake."),
            OptionDescriptor(
                "cert-status", .boolean, default: "\(Standard.trust.requiresStapledOCSP)",
                summary: "Require a good OCSP answer stapled by the server, as curl's --cert-status: a revoked, missing or bad one fails the handshake."
            ),
        ]
    ) { options in
        var settings = Standard.trust
        settings.pinning = options.string("pinning").flatMap(TrustPolicy.Pinning.init(rawValue:)) ?? Standard.trust.pinning
        for text in options.strings("pins") ?? [] {
            settings.pins += try TrustPin.pins(from: text, relativeTo: options.directory)
        }
        settings.caBundle = options.path("ca-bundle")
        settings.allowsInvalidCertificates = options.bool("allow-invalid-certificates") ?? Standard.trust.allowsInvalidCertificates
        settings.validatesDomainName = options.bool("validates-domain-name") ?? Standard.trust.validatesDomainName
        settings.hosts = options.strings("hosts")
        settings.clientCertificate = options.path("client-certificate")
        settings.clientKey = options.path("client-key")
        settings.clientKeyPassword = options.string("client-key-password")
        settings.clientIntermediates = options.path("client-intermediates")
        settings.crlFile = options.path("crl-file")
        settings.requiresStapledOCSP = options.bool("cert-status") ?? Standard.trust.requiresStapledOCSP
        do throws(TrustSettings.Invalid) {
            return TrustEvaluation(policy: try settings.policy { trustOptionNames[$0] })
        } catch {
            guard let field = error.field, let option = trustOptionNames[field] else {
                throw SluiceError(kind: .configuration, stage: "trust-evaluation", message: error.message)
            }
            throw StageOptions.Invalid(option: option, message: error.message)
        }
    }

    /// The `trust-evaluation` option of each trust setting.
    private static let trustOptionNames: [TrustSettings.Field: String] = [
        .pins: "pins", .caBundle: "ca-bundle", .allowsInvalidCertificates: "allow-invalid-certificates", .clientCertificate: "client-certificate",
        .clientKey: "client-key", .clientKeyPassword: "client-key-password", .clientIntermediates: "client-intermediates", .crlFile: "crl-file",
        .requiresStapledOCSP: "cert-status",
    ]

    static let proxy = StageDescriptor(
        name: "proxy",
        summary: "Sends requests through a forward proxy (http, https, socks5, socks5h), or directly: either way the proxy environment variables are ignored.",
        options: ProxyOptions.descriptors
    ) { options in
        ProxySelection(route: try ProxyOptions.route(from: options))
    }

    static let authentication = StageDescriptor(
        name: "authentication",
        summary: "Answers HTTP authentication challenges with each host's credential, as curl's -u with --basic, --digest or --anyauth: Basic (sent at once when it is the only scheme) and Digest (MD5, SHA-256, SHA-512-256); never sent to another host, port or scheme, redirects included. NTLM and Negotiate are not offered.",
        options: [
            OptionDescriptor(
                "credentials", .list(.object([
                    OptionDescriptor("host", .string, required: true, summary: "The host the credential is for (no other host gets it)."),
                    OptionDescriptor("port", .integer, summary: "Only this port of the host; any port when absent."),
                    OptionDescriptor("realm", .string, summary: "Only this realm, once the server names it in a challenge; any realm when absent."),
                    OptionDescriptor("username", .string, required: true, summary: "The user."),
                    OptionDescriptor("password", .string, required: true, secret: true, summary: "The password."),
                    OptionDescriptor(
                        "schemes", .choice(["any", "basic", "digest"]), default: "any",
                        summary: "basic: sent with the first request; digest: answers Digest challenges only; any: the server's challenge chooses, Digest before Basic."
                    ),
                ])),
                required: true,
                summary: "The credentials, one per host (and port, and realm)."
            ),
        ]
    ) { options in
        guard let list = options.node("credentials")?.elements, !list.isEmpty else {
            throw StageOptions.Invalid(option: "credentials", message: "credentials is empty: give at least one {host, username, password}")
        }
        var entries: [HTTPCredentialStore.Entry] = []
        for item in list {
            let entry = StageOptions(owner: "authentication.credentials", pairs: item.pairs ?? [], mark: item.mark, directory: options.directory, environment: options.environment)
            let port = entry.integer("port")
            if let port, !(1...65535).contains(port) {
                throw StageOptions.Invalid(option: "credentials", message: "port \(port) is not a TCP port (1-65535)")
            }
            entries.append(HTTPCredentialStore.Entry(
                host: entry.string("host") ?? "", port: port, realm: entry.string("realm"),
                credential: HTTPCredential(
                    username: entry.string("username") ?? "", password: entry.string("password") ?? "",
                    schemes: entry.string("schemes").flatMap(HTTPAuthenticationSchemes.init(name:)) ?? .any
                )
            ))
        }
        return HTTPAuthentication(credentials: entries)
    }

    static let connection = StageDescriptor(
        name: "connection",
        summary: "Sends every connection to a Unix domain socket, or a host name and port to another address, host or port (curl's --unix-socket, --resolve, --connect-to); the URL, Host, TLS name, certificate check and pins stay the request's.",
        options: ConnectionOptions.descriptors
    ) { options in
        guard !options.names.isEmpty else {
            throw StageOptions.Invalid(option: nil, message: "connection needs unix-socket, resolve, connect-to or ip-version")
        }
        return ConnectionRouting(try ConnectionOptions.overrides(from: options))
    }

    static let responseDecoding = StageDescriptor(
        name: "response-decoding",
        summary: "Checks each response's status and content type, then decodes its body.",
        options: [
            OptionDescriptor("format", .choice(ResponseDecoding.Format.allCases.map(\.rawValue)), default: Standard.decoding.format.rawValue, summary: "How the body is decoded; auto goes by Content-Type."),
            OptionDescriptor(
                "acceptable-status", .list(.statusCode), default: "[\(Standard.decoding.acceptableStatus)]",
                summary: "Statuses that pass; others are an unacceptable-status error."
            ),
            OptionDescriptor(
                "acceptable-content-types", .list(.string), default: "the format's own",
                summary: "Media types that pass (type/* allowed), or any to turn the check off."
            ),
            OptionDescriptor(
                "removes-keys-with-null-values", .boolean, default: "\(Standard.decoding.removesKeysWithNullValues)",
                summary: "Drop null-valued keys and null array elements, recursively."
            ),
        ]
    ) { options in
        let contentTypes: ResponseDecoding.AcceptableContentTypes
        switch options.strings("acceptable-content-types") {
        case nil: contentTypes = .default
        case ["any"]?: contentTypes = .any
        case let texts?:
            var types: [MediaType] = []
            for text in texts {
                guard let type = MediaType(parsing: text) else {
                    throw StageOptions.Invalid(option: "acceptable-content-types", message: "'\(text)' is not a media type such as application/json")
                }
                types.append(type)
            }
            contentTypes = .only(types)
        }
        return ResponseDecoding(
            format: options.string("format").flatMap(ResponseDecoding.Format.init(rawValue:)) ?? Standard.decoding.format,
            acceptableStatus: options.statusCodes("acceptable-status") ?? Standard.decoding.acceptableStatus,
            acceptableContentTypes: contentTypes,
            removesKeysWithNullValues: options.bool("removes-keys-with-null-values") ?? Standard.decoding.removesKeysWithNullValues
        )
    }

    static let redirects = StageDescriptor(
        name: "redirects",
        summary: "Follows redirects: the last call stage, so every hop passes the hop stages (cookies, cache, trust); added to every pipeline that lists none.",
        options: RedirectOptions.descriptors
    ) { options in
        try RedirectOptions.redirection(from: options)
    }

    static let cookies = StageDescriptor(
        name: "cookies",
        summary: "Keeps cookies between requests (RFC 6265), every redirect hop included; sluice run adds it, with a new jar, to every pipeline that lists none.",
        holdsRunState: true,
        options: [
            OptionDescriptor("file", .string, summary: "A cookie file in curl's format (-b, -c), read before the first request if it exists and written after the run."),
            OptionDescriptor("read", .string, summary: "A cookie file only read, before the first request (curl's -b FILE, Hurl's --cookie)."),
            OptionDescriptor("write", .string, summary: "A cookie file only written, after the run (curl's -c FILE, Hurl's --cookie-jar)."),
        ]
    ) { options in
        let file = options.path("file"), read = options.path("read"), write = options.path("write")
        if file != nil, let other = read != nil ? "read" : write != nil ? "write" : nil {
            throw StageOptions.Invalid(option: other, message: "give file: (read and written) or read: and write:, not file: and \(other): both")
        }
        let option = read != nil ? "read" : "file"
        do {
            return try CookieHandling(reading: (file ?? read).map { URL(fileURLWithPath: $0) }, saving: (file ?? write).map { URL(fileURLWithPath: $0) })
        } catch let error as InputFile.Unreadable {
            throw StageOptions.Invalid(option: option, message: error.description)
        } catch {
            throw StageOptions.Invalid(option: option, message: "cannot read the cookie file: \(error)")
        }
    }

    static let hsts = StageDescriptor(
        name: "hsts",
        summary: "HTTP Strict Transport Security (RFC 6797), as curl's --hsts: http:// to a host known to want HTTPS goes over https://, and Strict-Transport-Security answers over HTTPS are learned; sluice run adds it, held in memory, to every pipeline that lists none.",
        holdsRunState: true,
        options: [
            OptionDescriptor("file", .string, summary: "An HSTS file in curl's format (--hsts), read before the first request if it exists and written after the run."),
        ]
    ) { options in
        do {
            return StrictTransportSecurity(store: try options.path("file").map { try HSTSStore(file: URL(fileURLWithPath: $0)) } ?? HSTSStore())
        } catch let error as InputFile.Unreadable {
            throw StageOptions.Invalid(option: "file", message: error.description)
        } catch let error as HSTSFile.LineError {
            throw StageOptions.Invalid(option: "file", message: error.description)
        } catch {
            throw StageOptions.Invalid(option: "file", message: "cannot read the HSTS file: \(error)")
        }
    }

    static let cache = StageDescriptor(
        name: "cache",
        summary: "A private HTTP cache (RFC 9111): fresh responses answered without sending, stale ones validated (304), unsafe methods invalidate; in memory, or in a directory several runs share.",
        options: [
            OptionDescriptor("directory", .string, summary: "Keep responses in this directory (made with mode 0700), shared by runs and processes; in memory when absent."),
            OptionDescriptor("max-size", .string, summary: "The most bytes kept, least recently used evicted first: 16MiB in memory, 256MiB in a directory by default."),
            OptionDescriptor("stale-if-error", .duration, summary: "Return a response stale by up to this long when the server fails or answers 500, 502, 503 or 504 (RFC 5861); off by default."),
        ]
    ) { options in
        var capacity: Int64?
        if let text = options.string("max-size") {
            guard let parsed = ByteCountText.parse(text) else {
                throw StageOptions.Invalid(option: "max-size", message: "max-size must be a size such as 500KB or 64MiB, not \(text)")
            }
            capacity = parsed
        }
        let store: any CacheStore
        if let directory = options.path("directory") {
            do {
                store = try DiskCacheStore(directory: URL(fileURLWithPath: directory), capacity: capacity ?? DiskCacheStore.defaultCapacity)
            } catch {
                throw StageOptions.Invalid(option: "directory", message: (error as? SluiceError)?.message ?? "\(error)")
            }
        } else {
            store = MemoryCacheStore(capacity: capacity ?? MemoryCacheStore.defaultCapacity)
        }
        return ResponseCaching(store: store, staleIfError: options.duration("stale-if-error"))
    }
}

extension StageRegistry {
    /// A registry holding the built-in stages: `url-resolution`, `header-injection`,
    /// `serialization`, `trust-evaluation`, `proxy`, `response-decoding`, `redirects` and `cookies`.
    public static var builtIn: StageRegistry {
        StageRegistry(distinct: BuiltInStages.descriptors)
    }
}
