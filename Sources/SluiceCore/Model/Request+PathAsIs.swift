extension Request {
    private enum PathAsIs: StageValueKey { typealias Value = Bool }

    /// Whether the URL's path goes out as it is, its `/../` and `/./` segments included (curl's
    /// `--path-as-is`); by default the transport removes them first (RFC 3986 section 5.2.4), as
    /// curl does. Setting it on a request made from a string makes its `url` again from that
    /// string, its dot segments kept or removed.
    ///
    /// ```swift
    /// var request = Request("http://example.test/static/../etc/passwd")
    /// request.sendsPathAsIs = true   // request.url is http://example.test/static/../etc/passwd
    /// ```
    public var sendsPathAsIs: Bool {
        get { stageValues[PathAsIs.self] ?? false }
        set {
            let changed = newValue != sendsPathAsIs
            stageValues[PathAsIs.self] = newValue ? true : nil
            if changed, let written = writtenURL, let url = URLText.url(written, keepingDotSegments: newValue) {
                self.url = url
                stageValues[WrittenURL.self] = written
            }
        }
    }
}
