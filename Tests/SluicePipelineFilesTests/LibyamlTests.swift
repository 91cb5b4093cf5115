import CYAML
import Testing

@Suite("libyaml")
struct LibyamlTests {
    @Test("libyaml links through the CYAML target")
    func libyamlLinks() {
        let version = String(cString: yaml_get_version_string())
        #expect(version.hasPrefix("0."))
    }
}
