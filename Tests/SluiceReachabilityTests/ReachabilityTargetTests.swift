import Foundation
import Testing
@testable import SluiceCore
@testable import SluiceReachability

@Suite("The host the reachability stage checks")
struct ReachabilityTargetTests {
    @Test("a request over a Unix socket has no route to check; a name connected elsewhere is checked at the address it goes to")
    func checkedHost() throws {
        var request = Request("https://api.example.test/v1")
        #expect(ReachabilityCheck.host(of: request) == "api.example.test")
        request.connectionOverrides = ConnectionOverrides(resolve: [try .init(curlSyntax: "api.example.test:443:10.9.8.7")])
        #expect(ReachabilityCheck.host(of: request) == "10.9.8.7")
        request.connectionOverrides = ConnectionOverrides(unixSocketPath: "/run/api.sock")
        #expect(ReachabilityCheck.host(of: request) == nil)
    }
}
