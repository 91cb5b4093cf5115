import Foundation
import Testing

/// A request's own `stages:` (the chain for it alone), against httpbin, which echoes the headers
/// it received: Hurl's `[Options] aws-sigv4:` as YAML users write it.
@Suite("Stages of a request's own")
struct RequestStagesRunTests {
    @Test("a request's own aws-sigv4 signs it alone, with its keys, in every form of the run; the secret never shows")
    func ownSigning() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let path = try directory.write("""
            stages:
              - url-resolution: { base-url: "\(servers.httpbin.absoluteString)" }
              - header-injection: { headers: { X-Team: core } }
            requests:
              - name: signed
                path: anything/signed?b=2&a=1
                stages:
                  - aws-sigv4: { access-key-id: AKIDEXAMPLE, secret-access-key: "${env.AWS_TEST_SECRET}", region: eu-central-1, service: hurltest, timestamp: 20150830T123600Z }
                expect:
                  checks:
                    - { jsonpath: "$.headers.Authorization", starts-with: "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/eu-central-1/hurltest/aws4_request, SignedHeaders=accept-language;host;x-amz-date;x-team, Signature=" }
                    - { jsonpath: "$.headers['X-Amz-Date']", equals: 20150830T123600Z }
              - name: plain
                path: anything/plain
                expect:
                  checks:
                    - { jsonpath: "$.headers.Authorization", exists: false }
                    - { jsonpath: "$.headers['X-Amz-Date']", exists: false }
            """, to: "signed.yaml")
        let environment = ["AWS_TEST_SECRET": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"]
        for arguments in [["run", "--no-color", "--verbose"], ["run", "--format", "json"], ["run", "--dry-run"], ["curl"]] {
            let run = try await SluiceProcess.launch(arguments + [path], environment: environment)
            #expect(run.status == 0, "\(arguments): \(run.output)\(run.error)")
            #expect(!(run.output + run.error).contains("wJalrXUtnFEMI"), "\(arguments): the secret shows")
        }
        let dry = try await SluiceProcess.launch(["run", "--dry-run", path], environment: environment)
        #expect(dry.output.contains("X-Amz-Date: 20150830T123600Z\nAuthorization: AWS4-HMAC-SHA256 ***"), "the dry run goes through the request's chain: \(dry.output)")
    }

    @Test("a request's own stage is refused at load beside what the file or the request already does, naming both; load mode refuses it")
    func refusals() async throws {
        let directory = try TemporaryDirectory()
        let signer = "aws-sigv4: { access-key-id: K, secret-access-key: S, region: r, service: s }"
        let cases: [(String, String)] = [
            (
                "stages:\n  - \(signer)\nrequests:\n  - path: http://a.test/\n    stages:\n      - \(signer)\n",
                "two.yaml:6:9: error: "
            ),
            (
                "requests:\n  - path: http://a.test/\n    credential: { username: u, password: p }\n    stages:\n      - \(signer)\n",
                "'authentication' and 'aws-sigv4' cannot work together (at the stage the run adds because a request gives its own credential: ("
            ),
            (
                "stages:\n  - url-resolution: { base-url: http://a.test }\n  - header-injection: { authorization: { bearer: t } }\nrequests:\n  - path: a\n    credential: { username: u, password: p }\n",
                "injection.yaml:3:5: error: 'header-injection' and 'authentication' cannot work together (at "
            ),
            (
                "requests:\n  - path: http://a.test/\n    headers: { authorization: Bearer x }\n    stages:\n      - \(signer)\n",
                "and the request sends an Authorization header: keep one"
            ),
            ("requests:\n  - path: http://a.test/\n    stages:\n      - aws-sigv4: { access-key-id: K }\n", "missing.yaml:4:9: error: "),
            ("requests:\n  - path: http://a.test/\n    stages:\n      - no-such-stage\n", "unknown stage 'no-such-stage'"),
            ("requests:\n  - path: http://a.test/\n    stages: aws-sigv4\n", "a request's stages: is a list of stages"),
        ]
        for (index, (text, message)) in cases.enumerated() {
            let name = ["two.yaml", "credential.yaml", "injection.yaml", "header.yaml", "missing.yaml", "unknown.yaml", "scalar.yaml"][index]
            let path = try directory.write(text, to: name)
            let validated = try await SluiceProcess.launch(["validate", path])
            #expect(validated.status == 2 && validated.error.contains(message), "\(name): \(validated.error)")
        }
        // A stage the run adds is named by why, with the line that made the run add it.
        let injection = try await SluiceProcess.launch(["validate", directory.file("injection.yaml").path])
        #expect(injection.error.contains("the stage the run adds because a request gives its own credential: (\(directory.file("injection.yaml").path):6:17)"), "\(injection.error)")
        let twoDetail = try await SluiceProcess.launch(["validate", directory.file("two.yaml").path])
        #expect(twoDetail.error.contains("two.yaml:2:5"), "the file's stage is named too: \(twoDetail.error)")
        let load = try directory.write("requests:\n  - name: own\n    path: http://127.0.0.1:9/\n    stages:\n      - \(signer)\n", to: "load.yaml")
        let refused = try await SluiceProcess.launch(["run", "--repeat", "2", load])
        #expect(refused.status == 2 && refused.error.contains("request 'own' has stages of its own; load mode"), "\(refused.error)")
    }
}
