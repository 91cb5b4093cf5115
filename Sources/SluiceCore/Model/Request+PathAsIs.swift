extension Request {
    private enum PathAsIs: StageValueKey { typealias Value = Bool }

    /// Whether the URL's path goes out as it is, its `/../` and `/./` segments included (curl's
    /// `--path-as-is`); by default the transport removes them first (RFC 3986 section 5.2.4), as
    /// curl does.
    ///
    /// ```swift
    /// var request = Request("http://example.test/static/../etc/passwd")
    /// request.sendsPathAsIs = true
    /// ```
    public var sendsPathAsIs: Bool {
        get { stageValues[PathAsIs.self] ?? false }
        set { stageValues[PathAsIs.self] = newValue ? true : nil }
    }
}
