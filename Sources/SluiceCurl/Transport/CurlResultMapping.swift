internal import CCurl
import Foundation
import SluiceCore

extension SluiceError.Kind {
    /// The kind of failure a libcurl result code stands for.
    /// - Parameters:
    ///   - code: the transfer's CURLcode (not `CURLE_OK`).
    ///   - connected: whether the connection (and its TLS handshake) was established, which tells a
    ///     connect timeout from a timeout later on.
    init(curlCode code: CURLcode, connected: Bool) {
        switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            // Before connecting: a scheme libcurl will not speak. After: the server's answer is not
            // HTTP (libcurl says "Unsupported response code" or "Received HTTP/0.9").
            self = connected ? .protocolError : .invalidRequest
        case CURLE_URL_MALFORMAT, CURLE_BAD_FUNCTION_ARGUMENT:
            self = .invalidRequest
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            self = .dns
        case CURLE_COULDNT_CONNECT:
            self = .connect
        case CURLE_OPERATION_TIMEDOUT:
            self = connected ? .timeout : .connectTimeout
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED,
            CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_SHUTDOWN_FAILED, CURLE_USE_SSL_FAILED:
            self = .tls
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE:
            self = .connectionLost
        case CURLE_WEIRD_SERVER_REPLY, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_BAD_CONTENT_ENCODING,
            CURLE_HTTP3, CURLE_QUIC_CONNECT_ERROR, CURLE_TOO_MANY_REDIRECTS:
            self = .protocolError
        case CURLE_WRITE_ERROR, CURLE_READ_ERROR:
            self = .fileIO
        case CURLE_FILESIZE_EXCEEDED:
            self = .responseTooLarge
        default:
            self = .transport
        }
    }
}

extension SluiceError {
    /// A libcurl call that failed outside any transfer: `what` says which, libcurl says why.
    static func libcurl(_ code: CURLcode, _ what: String) -> SluiceError {
        SluiceError(
            kind: .transport,
            stage: "transport",
            message: "\(what): \(String(cString: curl_easy_strerror(code)))",
            transportCode: Int(code.rawValue)
        )
    }
}

extension SluiceError {
    /// libcurl's result code (CURLcode) for the failure, when the libcurl transport reported it:
    /// the error's `transportCode`.
    public var curlCode: Int? {
        get { transportCode }
        set { transportCode = newValue }
    }
}
