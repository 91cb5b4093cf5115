import Foundation
import Testing
import SluiceMarkup

/// XPath over HTML and XML bodies, as Hurl's `xpath` query reads them (libxml2 both), and the
/// attacks a parser of server-sent XML must withstand.
@Suite("XPath over HTML and XML bodies")
struct XPathDocumentTests {
    @Test("the four result types of XPath 1.0")
    func resultTypes() throws {
        let document = try XPathDocument(xml: Data(#"<a x="1"><b>one</b><b>two</b></a>"#.utf8))
        #expect(try document.evaluate("//b") == .nodes(["one", "two"]))
        #expect(try document.evaluate("//@x") == .nodes(["1"]))
        #expect(try document.evaluate("string(//b[2])") == .string("two"))
        #expect(try document.evaluate("count(//b)") == .number(2))
        #expect(try document.evaluate("//b = 'two'") == .boolean(true))
        #expect(try document.evaluate("//c") == .nodes([]))
    }

    @Test("HTML is read leniently, as a browser reads it; XML must be well formed, and says where it is not")
    func leniency() throws {
        let html = try XPathDocument(html: Data("<title>T</title><p>one<p>two".utf8))
        #expect(try html.evaluate("string(//title)") == .string("T"))
        #expect(try html.evaluate("count(//p)") == .number(2))
        #expect(throws: XPathError("the body is not well-formed XML (line 2)")) {
            try XPathDocument(xml: Data("<a>\n<b></a>".utf8))
        }
        #expect(throws: XPathError("`//a[` is not a valid XPath 1.0 expression")) {
            try html.evaluate("//a[")
        }
    }

    @Test("namespaces of the root element by their prefixes, the default one as _ (Hurl's convention)")
    func namespaces() throws {
        let document = try XPathDocument(xml: Data(#"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:m="urn:m"><title>News</title><m:id>7</m:id></feed>"#.utf8))
        #expect(try document.evaluate("string(//_:title)") == .string("News"))
        #expect(try document.evaluate("string(//m:id)") == .string("7"))
        #expect(try document.evaluate("count(//title)") == .number(0), "an unprefixed name is in no namespace, as XPath 1.0 says")
        #expect(throws: XPathError.self) { try document.evaluate("//x:title") }
    }

    @Test("an external entity is never read (XXE): the file it names stays unread, the reference stays a reference")
    func externalEntity() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sluice-xxe-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = directory.appendingPathComponent("secret.txt")
        try Data("TOP-SECRET".utf8).write(to: secret)
        let body = """
            <?xml version="1.0"?>
            <!DOCTYPE a [<!ENTITY xxe SYSTEM "\(secret.absoluteString)">]>
            <a>&xxe;</a>
            """
        let document = try XPathDocument(xml: Data(body.utf8))
        guard case .string(let text) = try document.evaluate("string(/a)") else { Issue.record("not a string"); return }
        #expect(!text.contains("TOP-SECRET"))
        let html = try XPathDocument(html: Data("<!DOCTYPE a [<!ENTITY xxe SYSTEM \"\(secret.absoluteString)\">]><p>&xxe;</p>".utf8))
        guard case .string(let fromHTML) = try html.evaluate("string(//p)") else { Issue.record("not a string"); return }
        #expect(!fromHTML.contains("TOP-SECRET"))
    }

    @Test("an entity bomb (billion laughs) is not expanded: the parse ends quickly and small")
    func entityBomb() throws {
        var body = #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">"#
        for level in 1...9 {
            body += "<!ENTITY lol\(level) \"" + String(repeating: "&lol\(level - 1);", count: 10) + "\">"
        }
        body += "]><lolz>&lol9;</lolz>"
        // Either refused as malformed or parsed with the reference unexpanded; never 10^9 "lol"s.
        if let document = try? XPathDocument(xml: Data(body.utf8)), case .string(let text) = try document.evaluate("string(/lolz)") {
            #expect(text.utf8.count < 1_000_000)
        }
    }

    @Test("HTML character references: named ones from libxml2's table, numeric ones, and unknown ones left as written")
    func characterReferences() {
        #expect(HTMLCharacterReferences.unescape("caf&eacute; &amp; cr&#232;me &#x2014; &bogus; &#xD800; & alone") == "café & crème — &bogus; \u{FFFD} & alone")
        #expect(HTMLCharacterReferences.unescape("&#65 foo &#x42bar") == "A foo \u{42BA}r", "a numeric reference ends at its last digit without a ';'")
        #expect(HTMLCharacterReferences.escape(#"<a href="x">Tom & 'Jerry'</a>"#) == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#x27;Jerry&#x27;&lt;/a&gt;")
    }

    @Test("HTML character references read as Python's html.unescape reads them (which Hurl's htmlUnescape follows): every code point as a hex reference, decimal ones, ones without ';', numbers past U+10FFFF, and HTML 4's names")
    func characterReferencesAsPython() throws {
        var written: [String] = []
        for value in 0...0x10FFFF { written.append("a&#x\(String(value, radix: 16));b") }
        for value in 0...0x3FF { written.append("&#\(value)") }
        written += ["&#0", "&#x80", "&#X9f;", "&#1114112;", "&#99999999999999999999;", "&#x110000;", "&#xFFFFFFFFFF;", "&#;", "&#x;", "&#xg;", "&#65;x", "&#0065;", "& #65;", "&&#65;"]
        let names = ["amp", "lt", "gt", "quot", "nbsp", "eacute", "Eacute", "copy", "euro", "hearts", "alefsym", "thetasym", "zwnj", "rsaquo", "yuml", "Yuml", "sigmaf", "piv"]
        written += names.map { "x&\($0);y" }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("html-refs-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.json")
        try JSONSerialization.data(withJSONObject: written).write(to: input)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", "import html, json, sys; json.dump([html.unescape(t) for t in json.load(open(sys.argv[1]))], open(sys.argv[2], 'w'))", input.path, directory.appendingPathComponent("out.json").path]
        try python.run()
        python.waitUntilExit()
        let expected = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("out.json"))) as? [String])
        try #require(expected.count == written.count)
        var differing: [String] = []
        for (text, wanted) in zip(written, expected) {
            let got = HTMLCharacterReferences.unescape(text)
            // Compared code point by code point, never as canonically equivalent strings.
            if !got.unicodeScalars.elementsEqual(wanted.unicodeScalars) { differing.append("\(text): \(got.debugDescription) where Python gives \(wanted.debugDescription)") }
        }
        #expect(differing.isEmpty, "\(differing.count) differ: \(differing.prefix(10))")
    }
}
