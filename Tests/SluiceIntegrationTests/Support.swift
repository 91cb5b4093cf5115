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

/// Records every trust question a transport asks, and answers it with a fixed decision, or with
/// the task's own answer (its request's trust policy) when it has none.
final class TrustRecorder: Sendable {
    struct Call {
        var host: String
        var scheme: String
        var remote: String
        var showsCertificates: Bool
        var answer: TrustDecision
    }

    private let seen = Locked<[Call]>([])
    let decision: TrustDecision?

    init(decision: TrustDecision? = nil) {
        self.decision = decision
    }

    func record(_ connection: ConnectionInfo, answer: TrustDecision) {
        let call = Call(
            host: connection.host, scheme: connection.scheme, remote: connection.remoteAddress,
            showsCertificates: connection.peer.map { !$0.presentedCertificates().isEmpty } ?? false, answer: answer
        )
        seen.withLock { $0.append(call) }
    }

    var calls: [Call] {
        seen.withLock { $0 }
    }
}

/// A transport that hands each exchange to `inner` with the task's listener wrapped, so that every
/// trust question the transport asks is recorded by `recorder` (and answered by it when it has a
/// decision of its own): the seam any transport reports through.
struct TrustRecordingTransport: Transport {
    let inner: any Transport
    let recorder: TrustRecorder

    private struct Events: TransportEvents {
        let task: any TransportEvents
        let recorder: TrustRecorder

        func transferStarted(url: URL, control: any TransferControl) { task.transferStarted(url: url, control: control) }
        func evaluateTrust(_ connection: ConnectionInfo, for request: Request) -> TrustDecision {
            let answer = recorder.decision ?? task.evaluateTrust(connection, for: request)
            recorder.record(connection, answer: answer)
            return answer
        }
        func requestSent() { task.requestSent() }
        func responseStarted(status: Int) { task.responseStarted(status: status) }
        func progressed(_ progress: TaskProgress) { task.progressed(progress) }
        func transferFinished(control: any TransferControl, metrics: TransferMetrics?) {
            task.transferFinished(control: control, metrics: metrics)
        }
    }

    func execute(_ request: Request, events: any TransportEvents) async throws -> Response {
        try await inner.execute(request, events: Events(task: events, recorder: recorder))
    }

    var executor: (any TaskExecutor)? { inner.executor }
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
