import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceCurl
@testable import SluicePipelineFiles

/// Basic and Digest against servers that verify them (httpbin's `/digest-auth/...` and
/// `/basic-auth/...`, Apache httpd's mod_auth_digest and mod_auth_basic), through the library,
/// `sluice send` and `sluice run`, with curl run on the same input as the reference.
@Suite("HTTP authentication against httpbin and Apache, beside curl")
struct HTTPAuthenticationPeerTests {
    static let alice = HTTPCredential(username: "alice", password: "wonder land 7")

    static func manager(_ credentials: [HTTPCredentialStore.Entry], redirects: Bool = false) throws -> (SessionManager, EventRecorder) {
        let recorder = EventRecorder()
        let pipeline = try Pipeline(
            stages: [HTTPAuthentication(credentials: credentials)], transport: CurlTransport.shared, redirects: redirects ? Redirection() : nil
        )
        return (SessionManager(pipeline: pipeline, monitors: [recorder]), recorder)
    }

    static func entry(for url: URL, _ credential: HTTPCredential) -> HTTPCredentialStore.Entry {
        .init(host: url.host!, port: url.port, credential: credential)
    }

    @Test("httpbin's Digest, qop auth and auth-int, MD5 and SHA-256: 200 as curl --digest gets; a second request answers at once", arguments: [
        "auth/user/passwd/MD5", "auth/user/passwd/SHA-256", "auth-int/user/passwd/MD5", "auth-int/user/passwd/SHA-256",
    ])
    func httpbinDigest(path: String) async throws {
        let servers = try TestServers.load()
        let url = servers.httpbin("digest-auth/\(path)")
        let reference = try await CurlCLI.run(["--digest", "-u", "user:passwd", "-o", "/dev/null", "-w", "%{http_code}", url.absoluteString])
        #expect(reference.output == "200")
        let (manager, _) = try Self.manager([Self.entry(for: url, HTTPCredential(username: "user", password: "passwd", schemes: .digest))])
        let first = try await manager.send(Request(url: url))
        #expect(first.status == 200)
        #expect(String(decoding: first.body, as: UTF8.self).contains(#""authenticated": true"#))
        let again = try await manager.send(Request(url: url))
        #expect(again.status == 200)
    }

    @Test("a nonce httpbin makes stale after one use: the remembered answer is refused as stale and answered again once")
    func staleNonce() async throws {
        let servers = try TestServers.load()
        let url = servers.httpbin("digest-auth/auth/user/passwd/MD5/1")
        let (manager, _) = try Self.manager([Self.entry(for: url, HTTPCredential(username: "user", password: "passwd", schemes: .digest))])
        for _ in 0..<3 {
            #expect(try await manager.send(Request(url: url)).status == 200)
        }
    }

    @Test("httpbin's SHA-512 (no RFC 7616 algorithm): curl gets 401; Sluice throws .authentication naming the challenge")
    func unknownAlgorithm() async throws {
        let servers = try TestServers.load()
        let url = servers.httpbin("digest-auth/auth/user/passwd/SHA-512")
        let reference = try await CurlCLI.run(["--digest", "-u", "user:passwd", "-o", "/dev/null", "-w", "%{http_code}", url.absoluteString])
        #expect(reference.output == "401")
        let (manager, _) = try Self.manager([Self.entry(for: url, HTTPCredential(username: "user", password: "passwd", schemes: .digest))])
        await #expect {
            _ = try await manager.send(Request(url: url))
        } throws: { error in
            let error = error as? SluiceError
            return error?.kind == .authentication && error?.message.contains(#"offered Digest (realm "me@kennethreitz.com")"#) == true
                && error?.message.contains("algorithm SHA-512") == true
        }
    }

