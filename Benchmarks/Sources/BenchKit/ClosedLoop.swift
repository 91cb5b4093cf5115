import Foundation
import Synchronization

/// A closed-loop load: `concurrency` workers, each sending its next request as soon as its last
/// one finished, until `requests` have been sent. The same loop drives every client.
struct ClosedLoop: Sendable {
    /// What a loop measured.
    struct Outcome: Sendable {
        var requests: Int
        var errors: Int
        var seconds: Double
        var firstError: String?
    }

    /// Hands out request numbers to the workers.
    private final class Tickets: Sendable {
        private let counter = Atomic<Int>(0)

        func next() -> Int {
            counter.add(1, ordering: .relaxed).oldValue
        }
    }

    let requests: Int
    let concurrency: Int

    /// Runs `send` `requests` times, `concurrency` at once, the workers spread over `executors`
    /// in turn (none: the global concurrent executor). A send that throws or returns `false`
    /// counts as an error.
    func run(on executors: [any TaskExecutor], _ send: @escaping @Sendable () async throws -> Bool) async -> Outcome {
        let tickets = Tickets()
        let clock = ContinuousClock()
        let start = clock.now
        let (errors, firstError) = await withTaskGroup(of: (Int, String?).self) { group in
            for worker in 0..<max(1, min(concurrency, requests)) {
                let executor = executors.isEmpty ? nil : executors[worker % executors.count]
                group.addTask(executorPreference: executor) {
                    var errors = 0
                    var firstError: String?
                    while tickets.next() < requests {
                        do {
                            if try await !send() {
                                errors += 1
                                firstError = firstError ?? "unexpected response"
                            }
                        } catch {
                            errors += 1
                            firstError = firstError ?? "\(error)"
                        }
                    }
                    return (errors, firstError)
                }
            }
            var errors = 0
            var firstError: String?
            for await (workerErrors, workerFirst) in group {
                errors += workerErrors
                firstError = firstError ?? workerFirst
            }
            return (errors, firstError)
        }
        let elapsed = clock.now - start
        let seconds = elapsed.seconds
        return Outcome(requests: requests, errors: errors, seconds: seconds, firstError: firstError)
    }
}
