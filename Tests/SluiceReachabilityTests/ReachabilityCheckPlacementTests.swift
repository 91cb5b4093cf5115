import Testing
@testable import SluiceCore
@testable import SluiceReachability

@Suite("The reachability stage in a chain")
struct ReachabilityCheckPlacementTests {
    @Test("two reachability checks claim the same thing and are refused")
    func twoChecksRefused() {
        let transport = InMemoryTransport { request in Response(status: 200, url: request.url) }
        #expect(throws: SluiceError.self) { try Pipeline(stages: [ReachabilityCheck(), ReachabilityCheck()], transport: transport) }
    }
}
