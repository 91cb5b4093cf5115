import Testing
@testable import SluiceCore
@testable import SluiceCurl

@Suite("System libraries")
struct SystemLibrariesTests {
    @Test("libcurl is 7.80 or later, which CURLOPT_PREREQFUNCTION needs")
    func libcurlVersion() throws {
        let parts = CurlTransport.libcurlVersion.split(separator: ".").compactMap { Int($0) }
        #expect(parts.count >= 2)
        #expect(parts[0] > 7 || (parts[0] == 7 && parts[1] >= 80))
    }

}
