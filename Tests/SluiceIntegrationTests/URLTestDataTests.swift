import Foundation
import Testing
import Sluice
import SluiceCore
import SluiceCurl

/// The WHATWG URL Standard's own test data (web-platform-tests `url/resources/urltestdata.json`,
/// vendored in `Tests/Fixtures/WPT`): every case whose base or input is http or https, run
/// through what Sluice sends. The input is resolved against the base as a redirect's `Location`
/// is (RFC 3986, ``URIReference``), made a URL by ``URLText`` as every URL Sluice reads, and sent
/// by libcurl to the scenario server's recorder (every host connected to it by connect-to,
/// `X-Record-Request: 1` making any path answer with the request as received); the `Host` field and request target it received are compared with the case's
/// `host`, `pathname` and `search`. A case the standard calls a failure must be refused, before or
/// when sending. Where Sluice follows RFC 3986 or curl instead, the case is listed with its reason
/// in `Tests/Fixtures/WPT/expected-differences.json`; every other case agrees, and a listed case
/// that agrees now fails the test until its entry is removed.
@Suite("WHATWG URL test data, as Sluice sends it")
struct URLTestDataTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/WPT")

    /// A case, by its input and base, as the differences file names it.
    static func key(_ input: String, _ base: String?) -> String {
        base.map { "\(input) against \($0)" } ?? input
    }

    /// What the server received for `text`, or `nil` when nothing was sent; the target the URL
    /// itself names (what a dry run prints) must be the one received.
    static func sent(_ text: String, manager: SessionManager, recorder: Int) async -> (host: String, target: String)? {
        guard var url = URLText.url(text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme) else { return nil }
        // The recorder speaks plain HTTP: an https URL is sent as http with its port spelled out,
        // so the Host field carries the same name and the target the same path.
        if scheme == "https", var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.scheme = "http"
            if components.port == nil { components.port = 443 }
            guard let plain = components.url else { return nil }
            url = plain
        }
        var request = Request(url: url)
        guard let route = try? ConnectionOverrides.ConnectTo(curlSyntax: "::127.0.0.1:\(recorder)") else { return nil }
        request.connectionOverrides = ConnectionOverrides(connectTo: [route])
        request.timeouts.total = .seconds(10)
        request.headers.add(name: "X-Record-Request", value: "1")
        guard let response = try? await manager.send(request), response.status == 200,
            let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let line = object["request_line"] as? String, let headers = object["headers"] as? [[String]]
        else { return nil }
        let parts = line.split(separator: " ")
        guard parts.count == 3 else { return nil }
        var host = headers.first { $0[0].lowercased() == "host" }?[1] ?? ""
        if scheme == "https", host.hasSuffix(":443") { host = String(host.dropLast(4)) }
        #expect(url.requestTarget == String(parts[1]), "\(text): the URL says \(url.requestTarget), the wire had \(parts[1])")
        return (host, String(parts[1]))
    }

    @Test("every http and https case agrees with the standard, or is a listed difference with its reason")
    func urlTestData() async throws {
        let servers = try TestServers.load()
        let recorder = try #require(servers.scenario.port)
        let data = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("urltestdata.json"))) as? [Any])
        let differences = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.fixtures.appendingPathComponent("expected-differences.json"))) as? [String: String])
        let manager = SessionManager(pipeline: try Pipeline(transport: CurlTransport(), redirects: nil))
        var agreed = 0
        var total = 0
        var found: [String: String] = [:]
        for case let item as [String: Any] in data {
            let input = item["input"] as? String ?? ""
            let base = item["base"] as? String
            guard [input, base ?? ""].contains(where: { $0.lowercased().hasPrefix("http:") || $0.lowercased().hasPrefix("https:") }) else { continue }
            total += 1
            let text = base.map { URIReference(parsing: input).resolved(against: URIReference(parsing: $0)).description } ?? input
            let wire = await Self.sent(text, manager: manager, recorder: recorder)
            let expectedHref = item["href"] as? String ?? ""
            let sendable = expectedHref.lowercased().hasPrefix("http:") || expectedHref.lowercased().hasPrefix("https:")
            let outcome: String?
            if item["failure"] as? Bool == true || !sendable {
                outcome = wire.map { "sent Host \($0.host) and \($0.target); the standard \(sendable ? "refuses it" : "gives \(expectedHref), which is not http")" }
            } else if let wire {
                let host = item["host"] as? String ?? ""
                // The request target: the href's path and query, a lone '?' kept (`search` drops it).
                let afterScheme = expectedHref[expectedHref.range(of: "://")!.upperBound...]
                let fromPath = afterScheme[(afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex)...]
                let target = String(fromPath.prefix { $0 != "#" })
                outcome = wire.host == host && wire.target == target ? nil : "sent Host \(wire.host) and \(wire.target); the standard \(host) and \(target)"
            } else {
                outcome = "refused; the standard gives \(expectedHref)"
            }
            let key = Self.key(input, base)
            if let outcome {
                found[key] = outcome
            } else {
                agreed += 1
            }
        }
        await manager.invalidate(cancelingTasks: false)
        if let path = ProcessInfo.processInfo.environment["SLUICE_URL_DIFFERENCES_OUT"] {
            // For maintainers: what differs now, to write the reasons file from.
            try JSONSerialization.data(withJSONObject: found, options: [.sortedKeys, .prettyPrinted]).write(to: URL(fileURLWithPath: path))
        }
        let unlisted = found.keys.filter { differences[$0] == nil }.sorted()
        let healed = differences.keys.filter { found[$0] == nil }.sorted()
        #expect(unlisted.isEmpty, "cases that differ without a listed reason:\n\(unlisted.map { "\($0): \(found[$0]!)" }.joined(separator: "\n"))")
        #expect(healed.isEmpty, "listed differences that now agree (remove them):\n\(healed.joined(separator: "\n"))")
        print("URL test data: \(agreed) of \(total) http and https cases agree with the WHATWG URL Standard; \(found.count) are listed differences")
        #expect(total == 467)
    }
}
