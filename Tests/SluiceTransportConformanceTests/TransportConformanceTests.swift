import Foundation
import SluiceCore
import SluiceCurl
import SluiceTransportConformance
import Testing

/// The one conformance suite, run over every transport of the package: libcurl's against the
/// scenario server (`scripts/test-servers start`), the in-memory one against the same endpoints
/// answered in process. A transport outside the package runs it too (Tests/OutsidePackage,
/// scripts/outside-package-check).
@Suite("Transport conformance: every transport, one suite")
struct TransportConformanceTests {
    /// The scenario server's URL, from the test servers' servers.json.
    static func scenarioServer() throws -> URL {
        let path = ProcessInfo.processInfo.environment["SLUICE_TEST_SERVERS"] ?? URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".test-servers/servers.json").path
        let data = try #require(FileManager.default.contents(atPath: path), "the test servers are not running: \(path)")
        let servers = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require((servers["scenario"] as? String).flatMap(URL.init(string:)))
    }

    @Test("CurlTransport", arguments: TransportConformance.Check.allCases)
    func curl(_ check: TransportConformance.Check) async throws {
        let transport = CurlTransport()
        let conformance = TransportConformance(
            transport: transport, server: try Self.scenarioServer(), directory: FileManager.default.temporaryDirectory
        )
        let problems = await conformance.run(check)
        #expect(problems.isEmpty, "\(problems)")
        await transport.shutdown()
    }

    @Test("InMemoryTransport", arguments: TransportConformance.Check.allCases)
    func inMemory(_ check: TransportConformance.Check) async throws {
        let conformance = TransportConformance(
            transport: InMemoryTransport(TransportConformance.respond(to:)),
            server: URL(string: "http://conformance.test")!,
            directory: FileManager.default.temporaryDirectory
        )
        let problems = await conformance.run(check)
        #expect(problems.isEmpty, "\(problems)")
    }
}
