import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

/// The one-node Slurm cluster `scripts/test-slurm` starts on loopback, or why it could not.
enum SlurmCluster {
    /// `.test-servers/slurm/cluster.json`.
    static let description: [String: String] = {
        let path = RunCommandTests.root.appendingPathComponent(".test-servers/slurm/cluster.json")
        guard let data = try? Data(contentsOf: path), let object = try? JSONSerialization.jsonObject(with: data) as? [String: String] else {
            return ["unavailable": "no .test-servers/slurm/cluster.json: run scripts/test-servers start"]
        }
        return object
    }()

    /// The cluster's `slurm.conf`, when it runs.
    static var configuration: String? { description["conf"] }

    /// Why the cluster is not there.
    static var unavailableReason: String { description["unavailable"] ?? "" }
}

@Suite("Sharded load runs on a Slurm cluster", .enabled(if: SlurmCluster.configuration != nil, Comment(rawValue: SlurmCluster.unavailableReason)), .serialized)
struct LoadSlurmTests {
    /// Runs a Slurm client program against the test cluster, on a thread of its own (a job lasts
    /// seconds; waiting on the cooperative pool would hold up every other suite).
    static func slurm(_ program: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> SluiceProcess.Result {
        let environment = environment.merging(["SLURM_CONF": SlurmCluster.configuration!]) { $1 }
        return try await offPool { try SluiceProcess.run(arguments, executable: URL(fileURLWithPath: "/usr/bin/\(program)"), environment: environment) }
    }

    @Test("srun -n 4 sluice run --shard $SLURM_PROCID/$SLURM_NTASKS: four shards that started together merge into the whole run")
    func srun() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let file = try LoadModeTests.pipeline(directory, path: "/hello.txt")
        let start = Int(Date().timeIntervalSince1970) + 3
        let shard = #"exec "$0" run --shard "$SLURM_PROCID/$SLURM_NTASKS" --start-at "$1" --report "histogram:$2/shard-$SLURM_PROCID.json" "${@:3}""#
        let run = try await Self.slurm("srun", [
            "--ntasks=4", "--time=2", "bash", "-c", shard, SluiceProcess.executable.path, String(start), directory.url.path,
            "--rate", "400", "--duration", "2s", "--concurrency", "64", "--var", "base=\(servers.nginxHTTP.absoluteString)", file,
        ])
        let shards = (0..<4).map { directory.file("shard-\($0).json").path }
        let results = try shards.map { try LoadResult(file: try Data(contentsOf: URL(fileURLWithPath: $0)), path: $0) }
        #expect(results.map { $0.shards } == [[0], [1], [2], [3]] && results.allSatisfy { $0.shardCount == 4 })
        #expect(results.allSatisfy { $0.start.timeIntervalSince1970 == Double(start) }, "every shard started at --start-at")
        // A loaded machine may make a shard drop a request: it says so, and srun exits 1.
        let dropped = results.map(\.dropped).reduce(0, +)
        #expect(run.status == (dropped == 0 ? 0 : 1), "\(run.error)")
        let merged = try await LoadModeTests.sluice(["report", "merge", "--format", "json"] + shards)
        #expect(merged.status == (dropped == 0 ? 0 : 1))
        let load = try LoadModeTests.load(merged)
        #expect((load["requests"] as? Int).map { $0 + dropped } == 800 && load["ok"] as? Int == load["requests"] as? Int && load["dropped"] as? Int == dropped, "\(load)")
    }

    @Test("deploy/slurm/sluice-load.sbatch, submitted with sbatch --wait: the shards' files, the merged result, JUnit and the summary")
    func sbatch() async throws {
        let servers = try TestServers.load()
        let directory = try TemporaryDirectory()
        let file = try LoadModeTests.pipeline(directory, path: "/hello.txt")
        let results = directory.file("results").path
        let script = RunCommandTests.root.appendingPathComponent("deploy/slurm/sluice-load.sbatch").path
        let job = try await Self.slurm("sbatch", ["--wait", "--ntasks=4", "--time=2", "--output=\(directory.file("job.out").path)", script], environment: [
            "PIPELINE": file, "SLUICE": SluiceProcess.executable.path, "RESULTS": results, "START_DELAY": "2",
            "SLUICE_ARGS": "--rate 200 --duration 2s --concurrency 64 --var base=\(servers.nginxHTTP.absoluteString)",
        ])
        let output = (try? String(contentsOfFile: directory.file("job.out").path, encoding: .utf8)) ?? ""
        let merged = try LoadResult(file: try Data(contentsOf: URL(fileURLWithPath: results + "/merged.json")), path: "merged.json")
        #expect(merged.requests + merged.dropped == 400 && merged.errors == 0 && merged.missingShards.isEmpty)
        // The job's status is the merge's: 0 unless a shard dropped a request on a loaded machine.
        #expect(job.status == (merged.dropped == 0 ? 0 : 1), "\(job.error)\n\(output)")
        #expect(output.contains("requests  \(merged.requests)  ok \(merged.requests)  errors 0") && output.contains("shards    0,1,2,3 of 4"), "\(output)")
        let junit = try String(contentsOfFile: results + "/load.xml", encoding: .utf8)
        #expect(junit.contains(#"tests="3" failures="\#(merged.dropped == 0 ? 0 : 1)""#), "\(junit)")
    }
}
