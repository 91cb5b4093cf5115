/// How one request uses the run's cookie jar (`cookie-jar:`), when not as every request does
/// (sending the jar's cookies for its URL and storing those its responses set).
public enum CookieJarUse: String, Sendable, CaseIterable {
    /// The jar is emptied just before the request: it and the requests after it start without
    /// cookies (Hurl's `@cookie_storage_clear`, a browser's "clear cookies").
    case clear
    /// The request neither sends the jar's cookies nor stores those its responses set (Hurl's
    /// `--no-cookie-store`, for one request); its own `cookies:` still go.
    case off
}