    @Test("Apache's mod_auth_digest: GET and a POST with a body pass; a wrong password is its 401, noted rejected, as curl gets")
    func apacheDigest() async throws {
        let servers = try TestServers.load()
        let url = servers.apacheDigest.appendingPathComponent("digest/secret.txt")
        let (manager, recorder) = try Self.manager([Self.entry(for: url, Self.alice)])
        let get = try await manager.send(Request(url: url))
        #expect(get.status == 200 && String(decoding: get.body, as: UTF8.self) == "digest secret\n")
        let post = try await manager.send(Request(method: .post, url: url, headers: ["Content-Type": "text/plain"], body: .data(Data("a body".utf8))))
        #expect(post.status == 200)
        // Apache's Authentication-Info: its rspauth proves it checked this very answer.
        #expect(post.headers["Authentication-Info"]?.contains("rspauth=") == true)

        var wrong = Self.alice
        wrong.password = "wonder land 8"
        let (refusing, refusals) = try Self.manager([Self.entry(for: url, wrong)])
        #expect(try await refusing.send(Request(url: url)).status == 401)
        #expect(refusals.notes.contains { $0.stage == "authentication" && $0.name == "rejected" })
        #expect(!recorder.notes.contains { $0.name == "rejected" })
        for (password, status) in [("wonder land 7", "200"), ("wonder land 8", "401")] {
            let reference = try await CurlCLI.run(["--digest", "-u", "alice:\(password)", "-o", "/dev/null", "-w", "%{http_code}", url.absoluteString])
            #expect(reference.output == status)
        }
    }

    @Test("Apache's Basic: any answers it, a Digest-only credential throws naming 'Basic (realm \"sluice basic\")'")
    func apacheBasic() async throws {
        let servers = try TestServers.load()
        let url = servers.apacheDigest.appendingPathComponent("basic/secret.txt")
        let (manager, _) = try Self.manager([Self.entry(for: url, Self.alice)])
        let response = try await manager.send(Request(url: url))
        #expect(response.status == 200 && String(decoding: response.body, as: UTF8.self) == "basic secret\n")
        var digestOnly = Self.alice
        digestOnly.schemes = .digest
        let (refusing, _) = try Self.manager([Self.entry(for: url, digestOnly)])
        await #expect {
            _ = try await refusing.send(Request(url: url))
        } throws: { error in
            (error as? SluiceError)?.message.contains(#"offered Basic (realm "sluice basic")"#) == true
        }
    }

    @Test("a redirect to another origin carries no credential, Basic or Digest; the same origin keeps it: as curl -L -u")
    func redirects() async throws {
        let servers = try TestServers.load()
        let elsewhere = "http://localhost:\(servers.httpbin.port!)/anything"
        let away = servers.httpbin("redirect-to?url=\(elsewhere.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)").absoluteString
        let home = servers.httpbin("redirect-to?url=%2Fanything").absoluteString
        for (url, sends) in [(away, false), (home, true)] {
            for flags in [["--basic"], ["--anyauth"]] {
                let reference = try await CurlCLI.run(["-L", "-u", "ada:s3cret"] + flags + [url])
                let sent = try await SluiceProcess.launch(["send", "-L", "-u", "ada:s3cret"] + flags + [url])
                #expect(sent.status == 0, "\(sent.error)")
                #expect(try SendCurlFlagsTests.seen(sent.output)["Authorization"] == SendCurlFlagsTests.seen(reference.output)["Authorization"], "\(url) \(flags)")
                #expect((try SendCurlFlagsTests.seen(sent.output)["Authorization"] != nil) == (sends && flags == ["--basic"]), "\(url) \(flags)")
            }
        }
        // Digest through a same-origin redirect: the hop answers the challenge.
        let digest = servers.httpbin("redirect-to?url=%2Fdigest-auth%2Fauth%2Fuser%2Fpasswd%2FSHA-256").absoluteString
        let viaRedirect = try await SluiceProcess.launch(["send", "-L", "--digest", "-u", "user:passwd", "-w", "%{http_code}", "-o", "/dev/null", digest])
        let curlViaRedirect = try await CurlCLI.run(["-L", "--digest", "-u", "user:passwd", "-w", "%{http_code}", "-o", "/dev/null", digest])
        #expect(viaRedirect.output == curlViaRedirect.output && viaRedirect.output == "200")
    }

