internal import CCurl
internal import COpenSSL
import Synchronization
import SluiceCore

/// What a server presented in a TLS handshake, kept for the transfer's error should the handshake
/// fail: libcurl reports only a sentence ("unable to get local issuer certificate", "no alternative
/// certificate subject name matches"), and the connection is gone by the time the transfer ends.
///
/// For each new connection libcurl calls ``sslContextCallback`` (CURLOPT_SSL_CTX_FUNCTION), which
/// has OpenSSL call ``verifyCallback`` in place of its own verification. That runs the same
/// `X509_verify_cert`, returns its verdict unchanged, and records the certificates the server sent
/// (and OpenSSL's reason when it refused) under the transfer's key; libcurl's host-name check comes
/// after it. A key, not a pointer: a callback that runs after its transfer ended (a TLS 1.2
/// renegotiation on a reused connection) finds no key and records nothing.
enum PresentedChainRecorder {
    /// What a handshake showed, and why OpenSSL refused it if it did.
    struct Record: Sendable {
        /// The certificates the server sent, its own first.
        var certificates: [X509Certificate]
        /// OpenSSL's reason, for example `certificate has expired`; `nil` when it verified the chain.
        var reason: String?
    }

    private static let keys = Atomic<Int>(0)
    /// Registered keys, each with what its transfer's handshake recorded, if anything.
    private static let records = Locked<[Int: Record?]>([:])

    /// A new key, registered until ``take(_:)``.
    static func register() -> Int {
        let key = keys.add(1, ordering: .relaxed).newValue
        records.withLock { $0[key] = .some(nil) }
        return key
    }

    /// What was recorded under `key`, if anything; the key is unregistered.
    static func take(_ key: Int) -> Record? {
        records.withLock { $0.removeValue(forKey: key) } ?? nil
    }

    private static func record(_ key: Int, _ record: Record) {
        records.withLock { records in
            if records[key] != nil { records[key] = record }
        }
    }

    /// CURLOPT_SSL_CTX_FUNCTION: installs ``verifyCallback`` on the connection's SSL_CTX, with the
    /// transfer's key (CURLOPT_SSL_CTX_DATA) as its argument.
    static let sslContextCallback: sluice_ssl_context_callback = { _, context, key in
        if let context {
            sluice_set_verify_callback(OpaquePointer(context), verifyCallback, key)
        }
        return CURLE_OK
    }

    /// OpenSSL's verification, unchanged, with the presented chain recorded.
    private static let verifyCallback: sluice_verify_callback = { store, key in
        guard let store else { return 0 }
        let verdict = sluice_verify_store(store)
        if let key = key.map({ Int(bitPattern: $0) }) {
            var certificates: [X509Certificate] = []
            if let presented = sluice_store_presented(store) {
                for index in 0..<sluice_chain_count(presented) {
                    if let certificate = sluice_chain_certificate(presented, index) { certificates.append(X509Certificate(certificate)) }
                }
            }
            let reason = verdict == 1 ? nil : sluice_store_error_text(store).map { String(cString: $0) } ?? "verification failed"
            record(key, Record(certificates: certificates, reason: reason))
        }
        return verdict
    }
}
