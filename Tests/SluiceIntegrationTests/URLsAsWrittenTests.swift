import Foundation
import Testing
import Sluice
import SluiceCore

/// A URL holding escapes and characters that need them, written in every form a user writes it
/// (Swift's `Request(_:)` with and without a base, a pipeline's `path:`, `sluice send`), reaches
/// the server as one request target, the one the dry run and `sluice curl` print, with its
/// escapes as written, as curl keeps them for the same text.
@Suite("URLs as written: every form sends the same target, the one the dry run shows")
struct URLsAsWrittenTests {
    /// The text after the recorder's address, as a user pastes it.
    static let written = "/raw/caf%C3%A9/é?a=x%3Dy&b={z}&c=%2F"
    /// What must arrive: the escapes as written, only `é`, `{` and `}` escaped.
    static let target = "/raw/caf%C3%A9/%C3%A9?a=x%3Dy&b=%7Bz%7D&c=%2F"

    static func target(of output: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
            let line = object["request_line"] as? String
        else { return nil }
        return line.split(separator: " ").dropFirst().first.map(String.init)
    }

    @Test("Request(_:), URLResolution, a pipeline's path:, its dry run and sluice curl, and sluice send agree")
    func everyForm() async throws {
        let servers = try TestServers.load()
        let origin = servers.scenario.absoluteString
        let directory = try TemporaryDirectory()

        let manager = SessionManager(pipeline: try Pipeline {})
        let direct = try await manager.send(Request(origin + Self.written))
        #expect(Self.target(of: String(decoding: direct.body, as: UTF8.self)) == Self.target)
        let resolving = SessionManager(pipeline: try Pipeline { try URLResolution(baseURL: origin) })
        let relative = try await resolving.send(Request(String(Self.written.dropFirst())))
        #expect(Self.target(of: String(decoding: relative.body, as: UTF8.self)) == Self.target)

        let file = try directory.write("""
            name: written
            requests:
              - name: pasted
                path: "\(origin + Self.written)"
            """, to: "written.yaml")
        let run = try await SluiceProcess.launch(["run", "--verbose", "--format", "json", file])
        #expect(run.status == 0, "\(run.error)")
        let dryRun = try await SluiceProcess.launch(["run", "--dry-run", file])
        #expect(dryRun.output.contains("GET " + origin + Self.target), "\(dryRun.output)")
        let exported = try await SluiceProcess.launch(["curl", file])
        #expect(exported.output.contains(origin + Self.target), "\(exported.output)")
        // The exported command, run by bash, sends the same target.
        let replayed = try await SluiceProcess.launch(["-c", exported.output], executable: URL(fileURLWithPath: "/bin/bash"))
        #expect(Self.target(of: replayed.output) == Self.target, "\(replayed.output)")

        let sent = try await SluiceProcess.launch(["send", origin + Self.written])
        #expect(Self.target(of: sent.output) == Self.target, "\(sent.output)")
        let reference = try await CurlCLI.run(["-g", origin + Self.written])
        // curl keeps the escapes as written too; it sends the braces bare (Foundation's URL
        // cannot hold them) and writes the escape it adds for 'é' in lowercase.
        #expect(Self.target(of: reference.output) == "/raw/caf%C3%A9/%c3%a9?a=x%3Dy&b={z}&c=%2F", "\(reference.output)")
    }