    @Test("sluice send --digest, --anyauth, --basic: the same status and body as curl with the same flags, on httpbin and Apache")
    func sendFlags() async throws {
        let servers = try TestServers.load()
        let cases: [[String]] = [
            ["--digest", "-u", "user:passwd", servers.httpbin("digest-auth/auth/user/passwd/SHA-256").absoluteString],
            ["--anyauth", "-u", "user:passwd", servers.httpbin("digest-auth/auth/user/passwd/MD5").absoluteString],
            ["--anyauth", "-u", "user:passwd", servers.httpbin("basic-auth/user/passwd").absoluteString],
            ["-u", "user:passwd", servers.httpbin("basic-auth/user/passwd").absoluteString],
            ["-u", "user:wrong", servers.httpbin("basic-auth/user/passwd").absoluteString],
            ["--digest", "-u", "alice:wonder land 7", servers.apacheDigest.appendingPathComponent("digest/secret.txt").absoluteString],
            ["--digest", "-u", "alice:wonder land 7", "-d", "x=1", servers.apacheDigest.appendingPathComponent("digest/secret.txt").absoluteString],
            ["--anyauth", "-u", "alice:wonder land 7", servers.apacheDigest.appendingPathComponent("basic/secret.txt").absoluteString],
        ]
        for arguments in cases {
            let reference = try await CurlCLI.run(["-w", "\n%{http_code}"] + arguments)
            let sent = try await SluiceProcess.launch(["send", "-w", "\n%{http_code}"] + arguments)
            #expect(sent.status == reference.status, "\(arguments): \(sent.error)")
            #expect(sent.output == reference.output, "\(arguments)")
        }
        let ntlm = try await SluiceProcess.launch(["send", "--ntlm", "-u", "a:b", servers.httpbin("get").absoluteString])
        #expect(ntlm.status == 2 && ntlm.error.contains("--ntlm") && ntlm.error.contains("not offer"), "\(ntlm.error)")
        let negotiate = try await SluiceProcess.launch(["send", "--negotiate", "-u", ":", servers.httpbin("get").absoluteString])
        #expect(negotiate.status == 2 && negotiate.error.contains("Negotiate"), "\(negotiate.error)")
    }

    @Test("YAML's authentication stage with the password from the environment: Apache's Digest passes, the password never shows")
    func pipelineFile() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let file = try directory.write("""
            name: digest
            stages:
              - url-resolution:
                  base-url: \(servers.apacheDigest.absoluteString)
              - authentication:
                  credentials:
                    - host: 127.0.0.1
                      username: alice
                      password: ${env.APACHE_PASSWORD}
                      schemes: digest
            requests:
              - name: secret
                path: /digest/secret.txt
                expect:
                  status: 200
              - name: basic is not digest
                path: /basic/secret.txt
            """, to: "digest.yaml")
        let result = try await SluiceProcess.launch(["run", "--verbose", "--format", "json", file], environment: ["APACHE_PASSWORD": "wonder land 7"])
        #expect(!result.output.contains("wonder land 7") && !result.error.contains("wonder land 7"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let results = try #require(report["results"] as? [[String: Any]])
        #expect(results.first?["status"] as? Int == 200 && results.first?["ok"] as? Bool == true, "\(result.output)")
        let refused = try #require(results.last?["error"] as? [String: Any], "\(result.output)")
        #expect(refused["kind"] as? String == "authentication failed" && (refused["message"] as? String)?.contains("sluice basic") == true)

