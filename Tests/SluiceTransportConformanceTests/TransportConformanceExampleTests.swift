import Foundation
import SluiceCore
import SluiceTransportConformance
import Testing

/// The conformance suite's doc-comment example, as written there, run.
@Suite("Transport conformance: the documented example")
struct TransportConformanceExampleTests {
    @Test("TransportConformance's example runs every check over InMemoryTransport")
    func example() async {
        let conformance = TransportConformance(
            transport: InMemoryTransport(TransportConformance.respond(to:)),
            server: URL(string: "http://conformance.test")!,
            directory: FileManager.default.temporaryDirectory
        )
        for check in TransportConformance.Check.allCases {
            let problems = await conformance.run(check)
            assert(problems.isEmpty, "\(check): \(problems)")
        }
        #expect(await conformance.run().isEmpty)
    }
}
