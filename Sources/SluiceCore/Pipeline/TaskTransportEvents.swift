import Foundation

/// One task's listener for its transport's reports: each goes straight to the task's context, the
/// way AFURLSessionManager hands each session callback to its task's delegate, with no table to
/// look the task up in on the I/O thread.
///
/// A value holding only the context, so handing it to a transport allocates nothing. Trust is
/// decided here, from the request's own policy (``Request/governingTrustPolicy``): the one trust
/// mechanism, whatever the transport.
struct TaskTransportEvents: TransportEvents {
    let context: TaskContext

    var executor: (any TaskExecutor)? {
        context.executor
    }

    func transferStarted(url: URL, control: any TransferControl) {
        context.transferStarted(url: url, control: control)
    }

    func evaluateTrust(_ connection: ConnectionInfo, for request: Request) -> TrustDecision {
        request.governingTrustPolicy?.evaluate(connection) ?? .proceed
    }

    func requestSent() {
        context.requestSent()
    }

    func responseStarted(status: Int) {
        context.responseStarted(status: status)
    }

    func progressed(_ progress: TaskProgress) {
        context.progress.update(progress)
    }

    func transferFinished(control: any TransferControl, metrics: TransferMetrics?) {
        context.transferFinished(control: control, metrics: metrics)
    }
}
