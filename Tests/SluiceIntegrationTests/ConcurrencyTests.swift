import Foundation
import Testing
import SluiceCore
import SluiceCurl
import SluiceReachability
import SluiceStageRegistry
import SluicePipelineFiles
import SluiceRunner
import SluiceLoad

/// The tests run under the thread sanitizer (`swift test --sanitize=thread --filter ConcurrencyTests`).
@Suite("ConcurrencyTests: many tasks at once over real sockets", .timeLimit(.minutes(1)))
struct ConcurrencyTests {
    @Test("200 concurrent tasks against nginx and httpbin all complete")
    func twoHundredConcurrentTasks() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let handles = (0..<200).map { index in
            manager.task(Request(url: index % 4 == 0 ? servers.httpbin("get?i=\(index)") : servers.nginx("data.json")))
        }
        var statuses: [Int] = []
        for handle in handles {
            statuses.append(try await handle.value.status)
        }
        #expect(statuses == Array(repeating: 200, count: 200))
        #expect(manager.tasks.isEmpty)
    }

    @Test("1,000 tasks, cancellations scattered among them: the cancelled end cancelled, every other one completes")
    func scatteredCancellations() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let handles = (0..<1000).map { index in
            manager.task(Request(url: index % 2 == 0 ? servers.nginx("hello.txt") : servers.nginxTLS("data.json")))
        }
        // A fixed scatter, not a random one, so that every run judges the same cancellations:
        // about half, of both kinds of request, some after a yield lets transfers begin.
        var cancelledByTest = Set<TaskID>()
        for (index, handle) in handles.enumerated() where (index * 7919) % 13 < 6 {
            if index % 3 == 0 { await Task.yield() }
            handle.cancel()
            cancelledByTest.insert(handle.id)
        }
        var completed = 0
        var cancelled = 0
        for handle in handles {
            do {
                #expect(try await handle.value.status == 200)
                completed += 1
            } catch let error as SluiceError {
                // Only a task the test cancelled may end cancelled: a cancellation must never
                // reach another task (easy handles are pooled and reused).
                #expect(error.kind == .cancelled && cancelledByTest.contains(handle.id), "\(handle.id): \(error)")
                cancelled += 1
            }
        }
        #expect(completed + cancelled == 1000)
        #expect(manager.tasks.isEmpty)
    }

    @Test("invalidate while tasks run: in-flight tasks end, new ones are refused")
    func invalidateWhileRunning() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let handles = (0..<100).map { _ in manager.task(Request(url: servers.nginx("data.json"))) }
        await manager.invalidate(cancelingTasks: true)
        for handle in handles {
            do {
                _ = try await handle.value
            } catch let error as SluiceError {
                #expect(error.kind == .cancelled)
            }
        }
        #expect(manager.tasks.isEmpty)
        let refused = await #expect(throws: SluiceError.self) { try await manager.send(Request(url: servers.nginx("hello.txt"))) }
        #expect(refused?.kind == .invalidated)
    }

    @Test("the per-host connection limit holds: 40 concurrent requests share at most 2 connections")
    func connectionsPerHostLimit() async throws {
        let servers = try TestServers.load()
        let transport = servers.trustingTransport(CurlTransport.Configuration(maxConnectionsPerHost: 2))
        let manager = SessionManager(pipeline: try Pipeline(stages: [], transport: transport))
        let handles = (0..<40).map { _ in manager.task(Request(url: servers.nginx("data.json"))) }
        var ports = Set<Int>()
        for handle in handles {
            let response = try await handle.value
            #expect(response.status == 200)
        }
        for handle in handles {
            ports.formUnion(handle.context.metrics.transfers.compactMap(\.localPort))
        }
        #expect(ports.count <= 2)
        #expect(handles.filter { $0.context.metrics.transfers.first?.connectionReused == false }.count <= 2)
    }

    @Test("cancelAll under load leaves no task behind")
    func cancelAllUnderLoad() async throws {
        let servers = try TestServers.load()
        let manager = try servers.manager()
        let handles = (0..<300).map { _ in manager.task(Request(url: servers.nginxTLS("data.json"))) }
        try await Task.sleep(for: .milliseconds(20))
        manager.cancelAll()
        for handle in handles {
            _ = try? await handle.value
        }
        #expect(manager.tasks.isEmpty)
    }
}
