extension CurlTransfer {
    /// Where a transfer goes, read once from its request's URL when the transfer is made: the
    /// options, the presented-chain recorder and the trust question all ask for it.
    struct Endpoint: Sendable {
        /// Whether the scheme is `https` (any other that reaches a transfer is `http`).
        let isHTTPS: Bool
        /// The URL's host, as `URL.host` gives it.
        let host: String
        /// The URL's port, or the scheme's default.
        let port: Int
    }
}
