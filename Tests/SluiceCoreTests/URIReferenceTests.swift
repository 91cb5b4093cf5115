import Testing
@testable import SluiceCore

@Suite("RFC 3986 reference resolution")
struct URIReferenceTests {
    static let base = URIReference(parsing: "http://a/b/c/d;p?q")

    /// RFC 3986 section 5.4.1.
    static let normal: [(String, String)] = [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g"),
    ]

    /// RFC 3986 section 5.4.2 (strict parser).
    static let abnormal: [(String, String)] = [
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
        ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g"),
    ]

    @Test("section 5.4.1's normal examples", arguments: normal)
    func normalExamples(reference: String, expected: String) {
        #expect(URIReference(parsing: reference).resolved(against: Self.base).description == expected)
    }

    @Test("section 5.4.2's abnormal examples", arguments: abnormal)
    func abnormalExamples(reference: String, expected: String) {
        #expect(URIReference(parsing: reference).resolved(against: Self.base).description == expected)
    }

    @Test("a resolved path starting with // and no authority is written /.// so it does not read back as a host (found by fuzzing)")
    func doubleSlashPathWithoutAuthority() {
        let resolved = URIReference(parsing: ".//h:80/x").resolved(against: URIReference(parsing: "http:/a"))
        #expect(resolved.authority == nil)
        #expect(resolved.path == "//h:80/x")
        #expect(resolved.description == "http:/.//h:80/x")
        let reread = URIReference(parsing: resolved.description)
        #expect(reread.authority == nil)
        #expect(reread.resolved(against: URIReference(parsing: "http:/a")) == resolved)
    }

    @Test("splitting keeps an empty authority, query and fragment apart from absent ones")
    func components() {
        let full = URIReference(parsing: "https://user@h:8/p/q?x=1&y#frag")
        #expect(full.scheme == "https")
        #expect(full.authority == "user@h:8")
        #expect(full.path == "/p/q")
        #expect(full.query == "x=1&y")
        #expect(full.fragment == "frag")
        let empty = URIReference(parsing: "file:///x?#")
        #expect(empty.authority == "")
        #expect(empty.query == "")
        #expect(empty.fragment == "")
        #expect(URIReference(parsing: "a/b:c").scheme == nil, "a colon after a slash is not a scheme")
    }

    @Test("dot segments: section 5.2.4's own walk-throughs")
    func dotSegments() {
        #expect(URIReference.removingDotSegments("/a/b/c/./../../g") == "/a/g")
        #expect(URIReference.removingDotSegments("mid/content=5/../6") == "mid/6")
    }

    @Test("dot segments: a path with none comes back as it is; '...' and '.x' are names, not dot segments")
    func noDotSegments() {
        for path in ["", "/", "/a/b.json", "/.../x", "/a/.x/..y/", "a..b", "/v1/items/"] {
            #expect(URIReference.removingDotSegments(path) == path)
        }
        #expect(URIReference.removingDotSegments("/a/.") == "/a/")
        #expect(URIReference.removingDotSegments("/a/b/..") == "/a/")
        #expect(URIReference.removingDotSegments("./a") == "a")
        #expect(URIReference.removingDotSegments("/é/./ü") == "/é/ü")
    }

    @Test("a combining mark after '/' leaves the '/' a delimiter: merging and dot segments work on code points")
    func combiningMarkAfterSlash() {
        // U+0301 after '/' makes one grapheme cluster, which a Character-based walk reads as no '/'
        // at all (the fuzzer's input: base http://a/\u{35D}…, reference …/se.//..././.).
        let base = URIReference(parsing: "http://a/b/\u{301}c/d")
        let merged = URIReference(parsing: "../g").resolved(against: base)
        #expect(merged.path.utf8.elementsEqual("/b/g".utf8))
        #expect(URIReference.removingDotSegments("/\u{301}x/../y").utf8.elementsEqual("/y".utf8))
        #expect(URIReference.removingDotSegments("/a/./\u{301}").utf8.elementsEqual("/a/\u{301}".utf8))
        let absolute = URIReference(parsing: "/\u{301}/./z").resolved(against: base)
        #expect(absolute.path.utf8.elementsEqual("/\u{301}/z".utf8))
        #expect(URIReference(parsing: absolute.description).resolved(against: base) == absolute)
    }

    @Test("parsing splits on ASCII delimiters only, whatever the text around them")
    func nonASCII() {
        let reference = URIReference(parsing: "https://bücher.example/straße/ä?q=ö#ß")
        #expect(reference.scheme == "https")
        #expect(reference.authority == "bücher.example")
        #expect(reference.path == "/straße/ä")
        #expect(reference.query == "q=ö")
        #expect(reference.fragment == "ß")
    }
}
