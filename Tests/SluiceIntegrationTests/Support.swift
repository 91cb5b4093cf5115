import Foundation

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

/// Records every event it receives, in order.
final class EventRecorder: EventMonitor {
    private let events = Locked<[TaskEvent]>([])

    func receive(_ event: TaskEvent) {
        events.withLock { $0.append(event) }
    }

    func kinds(for task: TaskID) -> [TaskEvent.Kind] {
        events.withLock { $0 }.filter { $0.taskID == task }.map(\.kind)
    }

    /// The notes of every task, in order.
    var notes: [StageNote] {
        events.withLock { $0 }.compactMap { event in
            if case .note(let note) = event.kind { note } else { nil }
        }
    }
}

/// Records what a trust evaluator was shown, and answers with a fixed decision.
final class RecordingTrustEvaluator: TrustEvaluating {
    private let seen = Locked<[(host: String, scheme: String, remote: String, hasTLSSession: Bool)]>([])
    let decision: TrustDecision

    init(decision: TrustDecision) {
        self.decision = decision
    }

    func evaluate(_ connection: ConnectionInfo) -> TrustDecision {
        seen.withLock {
            $0.append((connection.host, connection.scheme, connection.remoteAddress, connection.tlsSession != nil))
        }
        return decision
    }

    var calls: [(host: String, scheme: String, remote: String, hasTLSSession: Bool)] {
        seen.withLock { $0 }
    }
}

/// A stage that installs a trust evaluator for its task.
struct InstallTrust: RequestStage {
    let evaluator: any TrustEvaluating
    func prepare(_ request: Request, context: TaskContext) async throws -> Request {
        context.trustEvaluator = evaluator
        return request
    }
}

/// A temporary directory removed at deinit.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Writes `text` to the file `name` in the directory, replacing it, and returns its path.
    func write(_ text: String, to name: String) throws -> String {
        let file = file(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// The names of the files in the directory, hidden ones included.
    var contents: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    }
}

/// The curl CLI, the reference the tests hold Sluice to: runs it silently with `arguments`.
enum CurlCLI {
    /// curl's exit status and standard output, run as `SluiceProcess.launch` runs a process:
    /// awaited off the cooperative pool, its two threads never held while curl works.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let result = try await SluiceProcess.launch(["--silent"] + arguments, executable: URL(fileURLWithPath: "/usr/bin/curl"))
        return (result.status, result.output)
    }
}
