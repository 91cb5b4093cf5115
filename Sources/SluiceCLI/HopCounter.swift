import Synchronization
import Sluice

/// Counts the exchanges a request sends, redirect hops included: what `-w %{num_redirects}`
/// reports (one fewer).
final class HopCounter: RequestStage, Sendable {
    private let count = Atomic<Int>(0)

    /// `hop-counter`.
    var name: String { "hop-counter" }

    /// A hop stage: it sees every exchange.
    var placement: StagePlacement { .hop }

    /// How many exchanges were sent.
    var hops: Int { count.load(ordering: .relaxed) }

    func prepare(_ request: Request, context: TaskContext) -> Request {
        count.add(1, ordering: .relaxed)
        return request
    }
}
