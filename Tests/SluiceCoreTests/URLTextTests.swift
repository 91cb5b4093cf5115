import Foundation
import Testing
@testable import SluiceCore

@Suite("URLs as written: escapes kept, only what must be escaped escaped, hosts no standard allows refused")
struct URLTextTests {
    /// What a user wrote, and what goes out.
    static let kept: [(String, String)] = [
        ("http://h/?a=x%3Dy&b={z}", "http://h/?a=x%3Dy&b=%7Bz%7D"),
        ("http://h/caf%C3%A9/é", "http://h/caf%C3%A9/%C3%A9"),
        ("http://h/a b?q=a b#f g", "http://h/a%20b?q=a%20b#f%20g"),
        ("http://h/?q=%zz&r=%4", "http://h/?q=%25zz&r=%254"),
        ("http://h/a%2Fb?x=%20&y=%2B", "http://h/a%2Fb?x=%20&y=%2B"),
        ("http://h/p?a|b^c`d\"e<f>g\\h", "http://h/p?a%7Cb%5Ec%60d%22e%3Cf%3Eg%5Ch"),
        ("http://h/!$&'()*+,;=:@-._~/?/?", "http://h/!$&'()*+,;=:@-._~/?/?"),
        ("http://u%40x:p%3Ass@h:8080/", "http://u%40x:p%3Ass@h:8080/"),
        ("http://u s:p@h/", "http://u%20s:p@h/"),
        ("http://[::1]:8080/a", "http://[::1]:8080/a"),
        ("http://[fe80::1%25eth0]/", "http://[fe80::1%25eth0]/"),
        ("http://%68ost/", "http://host/"),
        ("http://0x7f.1/", "http://127.0.0.1/"),
        ("http://999999999./a", "http://59.154.201.255/a"),
        ("http://10.0.0.1:8080/", "http://10.0.0.1:8080/"),
        ("http://1.2.3.4.example/", "http://1.2.3.4.example/"),
        ("users/{id}?full=1", "users/%7Bid%7D?full=1"),
        ("./{id}:run", "./%7Bid%7D:run"),
        ("http://h/\u{7F}\u{1}", "http://h/%7F%01"),
    ]

    @Test("a valid escape is kept as written; only what cannot stand in its component is escaped", arguments: kept)
    func keptAsWritten(written: String, sent: String) throws {
        #expect(URLText.escaped(written) == sent)
        if sent.hasPrefix("http") {
            #expect(URLText.url(written)?.absoluteString == sent)
        }
    }

    /// Hosts and ports no standard allows.
    static let refused = [
        "http://ho%7Cst/", "http://ho%7Fst/", "http://ho|st/", "http://ho%00st/", "http://a%2Fb/", "http://a%20b/",
        "http://[::%31]/", "http://[::1/", "http://[::1]x/", "http://[v1.x]/", "http://[1.2.3.4]/", "http://h:8o/",
        "http://h^/", "http://h%/", "http://ho%25st/", "http://1.2.3.08/", "http://256.0.0.1/", "http://1.2.3.4.5/",
        "http://foo.0x100000000/", "http://💩.123/", "{id}:run", "://a%0A%7b", ":x",
    ]

    @Test("a host no standard allows never becomes a URL", arguments: refused)
    func refusedHosts(text: String) {
        #expect(URLText.url(text) == nil, "\(text)")
        #expect(Request(text).url.absoluteString == "about:blank")
    }

    @Test("Request(_:) names the string it could not read; the empty reference resolves to the base (RFC 3986 5.2.2)")
    func unreadableAndEmpty() async throws {
        let transport = InMemoryTransport { request in Response(status: 200, body: Data(request.url.absoluteString.utf8), url: request.url) }
        let manager = SessionManager(pipeline: try Pipeline(stages: [], transport: transport))
        do {
            _ = try await manager.send(Request("http://[::1"))
            Issue.record("sent")
        } catch let error as SluiceError {
            #expect(error.kind == .invalidRequest)
            #expect(error.localizedDescription == error.description)
            #expect(error.description.contains("'http://[::1'") && !error.description.contains("about:blank"), "\(error)")
        }
        do {
            _ = try await manager.send(Request(""))
            Issue.record("sent")
        } catch let error as SluiceError {
            #expect(error.kind == .invalidRequest && error.message.contains("empty URL reference"), "\(error)")
        }
        let resolving = SessionManager(pipeline: try Pipeline(stages: [try URLResolution(baseURL: "http://h/api/v1?key=%3D")], transport: transport))
        let response = try await resolving.send(Request(""))
        #expect(response.url?.absoluteString == "http://h/api/v1/?key=%3D")
        let escaped = try await resolving.send(Request("caf%C3%A9/{x}?q=a%3Db", pathParameters: ["x": "é"]))
        #expect(escaped.url?.absoluteString == "http://h/api/v1/caf%C3%A9/%C3%A9?q=a%3Db")
    }
}
