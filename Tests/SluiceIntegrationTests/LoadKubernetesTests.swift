import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

/// The Kubernetes manifests under `deploy/kubernetes/`, loaded with the official Python client's
/// models (`scripts/check-kubernetes-manifest.py`), then their jobs' commands run here as the
/// Indexed Job controller would run them: one process per completion index, the manifest's
/// environment, the volumes' mount paths mapped to folders.
@Suite("Sharded load runs as a Kubernetes Indexed Job", .serialized)
struct LoadKubernetesTests {
    static let manifests = ["deploy/kubernetes/sluice-load.yaml", "deploy/kubernetes/sluice-load-merge.yaml"].map {
        RunCommandTests.root.appendingPathComponent($0).path
    }

    struct Summary: Decodable {
        struct Job: Decodable {
            struct Container: Decodable {
                let command: [String]
                let args: [String]
                let env: [String: String]
                let mounts: [String: String]
            }
            let name: String
            let completionMode: String?
            let completions: Int?
            let parallelism: Int?
            let restartPolicy: String
            let containers: [Container]
            let volumes: [String: [String: String]]
        }
        let claims: [String]
        let jobs: [Job]
    }

    /// The checker's verdict on `files`, with `${NAME}` replaced from `variables`.
    static func check(_ files: [String], variables: [String: String]) async throws -> SluiceProcess.Result {
        let python = RunCommandTests.root.appendingPathComponent(".venv/bin/python")
        let script = RunCommandTests.root.appendingPathComponent("scripts/check-kubernetes-manifest.py").path
        let json = String(decoding: try JSONSerialization.data(withJSONObject: variables), as: UTF8.self)
        return try await SluiceProcess.launch([script, json] + files, executable: python)
    }

    static func summary(variables: [String: String]) async throws -> Summary {
        let result = try await check(manifests, variables: variables)
        try #require(result.status == 0, "\(result.error)")
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Summary.self, from: Data(result.output.utf8))
    }

    @Test("the manifests are what the Kubernetes models read back field for field; a misspelled, missing or mistyped field is refused")
    func models() async throws {
        let summary = try await Self.summary(variables: ["RUN": "7", "START_AT": "2026-11-23T09:00:00Z"])
        let load = try #require(summary.jobs.first { $0.name == "sluice-load-7" })
        let merge = try #require(summary.jobs.first { $0.name == "sluice-load-merge-7" })
        // An Indexed Job whose shard count agrees with its completions, all running at once.
        #expect(load.completionMode == "Indexed" && load.completions == load.parallelism)
        let container = try #require(load.containers.first)
        #expect(container.env["SHARDS"].flatMap(Int.init) == load.completions)
        #expect(container.args.joined().contains(#"--shard "$JOB_COMPLETION_INDEX/$SHARDS""#))
        #expect(container.env["START_AT"] == "2026-11-23T09:00:00Z")
        // Both jobs write and read the same claim, declared in the manifest, at the same path.
        let claim = try #require(summary.claims.first)
        for job in [load, merge] {
            #expect(job.restartPolicy == "Never")
            let results = try #require(job.containers.first?.mounts["/results"])
            #expect(job.volumes[results] == ["claim": claim], "\(job.name)")
        }
        #expect(merge.containers.first?.args.joined().contains("sluice report merge") == true)

        let directory = try TemporaryDirectory()
        let original = try String(contentsOfFile: Self.manifests[0], encoding: .utf8)
        let broken: [(String, String, String)] = [
            ("completionMode: Indexed", "completionMod: Indexed", "fields the model does not know"),
            ("        - name: sluice\n", "        - nam: sluice\n", "Invalid value for `name`, must not be `None`"),
            ("completions: 4", "completions: four", "invalid literal for int()"),
        ]
        for (from, to, message) in broken {
            let path = try directory.write(original.replacingOccurrences(of: from, with: to), to: "broken.yaml")
            let result = try await Self.check([path], variables: [:])
            #expect(result.status != 0 && result.error.contains(message), "\(to): \(result.error)")
        }
    }

    @Test("the jobs' own commands, run as the Indexed Job controller runs them, give one merged result of every shard")
    func commandsRun() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let start = Int(Date().timeIntervalSince1970) + 3
        let summary = try await Self.summary(variables: ["RUN": "run-1", "START_AT": String(start)])
        let load = try #require(summary.jobs.first { $0.completionMode == "Indexed" })
        let merge = try #require(summary.jobs.first { $0.completionMode == nil })
        // The volumes: the ConfigMap's key as a file, the claim as a folder.
        let pipeline = try LoadModeTests.pipeline(directory, path: "/hello.txt")
        try FileManager.default.createDirectory(at: directory.file("pipeline"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: pipeline, toPath: directory.file("pipeline/pipeline.yaml").path)
        try FileManager.default.createDirectory(at: directory.file("results"), withIntermediateDirectories: true)
        func process(_ container: Summary.Job.Container, environment: [String: String]) throws -> Process {
            var script = container.args.joined(separator: " ")
            for (path, _) in container.mounts {
                script = script.replacingOccurrences(of: path + "/", with: directory.file(String(path.dropFirst())).path + "/")
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: container.command[0])
            process.arguments = Array(container.command.dropFirst()) + [script]
            var variables = ProcessInfo.processInfo.environment.merging(container.env) { $1 }.merging(environment) { $1 }
            variables["PATH"] = SluiceProcess.executable.deletingLastPathComponent().path + ":" + (variables["PATH"] ?? "/usr/bin:/bin")
            process.environment = variables
            process.standardOutput = Pipe()
            try process.run()
            return process
        }
        let container = try #require(load.containers.first)
        // The manifest's SLUICE_ARGS describe a real run; this one is small and aimed at nginx.
        let arguments = "--rate 200 --duration 1s --concurrency 64 --var base=\(servers.nginxHTTP.absoluteString)"
        let shards = try (0..<(load.completions ?? 0)).map {
            try process(container, environment: ["JOB_COMPLETION_INDEX": String($0), "SLUICE_ARGS": arguments])
        }
        shards.forEach { $0.waitUntilExit() }
        let merging = try process(try #require(merge.containers.first), environment: [:])
        let output = String(decoding: (merging.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        merging.waitUntilExit()
        let merged = try LoadResult(file: try Data(contentsOf: directory.file("results/run-1/merged.json")), path: "merged.json")
        #expect(merged.requests + merged.dropped == 200 && merged.errors == 0 && merged.start.timeIntervalSince1970 == Double(start))
        // A shard that dropped a request on a loaded machine exits 1, and so does the merge.
        #expect(shards.allSatisfy { $0.terminationStatus == 0 } == (merged.dropped == 0))
        #expect(merging.terminationStatus == (merged.dropped == 0 ? 0 : 1), "\(output)")
        #expect(output.contains("requests  \(merged.requests)  ok \(merged.requests)  errors 0") && output.contains("shards    0,1,2,3 of 4"), "\(output)")
        #expect(FileManager.default.fileExists(atPath: directory.file("results/run-1/load.xml").path))
    }
}
