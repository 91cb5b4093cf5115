import CYAML
import Testing
import Sluice

@Suite("System libraries")
struct SystemLibrariesTests {
    @Test("libcurl is 7.80 or later, which CURLOPT_PREREQFUNCTION needs")
    func libcurlVersion() throws {
        let parts = CurlTransport.libcurlVersion.split(separator: ".").compactMap { Int($0) }
        #expect(parts.count >= 2)
        #expect(parts[0] > 7 || (parts[0] == 7 && parts[1] >= 80))
    }

    @Test("libyaml links through the CYAML target")
    func libyamlLinks() {
        let version = String(cString: yaml_get_version_string())
        #expect(version.hasPrefix("0."))
    }
}
