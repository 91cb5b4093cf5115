import Foundation
import Testing

/// `expect.checks` and query captures in `sluice run`, against httpbin: every query Hurl has,
/// its filters and negated predicates, captures read by checks of the same request, and what a
/// failing check reports.
@Suite("Checks and captures of any part of the exchange, against httpbin")
struct CheckQueryRunTests {
    @Test("every query, with filters and negations, holds where httpbin says it should")
    func everyQueryHolds() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let base = servers.httpbin.absoluteString
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(base)" }
              - response-decoding: { format: auto, acceptable-content-types: any }
            variables:
              minimum: 1
            requests:
              - name: html
                path: html
                capture:
                  heading: { xpath: "string(//h1)" }
                expect:
                  checks:
                    - { status: , equals: 200 }
                    - { version: , is: string }
                    - { url: , ends-with: /html }
                    - { ip: , equals: 127.0.0.1 }
                    - { ip: , is: ipv4 }
                    - { duration: , ge: 0 }
                    - { header: Content-Type, starts-with: text/html }
                    - { header: X-Not-There, exists: false }
                    - { header: X-Not-There, not: { exists: true } }
                    - { xpath: "string(//h1)", equals: Herman Melville - Moby-Dick }
                    - { xpath: //h1, count: 1 }
                    - { xpath: //p, filters: [count], ge: "${minimum}" }
                    - { xpath: "count(//h1)", equals: 1 }
                    - { xpath: "boolean(//form)", equals: false }
                    - { variable: heading, starts-with: Herman }
                    - { body: , contains: Moby-Dick }
                    - { body: , not: { contains: "Call me Ishmael, please" } }
                    - { body: , not: { matches: "^\\\\s*$" } }
                    - { regex: "<h1>([^<]+)</h1>", equals: "${heading}" }
                    - { bytes: , filters: [count], gt: 1000 }
                    - { sha256: , filters: [to-hex], matches: "^[0-9a-f]{64}$" }
              - name: xml
                path: xml
                expect:
                  checks:
                    - { xpath: "string(/slideshow/@title)", equals: Sample Slide Show }
                    - { xpath: //slide, count: 2 }
                    - { xpath: "//slide/title", filters: [{ nth: -1 }], equals: Overview }
                    - { header: Content-Type, equals: application/xml }
              - name: hello
                path: base64/SGVsbG8=
                expect:
                  checks:
                    - { body: , equals: Hello }
                    - { bytes: , equals: { hex: 48656c6c6f } }
                    - { bytes: , starts-with: { base64: SGU= } }
                    - { sha256: , equals: { hex: 185f8db32271fe25f561a6fc938b2e264306ec304eda518007d1764826381969 } }
                    - { md5: , filters: [to-hex], equals: 8b1a9953c4611296a827abf8c47804d7 }
                    - { body: , filters: [utf8-encode, base64-encode], equals: SGVsbG8= }
                    - { body: , filters: [url-encode], equals: Hello }
                    - { body: , lt: Help }
                    - { body: , gt: Hell }
                    - { body: , not: { is: empty } }
              - name: redirects
                path: redirect/2
                expect:
                  checks:
                    - { redirects: , filters: [count], equals: 2 }
                    - { redirects: , filters: [first, location], ends-with: /relative-redirect/1 }
                    - { redirects: , filters: [{ nth: 1 }, location], equals: "\(base)/get" }
                    - { url: , equals: "\(base)/get" }
                    - { jsonpath: $.url, equals: "\(base)/get" }
              - name: set cookie
                path: "response-headers?Set-Cookie=lang%3Dfr%3B%20Max-Age%3D60%3B%20Path%3D%2F%3B%20HttpOnly%3B%20SameSite%3DLax"
                expect:
                  checks:
                    - { set-cookie: lang, equals: fr }
                    - { "set-cookie": "lang[Max-Age]", equals: 60 }
                    - { "set-cookie": "lang[Max-Age]", is: integer }
                    - { "set-cookie": "lang[Path]", equals: / }
                    - { "set-cookie": "lang[HttpOnly]", exists: true }
                    - { "set-cookie": "lang[Secure]", exists: false }
                    - { "set-cookie": "lang[SameSite]", equals: Lax }
                    - { set-cookie: other, exists: false }
              - name: numbers and text
                path: anything?n=42&f=2.5&when=2026-11-27T10:00:00Z&ms=2022-10-31T09:00:00.594Z&list=a,b,c&q=caf%C3%A9%20%26%20cr%C3%A8me
                capture:
                  n: { jsonpath: $.args.n, filters: [to-int] }
                  echoed: { jsonpath: $.url }
                expect:
                  checks:
                    - { variable: n, is: integer }
                    - { variable: n, gt: "${minimum}" }
                    - { variable: n, not: { lt: "${minimum}" } }
                    - { jsonpath: $.args.n, is: string }
                    - { jsonpath: $.args.n, filters: [to-int], equals: 42 }
                    - { jsonpath: $.args.f, filters: [to-float], is: float }
                    - { jsonpath: $.args.f, filters: [to-float], not: { is: integer } }
                    - { jsonpath: $.args.when, is: iso-date }
                    - { jsonpath: $.args.when, filters: [{ to-date: "%Y-%m-%dT%H:%M:%SZ" }, { format: "%d/%m/%Y %H:%M" }], equals: 27/11/2026 10:00 }
                    - { jsonpath: $.args.when, filters: [{ to-date: "%Y-%m-%dT%H:%M:%SZ" }], is: date }
                    - { jsonpath: $.args.when, filters: [{ to-date: "%Y-%m-%dT%H:%M:%SZ" }], equals: "2026-11-27T10:00:00.000Z" }
                    - { jsonpath: $.args.ms, filters: [{ to-date: "%+" }], equals: "2022-10-31T09:00:00.594Z" }
                    - { jsonpath: $.args.when, filters: [{ to-date: "%Y-%m-%dT%H:%M:%SZ" }], lt: "2026-11-27T11:00:00.5+01:00" }
                    - { jsonpath: $.args.list, filters: [{ split: "," }, count], equals: 3 }
                    - { jsonpath: $.args.list, filters: [{ split: "," }, last], equals: c }
                    - { jsonpath: $.args.list, filters: [{ replace: [",", ";"] }], equals: "a;b;c" }
                    - { jsonpath: $.args.list, filters: [{ replace: ["/([a-c]),/", "$1-"] }], equals: "a-b-c" }
                    - { jsonpath: $.args.list, filters: [{ regex: "b,(.)" }], equals: c }
                    - { jsonpath: $.args.q, equals: café & crème }
                    - { jsonpath: $.args.q, filters: [html-escape], equals: "café &amp; crème" }
                    - { jsonpath: $.args.q, filters: [html-escape, html-unescape], equals: café & crème }
                    - { jsonpath: $.args.q, filters: [url-encode, url-decode], equals: café & crème }
                    - { jsonpath: $.url, filters: [{ url-query-param: q }], equals: café & crème }
                    - { variable: echoed, contains: "/anything" }
                    - { jsonpath: "$.args['${missing-key-name}']", exists: false }
            """, to: "checks.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", "--var", "missing-key-name=nope", path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(run.output.contains("6 requests: 6 passed, 0 failed"), "\(run.output)")
    }

    @Test("rawbytes: httpbin's /gzip as it came (gzip's magic, the Content-Length's count) beside the decoded bytes; a plain body is its bytes; with output: too")
    func rawBytes() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
            requests:
              - name: gzip
                path: gzip
                output: body.json
                expect:
                  checks:
                    - { rawbytes: , starts-with: { hex: 1f8b } }
                    - { rawbytes: , filters: [count], equals: "${length}" }
                    - { bytes: , starts-with: { hex: 7b } }
                    - { jsonpath: $.gzipped, equals: true }
                capture:
                  length: { header: Content-Length, filters: [to-int] }
              - name: plain
                path: bytes/3?seed=1
                expect:
                  checks:
                    - { rawbytes: , filters: [count], equals: 3 }
                    - { rawbytes: , equals: { hex: "${hex}" } }
                capture:
                  hex: { bytes: , filters: [] }
            """, to: "raw.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        #expect(FileNodes.contents(directory.file("body.json").path)?.contains("\"gzipped\": true") == true, "the decoded body is written")
    }

