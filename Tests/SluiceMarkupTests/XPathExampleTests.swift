import Foundation
import Testing
import SluiceMarkup

/// The example of `XPathDocument`'s doc comment, as written there.
@Suite("XPath doc comment example")
struct XPathExampleTests {
    @Test("a list's items as a node-set, and their count as a number")
    func listItems() throws {
        let page = try XPathDocument(html: Data("<ul><li>a</li><li>b</li></ul>".utf8))
        let items = try page.evaluate("//li")       // .nodes(["a", "b"])
        let count = try page.evaluate("count(//li)") // .number(2)
        #expect(items == .nodes(["a", "b"]))
        #expect(count == .number(2))
    }
}
