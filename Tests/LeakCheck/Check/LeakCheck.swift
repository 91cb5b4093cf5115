import CMalloc
import Foundation
import Sluice

#if canImport(Glibc)
import Glibc
#endif

/// `sluice-leak-check SERVERS_JSON [COUNT]`: sends COUNT (default 10,000) requests that all fail,
/// one of each fault in turn, 32 at a time, through one manager and transport, and prints one JSON
/// line: what the process held (open file descriptors, bytes malloc has in use, resident memory)
/// after a warm-up of 1,000, after the COUNT, and once the transport has shut down.
///
/// It is its own process so that nothing else (the test runner's other tests) opens files or
/// allocates meanwhile: `LeakCheckTests` runs it and holds the figures to their baselines.
@main
enum LeakCheck {
    struct Servers: Decodable {
        let fault: URL
        let faultTLS: URL
    }

    struct Figures: Encodable {
        /// What each open descriptor is (`socket:[…]` shortened to `socket`), sorted.
        let descriptors: [String]
        let heapBytes: Int
        let residentBytes: Int

        static func now() -> Figures {
            malloc_trim(0)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            // One of them is the directory being listed, gone by now: it no longer resolves.
            let descriptors = names.compactMap { name -> String? in
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)") else { return nil }
                return target.hasPrefix("socket:") ? "socket" : target
            }
            let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
            let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
            return Figures(
                descriptors: descriptors.filter { !$0.hasPrefix("/proc/") }.sorted(),
                heapBytes: Int(mallinfo2().uordblks),
                residentBytes: pages * Int(sysconf(Int32(_SC_PAGESIZE)))
            )
        }
    }

    struct Report: Encodable {
        let requests: Int
        /// Whether AddressSanitizer runs in this process: its quarantine keeps freed memory
        /// resident, so the resident figures then say nothing about leaks.
        let addressSanitizer: Bool
        let kinds: [String: Int]
        let beforeTransport: Figures
        let afterWarmUp: Figures
        let afterRun: Figures
        let afterShutdown: Figures
    }

    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            FileHandle.standardError.write(Data("usage: sluice-leak-check SERVERS_JSON [COUNT]\n".utf8))
            exit(2)
        }
        let servers = try JSONDecoder().decode(Servers.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
        let count = arguments.count > 2 ? Int(arguments[2]) ?? 10_000 : 10_000
        let requests = try faults(servers)

        // The Swift runtime's own descriptors (the executor's epoll and eventfd) open on first use.
        try await Task.sleep(for: .milliseconds(10))
        let beforeTransport = Figures.now()
        // At most two idle connections kept, so that the count of sockets below has a bound by
        // construction: with libcurl's cache of 256, 32 requests at a time to a keep-alive fault
        // could leave three or more idle, and the check read them as a leak.
        let transport = CurlTransport(configuration: .init(maxIdleConnections: 2))
        let manager = SessionManager(pipeline: try Pipeline(
            transport: transport, timeouts: Timeouts(connect: .seconds(2), total: .milliseconds(200)), maxResponseSize: 64 << 10
        ))
        _ = try await send(1000, of: requests, through: manager)
        let afterWarmUp = Figures.now()
        let kinds = try await send(count, of: requests, through: manager)
        // A connection libcurl is closing, or a resolver thread's socket pair for a name that just
        // failed, can still be open the instant the last request ends; on a loaded machine that
        // instant is long. Descriptors are read again, a second at most, until no more than the
        // transport's wake-up pair and two idle connections are open: a leak stays, and fails.
        var afterRun = Figures.now()
        for _ in 0..<50 where afterRun.descriptors.filter({ $0 == "socket" }).count > 4 {
            try await Task.sleep(for: .milliseconds(20))
            afterRun = Figures.now()
        }
        await manager.invalidate(cancelingTasks: true)
        await transport.shutdown()
        let afterShutdown = Figures.now()

        let report = Report(
            requests: count, addressSanitizer: dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil, kinds: kinds, beforeTransport: beforeTransport,
            afterWarmUp: afterWarmUp, afterRun: afterRun, afterShutdown: afterShutdown
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }

    /// One request per fault: every one of them must fail.
    static func faults(_ servers: Servers) throws -> [Request] {
        func fault(_ path: String) -> Request {
            Request(url: URL(string: path, relativeTo: servers.fault)!.absoluteURL)
        }
        let refused = try unusedPort()
        return [
            Request(url: URL(string: "http://127.0.0.1:\(refused)/")!),
            Request(url: URL(string: "http://\(String(repeating: "a", count: 64)).invalid/")!),
            fault("reset-in-headers"), fault("short-body"), fault("truncated-chunked"), fault("bad-status"),
            fault("huge-header"), fault("endless-headers"), fault("gzip-bomb"), fault("silent"),
            fault("redirect-loop"), Request(url: servers.faultTLS),
        ]
    }

    /// Sends `count` requests, cycling through `requests`, 32 at a time; returns how many failed
    /// with each kind, and throws if one succeeded.
    static func send(_ count: Int, of requests: [Request], through manager: SessionManager) async throws -> [String: Int] {
        try await withThrowingTaskGroup(of: String.self) { group in
            var kinds: [String: Int] = [:]
            var next = 0
            func add() {
                let request = requests[next % requests.count]
                next += 1
                group.addTask {
                    do {
                        let response = try await manager.send(request)
                        throw LeakCheckFailure(message: "\(request.url) answered \(response.status); every request must fail")
                    } catch let error as SluiceError {
                        return error.kind.description
                    }
                }
            }
            while next < min(32, count) { add() }
            while let kind = try await group.next() {
                kinds[kind, default: 0] += 1
                if next < count { add() }
            }
            return kinds
        }
    }

    /// A loopback port nothing listens on.
    static func unusedPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw LeakCheckFailure(message: "cannot bind a loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

struct LeakCheckFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
