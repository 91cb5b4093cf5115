internal import CCurl
import Foundation
import SluiceCore

/// The exchange's figures as libcurl measured them, with what the transfer saw itself.
extension CurlTransfer {
    /// The exchange's timings, sizes, protocol and peer, with the certificates and request head
    /// recorded when asked for.
    func readMetrics() -> TransferMetrics {
        let nameLookup = easy.duration(CURLINFO_NAMELOOKUP_TIME_T)
        let connected = easy.duration(CURLINFO_CONNECT_TIME_T)
        let tlsDone = easy.duration(CURLINFO_APPCONNECT_TIME_T)
        let version: HTTPVersion
        switch easy.long(CURLINFO_HTTP_VERSION) {
        case Int(CURL_HTTP_VERSION_1_0): version = .http1_0
        case Int(CURL_HTTP_VERSION_1_1): version = .http1_1
        case Int(CURL_HTTP_VERSION_2_0): version = .http2
        case Int(CURL_HTTP_VERSION_3): version = .http3
        default: version = .unknown
        }
        let remotePort = easy.long(CURLINFO_PRIMARY_PORT)
        let localPort = easy.long(CURLINFO_LOCAL_PORT)
        let bodyBytes = easy.offset(CURLINFO_SIZE_DOWNLOAD_T)
        var metrics = TransferMetrics(
            dnsLookup: nameLookup,
            connect: max(.zero, connected - nameLookup),
            tlsHandshake: tlsDone > .zero ? max(.zero, tlsDone - connected) : .zero,
            timeToPreTransfer: easy.duration(CURLINFO_PRETRANSFER_TIME_T),
            timeToFirstByte: easy.duration(CURLINFO_STARTTRANSFER_TIME_T),
            total: easy.duration(CURLINFO_TOTAL_TIME_T),
            bytesSent: Int64(easy.long(CURLINFO_REQUEST_SIZE)) + easy.offset(CURLINFO_SIZE_UPLOAD_T),
            bytesReceived: Int64(easy.long(CURLINFO_HEADER_SIZE)) + bodyBytes,
            connectionReused: easy.long(CURLINFO_NUM_CONNECTS) == 0,
            httpVersion: version,
            remoteAddress: easy.string(CURLINFO_PRIMARY_IP),
            remotePort: remotePort > 0 ? remotePort : nil,
            localPort: localPort > 0 ? localPort : nil
        )
        metrics.bodyBytesReceived = bodyBytes
        metrics.localAddress = easy.string(CURLINFO_LOCAL_IP)
        let tunnel = easy.long(CURLINFO_HTTP_CONNECTCODE)
        metrics.proxyTunnelStatus = tunnel > 0 ? tunnel : nil
        metrics.tlsVerifyResult = easy.long(CURLINFO_SSL_VERIFYRESULT)
        metrics.peerCertificates = peerCertificates
        metrics.requestSentAt = requestSentAt
        metrics.reasonPhrase = state.head.reasonPhrase
        if let sentHead { metrics.sentHead = String(decoding: sentHead, as: UTF8.self) }
        return metrics
    }
}
