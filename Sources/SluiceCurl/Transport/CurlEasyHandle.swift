internal import CCurl
import Foundation
import SluiceCore

/// One libcurl easy handle with its error buffer, reused from transfer to transfer.
///
/// A handle is used by one thread at a time: configured by the task that takes it from the pool,
/// then driven by the I/O thread, then reset and put back.
final class CurlEasyHandle: @unchecked Sendable {
    /// The `CURL *`.
    let raw: UnsafeMutableRawPointer
    /// libcurl's detailed message for the last failure (CURLOPT_ERRORBUFFER).
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init() throws(SluiceError) {
        try CurlGlobal.initialize()
        guard let raw = curl_easy_init() else {
            throw SluiceError(kind: .transport, stage: "transport", message: "curl_easy_init failed")
        }
        self.raw = raw
        errorBuffer = .allocate(capacity: Int(SLUICE_CURL_ERROR_SIZE))
        errorBuffer.initialize(to: 0)
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// Clears every option (live connections, caches and the handle itself are kept) and points
    /// the error buffer at this handle's buffer again.
    func reset() {
        curl_easy_reset(raw)
        // curl_easy_reset keeps a share object attached; the next transfer must not inherit it.
        _ = sluice_easy_setopt_pointer(raw, CURLOPT_SHARE, nil)
        errorBuffer[0] = 0
        _ = sluice_easy_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    /// libcurl's message for `code`: the detailed one from the error buffer when there is one.
    func message(for code: CURLcode) -> String {
        errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
    }

    // MARK: Options

    func set(_ option: CURLoption, _ value: Int) throws(SluiceError) {
        try check(sluice_easy_setopt_long(raw, option, value), option)
    }

    func set(_ option: CURLoption, offset value: Int64) throws(SluiceError) {
        try check(sluice_easy_setopt_offset(raw, option, curl_off_t(value)), option)
    }

    func set(_ option: CURLoption, _ value: String) throws(SluiceError) {
        try check(sluice_easy_setopt_string(raw, option, value), option)
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(SluiceError) {
        try check(sluice_easy_setopt_pointer(raw, option, value), option)
    }

    func set(_ option: CURLoption, blob value: Data) throws(SluiceError) {
        var bytes = value
        let code = bytes.withUnsafeMutableBytes { sluice_easy_setopt_blob(raw, option, $0.baseAddress, $0.count) }
        try check(code, option)
    }

    func set(_ option: CURLoption, list value: UnsafeMutablePointer<curl_slist>?) throws(SluiceError) {
        try check(sluice_easy_setopt_slist(raw, option, value), option)
    }

    func set(_ option: CURLoption, callback value: sluice_data_callback) throws(SluiceError) {
        try check(sluice_easy_setopt_data_callback(raw, option, value), option)
    }

    func set(progressCallback value: sluice_xferinfo_callback) throws(SluiceError) {
        try check(sluice_easy_setopt_xferinfo_callback(raw, value), CURLOPT_XFERINFOFUNCTION)
    }

    func set(debugCallback value: sluice_debug_callback) throws(SluiceError) {
        try check(sluice_easy_setopt_debug_callback(raw, value), CURLOPT_DEBUGFUNCTION)
    }

    func set(prerequestCallback value: sluice_prereq_callback) throws(SluiceError) {
        try check(sluice_easy_setopt_prereq_callback(raw, value), CURLOPT_PREREQFUNCTION)
    }

    func set(sslContextCallback value: sluice_ssl_context_callback) throws(SluiceError) {
        try check(sluice_easy_setopt_ssl_context_callback(raw, value), CURLOPT_SSL_CTX_FUNCTION)
    }

    func set(seekCallback value: sluice_seek_callback) throws(SluiceError) {
        try check(sluice_easy_setopt_seek_callback(raw, value), CURLOPT_SEEKFUNCTION)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(SluiceError) {
        guard code == CURLE_OK else {
            throw .libcurl(code, "libcurl refused option \(option.rawValue)")
        }
    }

    // MARK: Information

    func long(_ info: CURLINFO) -> Int {
        var value = 0
        return sluice_easy_getinfo_long(raw, info, &value) == CURLE_OK ? value : 0
    }

    func offset(_ info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        return sluice_easy_getinfo_offset(raw, info, &value) == CURLE_OK ? Int64(value) : 0
    }

    func string(_ info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard sluice_easy_getinfo_string(raw, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    func pointer(_ info: CURLINFO) -> UnsafeMutableRawPointer? {
        var value: UnsafeMutableRawPointer?
        return sluice_easy_getinfo_pointer(raw, info, &value) == CURLE_OK ? value : nil
    }

    /// A duration reported in microseconds (the `*_TIME_T` infos).
    func duration(_ info: CURLINFO) -> Duration {
        .microseconds(offset(info))
    }
}

/// Idle easy handles kept for reuse, so a request does not pay for `curl_easy_init`.
final class CurlEasyPool: Sendable {
    private let idle = Locked<[CurlEasyHandle]>([])
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// A reset handle: an idle one, or a new one.
    func take() throws(SluiceError) -> CurlEasyHandle {
        if let handle = idle.withLock({ $0.popLast() }) {
            return handle
        }
        let handle = try CurlEasyHandle()
        handle.reset()
        return handle
    }

    /// Resets `handle` and keeps it for reuse, or frees it when the pool is full.
    func recycle(_ handle: CurlEasyHandle) {
        handle.reset()
        idle.withLock { idle in
            if idle.count < capacity { idle.append(handle) }
        }
    }
}
