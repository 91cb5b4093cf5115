import Testing
@testable import SluiceCore

@Suite("HTTP headers")
struct HTTPHeadersTests {
    @Test("lookup ignores ASCII case and returns the first value")
    func caseInsensitiveLookup() {
        let headers: HTTPHeaders = ["Content-Type": "text/plain", "X-A": "1"]
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers["Content-Typ"] == nil)
        #expect(headers.contains("x-a"))
    }

    @Test("fields are equal when their bytes are, not when they are canonically equivalent Unicode")
    func byteExactEquality() {
        let composed: HTTPHeaders = ["X-Name": "caf\u{E9}"]
        let decomposed: HTTPHeaders = ["X-Name": "cafe\u{301}"]
        #expect("caf\u{E9}" == "cafe\u{301}")
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
        #expect(composed == ["X-Name": "caf\u{E9}"])
        #expect(Set([composed, ["X-Name": "caf\u{E9}"]]).count == 1)
        // Names keep their spelling: equality is of the fields as written, not of their lookup.
        #expect(HTTPHeaders(dictionaryLiteral: ("x-name", "1")) != HTTPHeaders(dictionaryLiteral: ("X-Name", "1")))
    }

    @Test("repeated fields are kept in order")
    func repeatedFields() {
        var headers = HTTPHeaders()
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "X-Other", value: "x")
        headers.add(name: "set-cookie", value: "b=2")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers.map(\.name) == ["Set-Cookie", "X-Other", "set-cookie"])
        #expect(headers.count == 3)
    }

    @Test("setting replaces every field of the name at the first one's place; nil removes them")
    func replaceAndRemove() {
        var headers = HTTPHeaders([("A", "1"), ("B", "2"), ("a", "3")])
        headers["a"] = "new"
        #expect(headers.fields == [.init(name: "a", value: "new"), .init(name: "B", value: "2")])
        headers["A"] = nil
        #expect(headers.fields == [.init(name: "B", value: "2")])
        headers["C"] = "4"
        #expect(headers.map(\.name) == ["B", "C"])
    }

    @Test("case folding touches ASCII letters only")
    func asciiOnly() {
        #expect("ÄB".equalsIgnoringASCIICase("Äb"))
        #expect(!"Ä".equalsIgnoringASCIICase("ä"))
        #expect(!"[".equalsIgnoringASCIICase("{"))
        #expect(!"@".equalsIgnoringASCIICase("`"))
    }

    @Test("long names (stored apart from the string) compare as short ones do, to the last byte")
    func longNames() {
        #expect("Access-Control-Allow-Origin".equalsIgnoringASCIICase("access-control-allow-ORIGIN"))
        #expect(!"Access-Control-Allow-Origin".equalsIgnoringASCIICase("Access-Control-Allow-Origim"))
        #expect(!"Access-Control-Allow-Origin".equalsIgnoringASCIICase("Access-Control-Allow-Origin "))
        #expect(!"X-Ä-Long-Header-Name".equalsIgnoringASCIICase("X-ä-Long-Header-Name"))
    }
}

@Suite("HTTP methods")
struct HTTPMethodTokenTests {
    @Test("a method is sendable only when it is an RFC 9110 token", arguments: [
        ("GET", true), ("PROPFIND", true), ("M-SEARCH", true), ("X_1!#$%&'*+.^`|~", true),
        ("", false), ("GET /", false), ("GET\r\n", false), ("(GET)", false), ("GÉT", false),
    ])
    func token(method: String, valid: Bool) {
        #expect(HTTPMethod(method).isValidToken == valid)
    }
}
