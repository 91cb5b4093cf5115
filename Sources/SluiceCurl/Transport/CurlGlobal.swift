internal import CCurl
import SluiceCore

/// libcurl's process-wide set-up, done once before the first handle is made.
enum CurlGlobal {
    /// The result of `curl_global_init`, run on first use (Swift runs a global's initializer once,
    /// thread-safely).
    private static let initialization: CURLcode = curl_global_init(Int(SLUICE_CURL_GLOBAL_ALL))

    /// Initializes libcurl if no one has yet; throws when libcurl cannot start.
    static func initialize() throws(SluiceError) {
        guard initialization == CURLE_OK else {
            throw .libcurl(initialization, "curl_global_init failed")
        }
    }

    /// The version of the libcurl the process runs with, for example `7.88.1`.
    static var version: String {
        String(cString: sluice_version_info().pointee.version)
    }
}