        for (yaml, problem) in [
            ("credentials: []", "credentials is empty"),
            ("credentials: [{host: a.test, username: u}]", "password"),
            ("credentials: [{host: a.test, username: u, password: p, schemes: ntlm}]", "ntlm"),
            ("credentials: [{host: a.test, port: 70000, username: u, password: p}]", "70000"),
        ] {
            let bad = try directory.write("name: x\nstages:\n  - authentication:\n      \(yaml)\nrequests:\n  - path: http://a.test/\n", to: "bad.yaml")
            let loaded = try await SluiceProcess.launch(["validate", bad])
            #expect(loaded.status != 0 && (loaded.output + loaded.error).contains(problem), "\(yaml): \(loaded.output) \(loaded.error)")
        }
    }

    @Test("a request's own credential: (literal, templated, from a .netrc file) passes Apache's Digest and Basic; the password never shows; a wrong shape, or one beside an Authorization header, is refused at its line")
    func requestCredential() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        _ = try directory.write("machine 127.0.0.1\nlogin alice\npassword \"wonder land 7\"\n", to: "netrc")
        let file = try directory.write("""
            stages:
              - url-resolution:
                  base-url: \(servers.apacheDigest.absoluteString)
            requests:
              - name: literal
                path: /digest/secret.txt
                credential: { username: alice, password: wonder land 7, schemes: digest }
                expect: { status: 200 }
              - name: templated
                path: /digest/secret.txt
                variables: { word: land }
                credential: { username: alice, password: "wonder ${word} 7" }
                expect: { status: 200 }
              - name: netrc
                path: /basic/secret.txt
                credential: { netrc-file: netrc, schemes: basic }
                expect: { status: 200 }
              - name: none of its own
                path: /digest/secret.txt
                expect: { status: 401 }
            """, to: "credential.yaml")
        let result = try await SluiceProcess.launch(["run", "--no-color", "--verbose", file])
        #expect(result.status == 0, "\(result.output)\(result.error)")
        #expect(!result.output.contains("wonder land 7") && !result.error.contains("wonder land 7"))
        let validated = try await SluiceProcess.launch(["validate", "--verbose", file])
        #expect(validated.output.contains("authentication") && validated.output.contains("a request gives its own credential:"), "\(validated.output)")

        // `sluice curl` writes each credential as curl's -u with the schemes' flag; curl, given
        // the password, passes where sluice run passes. A .netrc credential is named in a comment.
        let exported = try await SluiceProcess.launch(["curl", "--show-secrets", file])
        let commands = exported.output.split(separator: "\n").filter { $0.hasPrefix("curl ") }.map(String.init)
        #expect(commands.count == 4 && commands[0].contains("-u 'alice:wonder land 7' --digest") && commands[1].contains("-u 'alice:wonder land 7' --anyauth"), "\(exported.output)")
        // Basic from the .netrc file is sent at once, as the Authorization header.
        #expect(commands[2].contains("-H 'Authorization: Basic ") && !commands[2].contains("-u "), "\(exported.output)")
        for (command, status) in zip(commands, ["200", "200", "200", "401"]) {
            let sent = try await SluiceProcess.launch(["-c", command + " --silent -o /dev/null -w '%{http_code}'"], executable: URL(fileURLWithPath: "/bin/sh"))
            #expect(sent.output == status, "\(command): \(sent.output)")
        }
        let hidden = try await SluiceProcess.launch(["curl", file])
        #expect(hidden.output.contains("-u 'alice:***' --digest") && !hidden.output.contains("wonder land 7"), "\(hidden.output)")
        let digestNetrc = try directory.write("requests:\n  - path: \(servers.apacheDigest.absoluteString)/digest/secret.txt\n    credential: { netrc-file: netrc, schemes: digest }\n", to: "netrc-digest.yaml")
        let unnamed = try await SluiceProcess.launch(["curl", digestNetrc])
        #expect(unnamed.output.contains("# not exported: the request's credential comes from a .netrc file; add --netrc-file PATH --digest\n"), "\(unnamed.output)")

        for (yaml, problem) in [
            ("{ username: u }", "3:17: error: credential needs username and password (or netrc-file)"),
            ("{ username: u, password: p, netrc-file: n }", "3:17: error: credential takes username and password, or netrc-file, not both"),
            ("{ username: u, password: p, schemes: ntlm }", "ntlm"),
            ("alice:pw", "3:17: error: credential must be a mapping"),
        ] {
            let bad = try directory.write("requests:\n  - path: http://a.test/\n    credential: \(yaml)\n", to: "bad.yaml")
            let loaded = try await SluiceProcess.launch(["validate", bad])
            #expect(loaded.status == 2 && loaded.error.contains(problem), "\(yaml): \(loaded.error)")
        }
        let both = try directory.write("requests:\n  - path: http://a.test/\n    headers: { authorization: Bearer t }\n    credential: { username: u, password: p }\n", to: "both.yaml")
        let refused = try await SluiceProcess.launch(["validate", both])
        #expect(refused.status == 2 && refused.error.contains("both.yaml:3:16: error: an Authorization header and credential: together"), "\(refused.error)")
    }
}
