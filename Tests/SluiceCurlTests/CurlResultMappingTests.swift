import Foundation
import CCurl
import Testing
@testable import SluiceCore
@testable import SluiceCurl

@Suite("libcurl result codes")
struct CurlResultMappingTests {
    @Test("each code maps to the kind users match on", arguments: [
        (CURLE_COULDNT_RESOLVE_HOST, true, SluiceError.Kind.dns),
        (CURLE_COULDNT_CONNECT, false, .connect),
        (CURLE_OPERATION_TIMEDOUT, false, .connectTimeout),
        (CURLE_OPERATION_TIMEDOUT, true, .timeout),
        (CURLE_PEER_FAILED_VERIFICATION, true, .tls),
        (CURLE_SSL_CONNECT_ERROR, false, .tls),
        (CURLE_SSL_PINNEDPUBKEYNOTMATCH, true, .tls),
        (CURLE_RECV_ERROR, true, .connectionLost),
        (CURLE_SEND_ERROR, true, .connectionLost),
        (CURLE_GOT_NOTHING, true, .connectionLost),
        (CURLE_PARTIAL_FILE, true, .connectionLost),
        (CURLE_WEIRD_SERVER_REPLY, true, .protocolError),
        (CURLE_HTTP2_STREAM, true, .protocolError),
        (CURLE_BAD_CONTENT_ENCODING, true, .protocolError),
        (CURLE_URL_MALFORMAT, false, .invalidRequest),
        (CURLE_UNSUPPORTED_PROTOCOL, false, .invalidRequest),
        (CURLE_UNSUPPORTED_PROTOCOL, true, .protocolError),
        (CURLE_FILESIZE_EXCEEDED, true, .responseTooLarge),
        (CURLE_WRITE_ERROR, true, .fileIO),
        (CURLE_OUT_OF_MEMORY, true, .transport),
    ])
    func mapping(code: CURLcode, connected: Bool, kind: SluiceError.Kind) {
        #expect(SluiceError.Kind(curlCode: code, connected: connected) == kind)
    }

    @Test("an error's description says what, where and for which URL")
    func description() {
        let error = SluiceError(kind: .timeout, stage: "transport", url: URL(string: "http://example.test/path")!, message: "Operation timed out after 1000 milliseconds")
        #expect(error.description == "timeout in transport for http://example.test/path: Operation timed out after 1000 milliseconds")
    }
}
