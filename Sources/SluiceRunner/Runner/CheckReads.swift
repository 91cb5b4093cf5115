import SluicePipelineFiles

extension CheckQuery {
    /// Whether the query reads the response body (as text, bytes, a digest, JSON, markup or by a
    /// regular expression).
    var readsBody: Bool {
        switch self {
        case .body, .bytes, .rawBytes, .sha256, .md5, .jsonPath, .xpath, .regex: true
        case .status, .version, .url, .ip, .duration, .redirects, .header, .setCookie, .cookie, .variable, .certificate: false
        }
    }

    /// Whether the response's head alone answers the query: not the body, and not the run's
    /// cookie jar, which the cookie stage fills only from a response that completed.
    var readsHeadOnly: Bool {
        if case .cookie = self { return false }
        return !readsBody
    }
}

extension Expectation {
    /// Whether the response's head alone judges the expectation (its status, a header field, the
    /// time), so that it is judged on a response whose body did not arrive whole.
    var readsHeadOnly: Bool {
        switch check {
        case .status, .header, .maxDuration: true
        case .query(let query, _, _): query.readsHeadOnly
        }
    }
}
