internal import CCurl
import Foundation
import SluiceCore

/// The request as libcurl's options: what is refused before the network, and every option a
/// request sets on its easy handle (callbacks, TLS and trust, proxy, connection overrides, limits,
/// method, body and headers).
extension CurlTransfer {
    /// Refuses what libcurl must not be given, and returns where the request goes: Foundation's
    /// `URL` parses its string again for each of its parts asked, so they are read once, here.
    static func validate(_ request: Request) throws(SluiceError) -> Endpoint {
        let scheme = request.url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https", let host = request.url.host, !host.isEmpty else {
            throw SluiceError(
                kind: .invalidRequest, stage: "transport", url: request.url,
                message: "the URL must be absolute, with an http or https scheme and a host"
            )
        }
        if case .file = request.destination {
            throw SluiceError.fileDestinationAtTransport(url: request.url)
        }
        if !request.method.isValidToken {
            throw SluiceError(
                kind: .invalidRequest, stage: "transport", url: request.url,
                message: "method '\(request.method)' is not an HTTP token (RFC 9110 section 9.1)"
            )
        }
        if let conflict = request.connectionOverrides?.conflict(with: request.proxyRoute) {
            throw SluiceError(kind: .invalidRequest, stage: "transport", url: request.url, message: conflict)
        }
        if request.method == .head, !request.body.isEmpty {
            throw SluiceError(kind: .invalidRequest, stage: "transport", url: request.url, message: "a HEAD request cannot carry a body")
        }
        for field in request.headers {
            if let problem = HTTPHeaders.problem(ofField: field.name, value: field.value) {
                throw SluiceError(kind: .invalidRequest, stage: "transport", url: request.url, message: "header field '\(field.name)': \(problem)")
            }
        }
        let isHTTPS = scheme == "https"
        return Endpoint(isHTTPS: isHTTPS, host: host, port: request.url.port ?? URL.defaultPort(isHTTPS: isHTTPS))
    }

    func configure(_ configuration: CurlTransport.Configuration) throws(SluiceError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        try easy.set(CURLOPT_URL, request.url.absoluteString)
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_NOSIGNAL, 1)
        try easy.set(CURLOPT_PRIVATE, pointer: me)
        try easy.set(CURLOPT_WRITEFUNCTION, callback: curlTransferWrite)
        try easy.set(CURLOPT_WRITEDATA, pointer: me)
        try easy.set(CURLOPT_HEADERFUNCTION, callback: curlTransferHeader)
        try easy.set(CURLOPT_HEADERDATA, pointer: me)
        try easy.set(CURLOPT_READFUNCTION, callback: curlTransferRead)
        try easy.set(CURLOPT_READDATA, pointer: me)
        try easy.set(seekCallback: curlTransferSeek)
        try easy.set(CURLOPT_SEEKDATA, pointer: me)
        try easy.set(CURLOPT_NOPROGRESS, 0)
        try easy.set(progressCallback: curlTransferProgress)
        try easy.set(CURLOPT_XFERINFODATA, pointer: me)
        try easy.set(prerequestCallback: curlTransferPrerequest)
        try easy.set(CURLOPT_PREREQDATA, pointer: me)
        if request.recordsSentHead {
            // libcurl hands what it writes to the debug callback only with VERBOSE on.
            try easy.set(CURLOPT_VERBOSE, 1)
            try easy.set(debugCallback: curlTransferDebug)
            try easy.set(CURLOPT_DEBUGDATA, pointer: me)
        }
        try easy.set(CURLOPT_HTTP_VERSION, request.askedHTTPVersion.flatMap(\.curlValue) ?? configuration.httpVersion.curlValue)
        // A proxy's answer to CONNECT is not the response; its status is read apart
        // (CURLINFO_HTTP_CONNECTCODE), and a streamed response is handed back at its head's end.
        try easy.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        // Codings are undone here (ContentDecoder), never by libcurl, which would fail a response
        // whose Content-Encoding or Transfer-Encoding names one it does not know.
        try easy.set(CURLOPT_HTTP_CONTENT_DECODING, 0)
        if let presentedChainKey {
            try easy.set(sslContextCallback: PresentedChainRecorder.sslContextCallback)
            try easy.set(CURLOPT_SSL_CTX_DATA, pointer: UnsafeMutableRawPointer(bitPattern: presentedChainKey))
        }
        if endpoint.isHTTPS {
            try easy.set(CURLOPT_PIPEWAIT, 1)
        }
        try easy.set(CURLOPT_TCP_KEEPALIVE, 1)
        try easy.set(CURLOPT_SSL_VERIFYPEER, 1)
        try easy.set(CURLOPT_SSL_VERIFYHOST, 2)
        if let caBundle = configuration.caBundle {
            try easy.set(CURLOPT_CAINFO, caBundle)
        }
        if let policy = governingTrustPolicy {
            try configureTrust(policy)
        }
        try configureProxy(request.proxyRoute ?? .environment)
        if let overrides = request.connectionOverrides {
            try configureConnection(overrides)
        }
        if let connect = request.timeouts.connect {
            try easy.set(CURLOPT_CONNECTTIMEOUT_MS, connect.wholeMilliseconds)
        }
        if let total = request.timeouts.total {
            try easy.set(CURLOPT_TIMEOUT_MS, total.wholeMilliseconds)
        }
        if request.sendsPathAsIs {
            try easy.set(CURLOPT_PATH_AS_IS, 1)
        }
        if let rate = request.maxTransferRate, rate > 0 {
            try easy.set(CURLOPT_MAX_RECV_SPEED_LARGE, offset: rate)
            try easy.set(CURLOPT_MAX_SEND_SPEED_LARGE, offset: rate)
        }
        decodesContent = configuration.decodesContent
        try configureMethodAndBody()
        try configureHeaders()
    }

    /// libcurl's side of a trust policy: what the handshake validates, against which anchors.
    /// Pinned connections keep no TLS session cache, so a resumed session (which may show no
    /// chain) never meets a pin.
    func configureTrust(_ policy: TrustPolicy) throws(SluiceError) {
        try easy.set(CURLOPT_SSL_VERIFYPEER, policy.allowsInvalidCertificates ? 0 : 1)
        try easy.set(CURLOPT_SSL_VERIFYHOST, policy.validatesDomainName ? 2 : 0)
        if let caBundle = policy.caBundle {
            try easy.set(CURLOPT_CAINFO, caBundle)
        }
        if let anchors = policy.anchorsPEM {
            try easy.set(CURLOPT_CAINFO_BLOB, blob: anchors)
        }
        if let crlFile = policy.crlFile {
            try easy.set(CURLOPT_CRLFILE, crlFile)
        }
        if policy.requiresStapledOCSP {
            try easy.set(CURLOPT_SSL_VERIFYSTATUS, 1)
        }
        // A resumed session shows no chain to pin and may bring no staple.
        if policy.pinning != .none || policy.requiresStapledOCSP {
            try easy.set(CURLOPT_SSL_SESSIONID_CACHE, 0)
        }
        if let identity = policy.clientIdentity {
            try easy.set(CURLOPT_SSLCERT_BLOB, blob: identity.certificateBytes)
            try easy.set(CURLOPT_SSLCERTTYPE, identity.format.rawValue)
            if let key = identity.keyBytes {
                try easy.set(CURLOPT_SSLKEY_BLOB, blob: key)
                try easy.set(CURLOPT_SSLKEYTYPE, "PEM")
            } else if identity.format == .pem {
                try easy.set(CURLOPT_SSLKEY_BLOB, blob: identity.certificateBytes)
                try easy.set(CURLOPT_SSLKEYTYPE, "PEM")
            }
            if let password = identity.password {
                try easy.set(CURLOPT_KEYPASSWD, password)
            }
        }
    }

    /// libcurl reads the proxy variables itself when CURLOPT_PROXY is unset; an empty CURLOPT_PROXY
    /// turns every proxy off, and CURLOPT_NOPROXY, once set, takes the place of `NO_PROXY`.
    func configureProxy(_ route: ProxyRoute) throws(SluiceError) {
        switch route {
        case .environment:
            break
        case .environmentBypassing(let hosts):
            try easy.set(CURLOPT_NOPROXY, hosts.joined(separator: ","))
        case .direct:
            try easy.set(CURLOPT_PROXY, "")
        case .through(let proxy):
            try easy.set(CURLOPT_PROXY, proxy.url.absoluteString)
            try easy.set(CURLOPT_NOPROXY, proxy.bypass.joined(separator: ","))
            if let caBundle = proxy.caBundle {
                try easy.set(CURLOPT_PROXY_CAINFO, caBundle)
            }
            if let username = proxy.username {
                try easy.set(CURLOPT_PROXYUSERNAME, username)
                try easy.set(CURLOPT_PROXYPASSWORD, proxy.password ?? "")
            }
        }
    }

    /// Where connections go instead of where the host name leads. `resolve` entries are handed to
    /// libcurl as connect-to entries (`HOST:PORT:ADDRESS:PORT`), not as `CURLOPT_RESOLVE`, which
    /// would put the address in the DNS cache the multi handle shares, for every later request to
    /// that name; libcurl keeps connections made with a connect-to or a socket path apart from
    /// others.
    func configureConnection(_ overrides: ConnectionOverrides) throws(SluiceError) {
        if let path = overrides.unixSocketPath {
            try easy.set(CURLOPT_UNIX_SOCKET_PATH, path)
        }
        // libcurl reuses a connection only for a request that asks for the same IP version.
        switch overrides.ipVersion {
        case .v4?: try easy.set(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_V4))
        case .v6?: try easy.set(CURLOPT_IPRESOLVE, Int(CURL_IPRESOLVE_V6))
        case nil: break
        }
        var list: UnsafeMutablePointer<curl_slist>?
        for entry in overrides.resolve {
            let address = entry.address.contains(":") ? "[\(entry.address)]" : entry.address
            list = curl_slist_append(list, "\(entry.host):\(entry.port):\(address):\(entry.port)")
        }
        for entry in overrides.connectTo {
            list = curl_slist_append(list, entry.description)
        }
        connectToList = list
        if let list {
            try easy.set(CURLOPT_CONNECT_TO, list: list)
        }
    }

    func configureMethodAndBody() throws(SluiceError) {
        let method = request.method
        if method == .head {
            try easy.set(CURLOPT_NOBODY, 1)
            return
        }
        // Whether libcurl is told to send a body (CURLOPT_POST), which makes its method POST.
        var sendsBody = true
        if let size = upload?.size {
            try easy.set(CURLOPT_POST, 1)
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: size)
        } else if let streamedUpload {
            // -1: the size is unknown. libcurl then sends the body chunked over HTTP/1.1 and adds the
            // field itself, and over HTTP/2, which forbids the field, frames it in DATA frames;
            // writing `Transfer-Encoding: chunked` here would break HTTP/2 (nginx refuses the stream).
            try easy.set(CURLOPT_POST, 1)
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: streamedUpload.length ?? -1)
        } else if (method == .post || method == .put || method == .patch) && !request.omitsHeader("Content-Length") {
            // RFC 9110 8.6: send `Content-Length: 0` when the method gives content a meaning.
            try easy.set(CURLOPT_POST, 1)
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: 0)
        } else if method == .get {
            try easy.set(CURLOPT_HTTPGET, 1)
            return
        } else {
            sendsBody = false
        }
        // Any other method is named; so is a body-less POST that omits Content-Length, which then
        // goes out as the method alone, as curl's -X POST sends it.
        if method != .post || !sendsBody {
            try easy.set(CURLOPT_CUSTOMREQUEST, method.rawValue)
        }
    }

    /// The request's header fields as libcurl sends them. Content codings are asked for here, not
    /// with `CURLOPT_ACCEPT_ENCODING`: libcurl would then decode too, and fail a response in a
    /// coding it does not know instead of passing its body through (``ContentDecoder``).
    func configureHeaders() throws(SluiceError) {
        let key = CurlHeaderList.Key(
            headers: request.headers,
            omitted: request.omittedHeaders,
            decodesContent: decodesContent,
            sendsBody: upload != nil || streamedUpload != nil || request.method == .post
        )
        headerList = try loop.headerLists.list(for: key)
        if let headerList {
            try easy.set(CURLOPT_HTTPHEADER, list: headerList.raw)
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds, at least 1 for any positive duration (libcurl reads 0
    /// as "no limit").
    var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
        return self > .zero ? max(1, milliseconds) : 0
    }
}

extension HTTPVersion {
    /// libcurl's `CURLOPT_HTTP_VERSION` for a version a request asks for; `nil` for
    /// ``HTTPVersion/unknown``, which leaves the transport's own choice.
    var curlValue: Int? {
        switch self {
        case .http1_0: Int(CURL_HTTP_VERSION_1_0)
        case .http1_1: Int(CURL_HTTP_VERSION_1_1)
        case .http2: Int(CURL_HTTP_VERSION_2_0)
        case .http3: Int(CURL_HTTP_VERSION_3)
        case .unknown: nil
        }
    }
}
