import ArgumentParser
import Foundation
import Sluice

/// `sluice-bench first-cookie`: what the first response that sets a cookie costs a process, over
/// the responses after it. A session manager with a cookie stage (a ``CookieJar`` with its
/// default, the system's public suffix list) and a libcurl transport of its own, one request at a
/// time: one warm-up request to a URL that sets no cookie (the connection, the transport and the
/// chain are warm after it), then the first request to a URL that sets one, then `requests` more
/// to that URL. The first request's time over the median of the rest is what the process pays once
/// for its first cookie.
struct FirstCookieCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "first-cookie",
        abstract: "Times the first response that sets a cookie against the next ones."
    )

    @Option(help: "A URL whose response sets a cookie.")
    var url: String

    @Option(help: "A URL on the same server whose response sets none, for the warm-up request.")
    var warmupURL: String

    @Option(help: "How many requests to time after the first.")
    var requests = 100

    func run() async throws {
        guard let cookieURL = URL(string: url) else { throw ValidationError("not a URL: \(url)") }
        guard let plainURL = URL(string: warmupURL) else { throw ValidationError("not a URL: \(warmupURL)") }
        guard requests > 0 else { throw ValidationError("--requests must be at least 1") }
        let transport = CurlTransport(configuration: .init(maxConnectionsPerHost: 1))
        let jar = CookieJar()
        let manager = SessionManager(pipeline: try Pipeline(stages: [CookieHandling(jar: jar)], transport: transport))
        let clock = ContinuousClock()

        /// Sends one GET and returns its time in µs; throws unless it is answered with 200.
        func timed(_ target: URL) async throws -> Double {
            let start = clock.now
            let response = try await manager.send(Request(url: target))
            let elapsed = clock.now - start
            guard response.status == 200 else { throw ValidationError("\(target): status \(response.status)") }
            return elapsed.seconds * 1e6
        }

        let warmup = try await timed(plainURL)
        guard jar.cookies.isEmpty else { throw ValidationError("the warm-up URL \(plainURL) set a cookie") }
        let first = try await timed(cookieURL)
        guard !jar.cookies.isEmpty else { throw ValidationError("\(cookieURL) set no cookie in the jar") }
        var next: [Double] = []
        next.reserveCapacity(requests)
        for _ in 0..<requests {
            next.append(try await timed(cookieURL))
        }
        next.sort()
        await manager.invalidate(cancelingTasks: true)
        await transport.shutdown()
        report([
            "warmupMicroseconds": warmup,
            "firstMicroseconds": first,
            "nextMicroseconds": next[next.count / 2],
            "requests": requests,
            "cookies": jar.cookies.count,
        ])
    }
}