    @Test("a variable's '#' inside a longer path would drop what follows: refused in a run, a dry run and sluice curl, naming it; encoded, or a whole URL alone, or typed by hand, it goes")
    func fragmentFromAVariable() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let file = try directory.write("""
            variables:
              term: "C#"
              url: "\(servers.httpbin("anything").absoluteString)#top"
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
            requests:
              - { name: query, path: "anything?q=${term}&page=2" }
              - { name: encoded, path: "anything?q=${urlencode(term)}&page=2" }
              - { name: whole, path: "${url}" }
              - { name: typed, path: "anything?q=1#frag" }
            """, to: "fragment.yaml")
        let words = "path at line 7: ${term} holds '#' ('C#'), which would end the URL there: what follows it would be dropped, as a fragment is never sent; encode the value (${urlencode(term)}), or leave the '#' out"
        let run = try await SluiceProcess.launch(["run", "--no-color", file])
        #expect(run.status == 1 && run.output.contains(words), "\(run.output)")
        #expect(["✔ encoded", "✔ whole", "✔ typed"].allSatisfy(run.output.contains), "\(run.output)")
        let dryRun = try await SluiceProcess.launch(["run", "--dry-run", "--only", "query", file])
        #expect(dryRun.output.contains(words), "\(dryRun.output)")
        let exported = try await SluiceProcess.launch(["curl", "--only", "query", file])
        #expect(exported.status != 0 && (exported.output + exported.error).contains(words), "\(exported.output)\(exported.error)")
    }

    @Test("path-as-is keeps /../ and /./ in an absolute path and a resolved one, as curl --path-as-is sends them; without it they go, as curl removes them")
    func pathAsIs() async throws {
        let servers = try TestServers.load()
        let origin = servers.scenario.absoluteString
        let directory = try TemporaryDirectory()
        let file = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(origin)/raw/base/" }
            requests:
              - { name: absolute, path: "\(origin)/raw/a/../b/./c", path-as-is: true }
              - { name: relative, path: "x/../y", path-as-is: true }
              - { name: removed, path: "\(origin)/raw/a/../b/./c" }
            """, to: "as-is.yaml")
        let run = try await SluiceProcess.launch(["run", "--format", "json", file])
        #expect(run.status == 0, "\(run.error)")
        let dryRun = try await SluiceProcess.launch(["run", "--dry-run", file])
        #expect(dryRun.output.contains("GET \(origin)/raw/a/../b/./c\n") && dryRun.output.contains("GET \(origin)/raw/base/x/../y\n"), "\(dryRun.output)")
        #expect(dryRun.output.contains("GET \(origin)/raw/b/c\n"), "\(dryRun.output)")
        let curlAsIs = try await CurlCLI.run(["--path-as-is", origin + "/raw/a/../b/./c"])
        let curlRemoved = try await CurlCLI.run([origin + "/raw/a/../b/./c"])
        #expect(Self.target(of: curlAsIs.output) == "/raw/a/../b/./c" && Self.target(of: curlRemoved.output) == "/raw/b/c")
        let sent = try await SluiceProcess.launch(["curl", file])
        #expect(sent.output.contains("--path-as-is"), "\(sent.output)")
        for (name, expected) in [("absolute", "/raw/a/../b/./c"), ("relative", "/raw/base/x/../y"), ("removed", "/raw/b/c")] {
            let one = try await SluiceProcess.launch(["run", "--verbose", "--only", name, file])
            #expect((one.output + one.error).contains("> GET \(origin)\(expected)\n"), "\(name): \(one.output)\(one.error)")
        }
    }

    @Test("a %7B written in a path goes out as written, a template only where { is written; in Swift, a pipeline, its dry run, and as curl -g sends it")
    func escapedBraces() async throws {
        let servers = try TestServers.load()
        let origin = servers.scenario.absoluteString
        let resolving = SessionManager(pipeline: try Pipeline { try URLResolution(baseURL: origin + "/raw/") })
        let alone = try await resolving.send(Request("%7Bid%7D"))
        #expect(Self.target(of: String(decoding: alone.body, as: UTF8.self)) == "/raw/%7Bid%7D")
        let both = try await resolving.send(Request("{id}/%7bid%7d", pathParameters: ["id": "7"]))
        #expect(Self.target(of: String(decoding: both.body, as: UTF8.self)) == "/raw/7/%7bid%7d")
        // A value with no template written as one is still refused, naming it.
        await #expect(throws: SluiceError.self) { try await resolving.send(Request("%7Bid%7D", pathParameters: ["id": "7"])) }
        let curl = try await CurlCLI.run(["-g", origin + "/raw/%7Bid%7D"])
        #expect(Self.target(of: curl.output) == "/raw/%7Bid%7D", "\(curl.output)")

        let directory = try TemporaryDirectory()
        let file = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(origin)/raw/" }
            requests:
              - { name: alone, path: "%7Bid%7D" }
              - { name: both, path: "{id}/%7Bid%7D", path-parameters: { id: "7" } }
              - { name: absolute, path: "\(origin)/raw/%7Bid%7D/{id}", path-parameters: { id: "8" } }
            """, to: "braces.yaml")
        let run = try await SluiceProcess.launch(["run", "--no-color", file])
        #expect(run.status == 0, "\(run.output)\(run.error)")
        let dryRun = try await SluiceProcess.launch(["run", "--dry-run", file])
        for expected in ["/raw/%7Bid%7D\n", "/raw/7/%7Bid%7D\n", "/raw/%7Bid%7D/8\n"] {
            #expect(dryRun.output.contains("GET \(origin)\(expected)"), "\(expected): \(dryRun.output)")
        }
        let one = try await SluiceProcess.launch(["run", "--verbose", "--only", "both", file])
        #expect((one.output + one.error).contains("> GET \(origin)/raw/7/%7Bid%7D\n"), "\(one.output)\(one.error)")
    }

    @Test("Request(_:) then sendsPathAsIs keeps the dot segments written, with or without URLResolution; unset, they go again")
    func pathAsIsInSwift() async throws {
        let servers = try TestServers.load()
        let origin = servers.scenario.absoluteString
        var request = Request(origin + "/raw/static/../etc/./passwd")
        #expect(request.url.absoluteString == origin + "/raw/etc/passwd")
        request.sendsPathAsIs = true
        #expect(request.url.absoluteString == origin + "/raw/static/../etc/./passwd")
        let direct = try await SessionManager(pipeline: try Pipeline {}).send(request)
        #expect(Self.target(of: String(decoding: direct.body, as: UTF8.self)) == "/raw/static/../etc/./passwd")
        let resolving = SessionManager(pipeline: try Pipeline { try URLResolution(baseURL: origin + "/raw/") })
        let resolved = try await resolving.send(request)
        #expect(Self.target(of: String(decoding: resolved.body, as: UTF8.self)) == "/raw/static/../etc/./passwd")
        request.sendsPathAsIs = false
        #expect(request.url.absoluteString == origin + "/raw/etc/passwd")
    }
}
