import Synchronization
import Sluice
import Foundation

/// What each exchange of a request was, redirect hops included: how many were sent (what
/// `-w %{num_redirects}` reports, one fewer) and each response's head, for `-i` with `-L`,
/// which prints every response's head as curl does.
final class HopLog: Stage, Sendable {
    private let log = Mutex<(hops: Int, heads: [Response], lastURL: URL?)>((0, [], nil))
    /// Whether responses are kept for their heads (`-i`); counting alone keeps none.
    private let keepsHeads: Bool

    init(keepsHeads: Bool) {
        self.keepsHeads = keepsHeads
    }

    /// `hop-log`.
    var name: String { "hop-log" }

    /// A hop stage: it sees every exchange.
    static var placement: StagePlacement { .hop }

    /// How many exchanges were sent.
    var hops: Int { log.withLock { $0.hops } }

    /// The responses before the last, whose heads `-i -L` prints before the final one's.
    var earlierResponses: [Response] { log.withLock { Array($0.heads.dropLast()) } }

    /// The last response's head when every exchange sent got one, so that the request failed
    /// after it (too many redirects, a redirect refused); `nil` when an exchange failed, or when
    /// no heads are kept.
    var responseBeforeFailure: Response? {
        log.withLock { $0.heads.count == $0.hops ? $0.heads.last : nil }
    }

    /// When an exchange after a redirect failed (no answer on the hop a redirect led to): the
    /// status of the last response received and the URL of the hop that failed, which curl's
    /// `-w` writes as `%{http_code}` and `%{url_effective}` then; `nil` otherwise, or when no heads
    /// are kept.
    var failedHop: (status: Int, url: URL)? {
        log.withLock { log in
            guard log.heads.count == log.hops - 1, let last = log.heads.last, let url = log.lastURL else { return nil }
            return (last.status, url)
        }
    }

    func handle(_ request: Request, context: TaskContext, next: (Request, TaskContext) async throws -> Response) async throws -> Response {
        log.withLock {
            $0.hops += 1
            $0.lastURL = request.url
        }
        let response = try await next(request, context)
        if keepsHeads {
            // The head only: a redirect's body is not kept.
            var head = response
            head.body = .init()
            log.withLock { $0.heads.append(head) }
        }
        return response
    }
}
