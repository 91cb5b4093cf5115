import Foundation
import Testing
@testable import SluiceCore

/// The `.netrc` grammar as curl reads it (tests 1304, 2005 and its `netrc` unit test describe the
/// same forms), and the pairing rule behind CVE-2024-11053.
@Suite("The .netrc file")
struct NetrcFileTests {
    @Test("machine, login and password in any layout; default; macdef skipped; comments; quoted tokens with escapes")
    func grammar() throws {
        let netrc = try NetrcFile(text: """
            # comment line
            machine a.test
              login alice
              password "s p \\"q\\" \\\\ \\t"
            macdef init
            cd /pub
            machine hidden.test login no password no

            machine B.TEST login bob password pw2 account ignored
            default login anon password guest
            """)
        #expect(netrc.credential(for: "a.test")?.password == "s p \"q\" \\ \t")
        #expect(netrc.credential(for: "b.test")?.username == "bob")
        #expect(netrc.credential(for: "hidden.test")?.username == "anon", "a macdef's lines are no entries")
        #expect(netrc.credential(for: "elsewhere.test")?.password == "guest")
        #expect(netrc.credential(for: "b.test", schemes: .digest)?.schemes == .digest)
    }

    @Test("an entry's login never goes with another entry's password: a machine without a password gives no credential, not the default's (CVE-2024-11053)")
    func pairing() throws {
        let netrc = try NetrcFile(text: "machine b.test login bob\ndefault login anon password secret\nmachine c.test password lonely")
        #expect(netrc.credential(for: "b.test") == nil)
        #expect(netrc.credential(for: "c.test") == nil)
        #expect(try NetrcFile(text: "").credential(for: "a.test") == nil)
    }

    @Test("what cannot be read says where: a quoted token that never ends, a keyword without its value, a login before any machine")
    func invalid() {
        for (text, line) in [("machine a\nlogin \"open", 2), ("machine", 1), ("login u", 1), ("machine a login", 1), ("machine a password \"x\ny\"", 1)] {
            #expect(throws: NetrcFile.Invalid.self, "\(text)") { try NetrcFile(text: text) }
            do {
                _ = try NetrcFile(text: text)
            } catch {
                #expect(error.line == line, "\(text): \(error)")
            }
        }
    }
}
