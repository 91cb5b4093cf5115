import Foundation
import Testing

@testable import SluiceCore
@testable import SluiceCurl
@testable import SluiceReachability
@testable import SluiceStageRegistry
@testable import SluicePipelineFiles
@testable import SluiceRunner
@testable import SluiceLoad

/// Two network namespaces the test makes, joined by a veth pair: a client (10.77.0.1/24 and
/// fd77::1/64 on `va`, a default route through the server) and a server (10.77.0.2/24 and fd77::2/64
/// on `vb`, and 10.77.1.1 on its loopback: a host only the default route reaches). Removed with
/// everything in them when the value goes.
final class NamespacePair {
    let client: String
    let server: String
    private static let counter = Locked(0)

    /// Whether this process may make network namespaces (root, or CAP_SYS_ADMIN and
    /// CAP_NET_ADMIN, and iproute2 installed): checked once, by making one.
    static let available: Bool = {
        let probe = "sluice-probe-\(getpid())"
        guard (try? NamespacePair.ip(["netns", "add", probe])) != nil else { return false }
        _ = try? NamespacePair.ip(["netns", "del", probe])
        return true
    }()

    /// Why the namespace tests are skipped where they are.
    static let unavailableReason = "network namespaces cannot be made here (`ip netns add` needs root, or CAP_SYS_ADMIN and CAP_NET_ADMIN, and iproute2): the reachability tests that change links, addresses and routes are skipped"

    init() throws {
        let number = NamespacePair.counter.withLock { value -> Int in
            value += 1
            return value
        }
        client = "sluice-\(getpid())-\(number)-a"
        server = "sluice-\(getpid())-\(number)-b"
        try NamespacePair.ip(["netns", "add", client])
        try NamespacePair.ip(["netns", "add", server])
        try NamespacePair.ip(["link", "add", "va", "netns", client, "type", "veth", "peer", "name", "vb", "netns", server])
        for (namespace, link, v4, v6) in [(client, "va", "10.77.0.1/24", "fd77::1/64"), (server, "vb", "10.77.0.2/24", "fd77::2/64")] {
            try inside(namespace, ["link", "set", "lo", "up"])
            try inside(namespace, ["addr", "add", v4, "dev", link])
            // nodad: usable at once, not after duplicate address detection's second.
            try inside(namespace, ["addr", "add", v6, "dev", link, "nodad"])
            try inside(namespace, ["link", "set", link, "up"])
        }
        try inside(server, ["addr", "add", "10.77.1.1/32", "dev", "lo"])
        try inside(client, ["route", "add", "default", "via", "10.77.0.2"])
    }

    deinit {
        _ = try? NamespacePair.ip(["netns", "del", client])
        _ = try? NamespacePair.ip(["netns", "del", server])
    }

    /// Runs `ip -n NAMESPACE ARGUMENTS`.
    func inside(_ namespace: String, _ arguments: [String]) throws {
        try NamespacePair.ip(["-n", namespace] + arguments)
    }

    /// Runs `ip -n CLIENT ARGUMENTS`: a change on the client's side.
    func client(_ arguments: String...) throws {
        try inside(client, arguments)
    }

    /// Runs `ip` and waits for it.
    /// - Throws: when it fails, with what it said.
    @discardableResult
    static func ip(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw NamespaceError(message: "ip \(arguments.joined(separator: " ")): \(text)")
        }
        return text
    }

    /// Runs `body` on a thread of its own that has entered the client's namespace: sockets it
    /// opens (a monitor's, when it starts) belong to that namespace.
    func inClient<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
        let result = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let path = "/var/run/netns/\(client)"
        let thread = Thread {
            defer { done.signal() }
            let target = open(path, O_RDONLY | O_CLOEXEC)
            guard target >= 0, NamespacePair.setns(target) == 0 else {
                result.withLock { $0 = .failure(NamespaceError(message: "cannot enter \(path): \(String(cString: strerror(errno)))")) }
                return
            }
            close(target)
            // The thread ends here: it never goes back to serve anything else in this namespace.
            result.withLock { $0 = Result { try body() } }
        }
        thread.start()
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// glibc's `setns(fd, CLONE_NEWNET)`, which Swift's Glibc module does not expose (it is a
    /// `_GNU_SOURCE` declaration): looked up by name.
    static func setns(_ descriptor: Int32) -> Int32 {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setns") else { return -1 }
        let function = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        return function(descriptor, 0x4000_0000)
    }

    /// A process run in the client's namespace (`ip netns exec`), its output read line by line as
    /// it comes.
    func run(_ arguments: [String], in namespace: String? = nil) throws -> LiveProcess {
        try LiveProcess(["/usr/sbin/ip", "netns", "exec", namespace ?? client] + arguments)
    }
}

struct NamespaceError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A child process whose standard output and error are read as they come, each line with the
/// time it arrived.
final class LiveProcess: @unchecked Sendable {
    private let process: Process
    private let lines = Locked<[(time: ContinuousClock.Instant, stream: Int, text: String)]>([])
    private let readers: [Thread]

    init(_ command: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        let pipes = [Pipe(), Pipe()]
        process.standardOutput = pipes[0]
        process.standardError = pipes[1]
        var readers: [Thread] = []
        for (stream, pipe) in pipes.enumerated() {
            let lines = self.lines
            let handle = pipe.fileHandleForReading
            readers.append(Thread {
                var pending = Data()
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    pending += data
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        let text = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending = Data(pending[(newline + 1)...])
                        lines.withLock { $0.append((ContinuousClock.now, stream, text)) }
                    }
                }
            })
        }
        self.readers = readers
        try process.run()
        readers.forEach { $0.start() }
    }

    /// Standard output's lines so far (stream 0), or standard error's (1).
    func output(_ stream: Int = 0) -> [String] {
        lines.withLock { $0.filter { $0.stream == stream }.map(\.text) }
    }

    /// Waits for the `index`th line of a stream, for at most `limit`; the line and when it came.
    func line(_ index: Int, stream: Int = 0, within limit: Duration = .seconds(10)) -> (text: String, time: ContinuousClock.Instant)? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let found = lines.withLock { lines in
                let matching = lines.filter { $0.stream == stream }
                return index < matching.count ? (matching[index].text, matching[index].time) : nil
            }
            if let found { return found }
            usleep(5_000)
        }
        return nil
    }

    /// Waits for the process to end, for at most `limit` (then ends it); its exit status.
    func wait(within limit: Duration = .seconds(30)) -> Int32 {
        let deadline = ContinuousClock.now + limit
        while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        // The last lines: a child started at the same moment by another test may hold a copy of
        // the pipe and keep it from ending, so the wait for the readers is bounded.
        let drained = ContinuousClock.now + .seconds(2)
        while readers.contains(where: { !$0.isFinished }) && ContinuousClock.now < drained { usleep(1_000) }
        return process.terminationStatus
    }

    /// Ends the process: SIGKILL, since a child of a test thread may inherit a mask that blocks
    /// SIGTERM (Python's http.server did).
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
