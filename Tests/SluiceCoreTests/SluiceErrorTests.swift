import Foundation
import Testing
@testable import SluiceCore

@Suite("SluiceError's description")
struct SluiceErrorTests {
    @Test(
        "the password of the URL an error names is written ***, its user name and the rest as they are",
        arguments: [
            ("http://user:PwSecret123@h.test/x", "http://user:***@h.test/x"),
            ("https://:token@h.test:8443/", "https://:***@h.test:8443/"),
            ("http://u:p%40ss@h.test:8080/a@b?c=d:e@f#g:h@i", "http://u:***@h.test:8080/a@b?c=d:e@f#g:h@i"),
            ("http://user@h.test/x", "http://user@h.test/x"),
            ("http://user:@h.test/x", "http://user:@h.test/x"),
            ("http://h.test/x?u:p@y", "http://h.test/x?u:p@y"),
            ("http://h.test:80/x@y:z", "http://h.test:80/x@y:z"),
        ]
    )
    func hidesThePassword(url: String, shown: String) {
        let error = SluiceError(kind: .connect, stage: "transport", url: URL(string: url), message: "refused")
        #expect(error.description == "connection failed in transport for \(shown): refused")
    }
}
