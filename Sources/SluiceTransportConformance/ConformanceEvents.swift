import Foundation
import SluiceCore
import Synchronization

/// A task's listener that writes down every report a transport makes, in order, and answers trust
/// questions with a fixed decision: what the conformance checks read.
final class ConformanceEvents: TransportEvents {
    /// One report, as the transport made it.
    enum Report: Sendable, Equatable {
        case started(URL, ObjectIdentifier)
        case trust(host: String, scheme: String, showsCertificates: Bool)
        case sent
        case head(Int)
        case progress(TaskProgress)
        case finished(ObjectIdentifier, hasMetrics: Bool)
    }

    private let trustAnswer: TrustDecision
    private let log = Mutex<[Report]>([])

    init(trustAnswer: TrustDecision = .proceed) {
        self.trustAnswer = trustAnswer
    }

    /// Every report so far, in the order made.
    var reports: [Report] { log.withLock { $0 } }

    private func append(_ report: Report) {
        log.withLock { $0.append(report) }
    }

    func transferStarted(url: URL, control: any TransferControl) {
        append(.started(url, ObjectIdentifier(control)))
    }

    func evaluateTrust(_ connection: ConnectionInfo, for request: Request) -> TrustDecision {
        let shows = connection.peer.map { !$0.presentedCertificates().isEmpty } ?? false
        append(.trust(host: connection.host, scheme: connection.scheme, showsCertificates: shows))
        return trustAnswer
    }

    func requestSent() {
        append(.sent)
    }

    func responseStarted(status: Int) {
        append(.head(status))
    }

    func progressed(_ progress: TaskProgress) {
        append(.progress(progress))
    }

    func transferFinished(control: any TransferControl, metrics: TransferMetrics?) {
        append(.finished(ObjectIdentifier(control), hasMetrics: metrics != nil))
    }

    /// Returns once `report` was made, or after 2,000 looks 5 ms apart (10 s on an idle machine):
    /// a bound, not a timing the check judges.
    func wait(for report: Report) async -> Bool {
        for _ in 0..<2_000 {
            if reports.contains(report) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return false
    }
}
