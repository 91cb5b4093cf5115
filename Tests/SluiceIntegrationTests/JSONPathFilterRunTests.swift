import Foundation
import Testing

/// Expectations and captures written with RFC 9535 filters and functions, run by `sluice run`
/// against httpbin.
@Suite("JSONPath filters in expectations and captures, over real sockets")
struct JSONPathFilterRunTests {

    @Test("filters select nodes for count, exists and equals, and a filtered capture feeds the next request")
    func passing() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
              - serialization: { format: json }
              - response-decoding
            requests:
              - name: slides
                path: json
                expect:
                  body:
                    "$.slideshow.slides[?@.type == 'all']": { count: 2 }
                    "$.slideshow.slides[?length(@.items) > 0].title": ["Overview"]
                    "$.slideshow.slides[?match(@.title, 'Wake up.*')]": { exists: true }
                    "$.slideshow.slides[?@.type == 'none']": { exists: false }
                    "$.slideshow[?search(@, '[Ss]lide')]": ["Sample Slide Show"]
                    "$..[?@ == 'Overview' || count(@.*) > 3]": { count: 2 }
                capture:
                  overview: "$.slideshow.slides[?@.items].title"
              - name: echo
                path: anything/${overview}
                expect:
                  body:
                    "$.url": { contains: "/anything/Overview" }
              - name: items
                method: POST
                path: anything
                parameters:
                  items:
                    - { id: 1, status: ok }
                    - { id: 2, status: failed }
                    - { id: 3, status: failed, tags: [x] }
                expect:
                  body:
                    "$.json.items[?@.status == 'failed'].id": [2, 3]
                    "$.json.items[?@.status == 'failed' && length(@.tags) > 0].id": [3]
                    "$.json.items[?@.id > 1 && !@.tags]": { count: 1 }
                    "$.json[?count(@[?@.status == 'ok']) == 1]": { count: 1 }
                capture:
                  last-failed: "$.json.items[?@.status == 'failed' && @.tags].id"
              - name: uses-capture
                path: anything/${last-failed}
                expect:
                  body:
                    "$.url": { contains: "/anything/3" }
            """, to: "filters.yaml")
        let result = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(result.output.contains("4 requests: 4 passed, 0 failed"), "\(result.output)")
    }

    @Test("a filter that selects the wrong nodes fails with what it selected; an ill-typed one is refused at load time")
    func failing() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
              - response-decoding
            requests:
              - name: slides
                path: json
                expect:
                  body:
                    "$.slideshow.slides[?@.type == 'all'].title": ["Overview"]
            """, to: "filters.yaml")
        let result = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(result.status == 1)
        #expect(result.output.contains("filters.yaml:9:9: failed: body $.slideshow.slides[?@.type == 'all'].title\n"), "\(result.output)")
        #expect(result.output.contains(#"actual:   ["Wake up to WonderWidgets!","Overview"]"#), "\(result.output)")

        // A query quadratic in a 1,500-element response passes the million-node limit: the
        // expectation and the capture fail and say why, in milliseconds.
        let numbers = (0..<1_500).map(String.init).joined(separator: ", ")
        let quadratic = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
              - serialization: { format: json }
              - response-decoding
            requests:
              - name: big
                method: POST
                path: anything
                parameters: { n: [\(numbers)] }
                expect:
                  body:
                    "$.json.n[?count($.json.n[*]) > 0]": { count: 1500 }
                capture:
                  all: "$.json.n[?count($.json.n[*]) > 0]"
            """, to: "filters.yaml")
        let stopped = try await SluiceProcess.launch(["run", "--no-color", quadratic])
        #expect(stopped.status == 1)
        #expect(stopped.output.contains("actual:   $.json.n[?count($.json.n[*]) > 0] visits more than 1000000 nodes"), "\(stopped.output)")
        #expect(stopped.output.contains("failed: capture all"), "\(stopped.output)")

        let illTyped = try directory.write("""
            requests:
              - path: \(servers.httpbin.absoluteString)/json
                expect:
                  body:
                    "$.slideshow.slides[?@.* == 'all']": { count: 2 }
            """, to: "filters.yaml")
        let refused = try await SluiceProcess.launch(["run", "--no-color", illTyped])
        #expect(refused.status == 2)
        #expect(refused.error.contains("\(illTyped):5:9: error: invalid JSONPath '$.slideshow.slides[?@.* == 'all']': a query compared must be singular"), "\(refused.error)")
        #expect(refused.error.contains("(at character 21)"), "\(refused.error)")
    }
}