    @Test("jsonpath-nodes: always the node list (RFC 9535), beside jsonpath's singular value and its one-node coercion; a capture and the filter too")
    func jsonPathNodes() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
            requests:
              - name: slides
                path: json
                expect:
                  checks:
                    - { jsonpath: $.slideshow.author, equals: Yours Truly }
                    - { jsonpath-nodes: $.slideshow.author, equals: [Yours Truly] }
                    - { jsonpath-nodes: $.slideshow.author, filters: [count], equals: 1 }
                    - { jsonpath-nodes: $.slideshow.slides, filters: [count], equals: 1 }
                    - { jsonpath: $.slideshow.slides, filters: [count], equals: 2 }
                    - { jsonpath-nodes: "$..slides[?@.items]", filters: [count], equals: 1 }
                    - { jsonpath: "$..slides[?@.items].title", equals: Overview }
                    - { jsonpath-nodes: "$..slides[?@.items].title", filters: [first], equals: Overview }
                    - { jsonpath-nodes: $.nothing, filters: [count], equals: 0 }
                    - { body: , filters: [{ jsonpath-nodes: $.slideshow.title }], equals: [Sample Slide Show] }
                    - { body: , filters: [{ jsonpath: $.slideshow.title }], equals: Sample Slide Show }
                    - { variable: titles, equals: [Sample Slide Show] }
                capture:
                  titles: { jsonpath-nodes: $.slideshow.title }
            """, to: "nodes.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let bad = try directory.write("requests:\n  - path: http://a.test/\n    expect: { checks: [{ jsonpath-nodes: \"$.a[\", count: 1 }] }\n", to: "bad.yaml")
        let refused = try await SluiceProcess.launch(["validate", bad])
        #expect(refused.status == 2 && refused.error.contains("bad.yaml:3:"), "\(refused.error)")
    }

    @Test("a failing check says what it expected and what it found, negation and filters included")
    func failuresSayWhat() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
            requests:
              - name: html
                path: html
                expect:
                  checks:
                    - { header: Content-Type, not: { contains: html } }
                    - { xpath: //h1, count: 2 }
                    - { header: X-Not-There, equals: a }
                    - { header: X-Not-There, not: { equals: a } }
                    - { body: , filters: [to-int], equals: 1 }
                    - { jsonpath: $.a, exists: true }
                    - { xpath: "//h1[", exists: true }
            """, to: "failing.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", path])
        #expect(run.status == 1)
        for expected in [
            "failed: header Content-Type not contains\n        expected: not something containing \"html\"\n        actual:   \"text/html; charset=utf-8\"",
            "failed: xpath //h1 count\n        expected: 2 items\n        actual:   a node-set of 1: [\"Herman Melville - Moby-Dick\"]",
            "failed: header X-Not-There equals\n        expected: \"a\"\n        actual:   no X-Not-There header",
            "failed: header X-Not-There not equals\n        expected: not \"a\"\n        actual:   no X-Not-There header",
            "failed: body to-int equals\n        expected: 1\n        actual:   to-int: \"<!DOCTYPE html>\\n<html>",
            "failed: jsonpath $.a exists\n        expected: a value\n        actual:   a body that is not JSON",
            "failed: xpath //h1[ exists\n        expected: a value\n        actual:   `//h1[` is not a valid XPath 1.0 expression",
        ] {
            #expect(run.output.contains(expected), "\(expected) in \(run.output)")
        }
    }

    @Test("load-time errors name the check: no query, two queries, no predicate, a Hurl filter spelling, a bad attribute")
    func loadErrors() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            requests:
              - path: http://h/
                expect:
                  checks:
                    - { equals: 1 }
                    - { status: , body: , equals: 1 }
                    - { status: }
                    - { status: , filters: [toInt], equals: 1 }
                    - { status: 200, equals: 1 }
                    - { "set-cookie": "a[Color]", exists: true }
                    - { jsonpath: "$[", exists: true }
                    - { status: , filters: [{ nth: x }], equals: 1 }
                    - { status: , is: shiny }
                capture:
                  x: { header: A, regex: b }
            """, to: "bad.yaml")
        let run = try await SluiceProcess.launch(["validate", path])
        #expect(run.status == 2)
        for expected in [
            "5:11: error: a check names no query",
            "6:23: error: a check names 2 queries (status, body); write one per check",
            "7:11: error: the check of status has no predicate",
            "'toInt' is Hurl's spelling, write to-int",
            "status takes no argument",
            "'Color' is not a cookie attribute",
            "invalid JSONPath '$['",
            "nth takes an index",
            "is takes integer, float, number",
            "capture x names 2 queries",
        ] {
            #expect(run.error.contains(expected) || run.output.contains(expected), "\(expected) in \(run.error)")
        }
    }
}
